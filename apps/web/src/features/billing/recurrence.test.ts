import { describe, expect, it } from 'vitest';
import type { RecurrenceTrigger } from '@sportello/contracts';
import { i18n } from '../../i18n';
import { recurrenceText } from './recurrence';

const trigger = (over: Partial<RecurrenceTrigger>): RecurrenceTrigger => ({
  recurrenceType: 10,
  frequencyWeek: null,
  recurrenceDayOfWeek: null,
  frequencyMonth: null,
  recurrenceDay: null,
  recurrenceMonth: null,
  ...over,
});

const text = (lang: 'it-IT' | 'en-EN' | 'es-ES', over: Partial<RecurrenceTrigger>) =>
  recurrenceText(trigger(over), i18n.getFixedT(lang), lang);

describe('recurrenceText', () => {
  it('type 10: every N weeks on an abbreviated weekday (1 = Monday)', () => {
    expect(text('en-EN', { frequencyWeek: 2, recurrenceDayOfWeek: 3 })).toBe('Every 2 weeks on WED');
    expect(text('it-IT', { frequencyWeek: 2, recurrenceDayOfWeek: 3 })).toBe('Ogni 2 settimane il MER');
    expect(text('es-ES', { frequencyWeek: 2, recurrenceDayOfWeek: 3 })).toBe('Cada 2 semanas el MIÉ');
    expect(text('en-EN', { frequencyWeek: 1, recurrenceDayOfWeek: 7 })).toBe('Every week on SUN');
    expect(text('it-IT', { frequencyWeek: 1, recurrenceDayOfWeek: 1 })).toBe('Ogni settimana il LUN');
  });

  it('uses MON..SUN in English, LUN..DOM in Italian and LUN..DOM in Spanish', () => {
    const days = (lang: 'it-IT' | 'en-EN' | 'es-ES') =>
      [1, 2, 3, 4, 5, 6, 7].map((d) =>
        text(lang, { frequencyWeek: 1, recurrenceDayOfWeek: d }).split(' ').pop(),
      );
    expect(days('en-EN')).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']);
    expect(days('it-IT')).toEqual(['LUN', 'MAR', 'MER', 'GIO', 'VEN', 'SAB', 'DOM']);
    expect(days('es-ES')).toEqual(['LUN', 'MAR', 'MIÉ', 'JUE', 'VIE', 'SÁB', 'DOM']);
  });

  it('type 20: every month, or every N months, on a day', () => {
    expect(text('en-EN', { recurrenceType: 20, frequencyMonth: 1, recurrenceDay: 15 })).toBe(
      'Every month on day 15',
    );
    expect(text('en-EN', { recurrenceType: 20, frequencyMonth: 3, recurrenceDay: 1 })).toBe(
      'Every 3 months on day 1',
    );
    expect(text('it-IT', { recurrenceType: 20, frequencyMonth: 1, recurrenceDay: 15 })).toBe(
      'Ogni mese il giorno 15',
    );
    expect(text('it-IT', { recurrenceType: 20, frequencyMonth: 3, recurrenceDay: 1 })).toBe(
      'Ogni 3 mesi il giorno 1',
    );
    expect(text('es-ES', { recurrenceType: 20, frequencyMonth: 6, recurrenceDay: 28 })).toBe(
      'Cada 6 meses el día 28',
    );
  });

  it('type 30: yearly on a day and month, the month named in the language', () => {
    expect(text('en-EN', { recurrenceType: 30, recurrenceDay: 15, recurrenceMonth: 3 })).toBe(
      'Every year on 15 March',
    );
    expect(text('it-IT', { recurrenceType: 30, recurrenceDay: 15, recurrenceMonth: 3 })).toBe(
      'Ogni anno il 15 marzo',
    );
    expect(text('es-ES', { recurrenceType: 30, recurrenceDay: 1, recurrenceMonth: 12 })).toBe(
      'Cada año el 1 de diciembre',
    );
  });

  it('says nothing for an unknown type', () => {
    expect(text('en-EN', { recurrenceType: 99 })).toBe('');
  });
});
