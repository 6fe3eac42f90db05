import type { TFunction } from 'i18next';
import {
  RECURRENCE_MONTHLY,
  RECURRENCE_WEEKLY,
  RECURRENCE_YEARLY,
  type RecurrenceTrigger,
} from '@sportello/contracts';
import { dayjs } from '../../lib/dates';

/** The month's name in the language (dayjs locales it, en, es are loaded by lib/format). */
export function monthName(month: number, language: string): string {
  return dayjs(new Date(2000, month - 1, 1))
    .locale(language.slice(0, 2))
    .format('MMMM');
}

/**
 * The recurrence of a subscription (SPEC A2): 10 every N weeks on a weekday (abbreviated, 1 = Monday),
 * 20 every month or every N months on a day, 30 yearly on a day and month; '' for an unknown type.
 */
export function recurrenceText(trigger: RecurrenceTrigger, t: TFunction, language: string): string {
  switch (trigger.recurrenceType) {
    case RECURRENCE_WEEKLY: {
      const count = trigger.frequencyWeek ?? 1;
      const weekday = t(`billing.weekdays.${trigger.recurrenceDayOfWeek ?? 1}`);
      return count > 1
        ? t('billing.recurrence.everyWeeks', { n: count, weekday })
        : t('billing.recurrence.everyWeek', { weekday });
    }
    case RECURRENCE_MONTHLY: {
      const count = trigger.frequencyMonth ?? 1;
      const day = trigger.recurrenceDay ?? 1;
      return count > 1
        ? t('billing.recurrence.everyMonths', { n: count, day })
        : t('billing.recurrence.everyMonth', { day });
    }
    case RECURRENCE_YEARLY:
      return t('billing.recurrence.yearly', {
        day: trigger.recurrenceDay ?? 1,
        month: monthName(trigger.recurrenceMonth ?? 1, language),
      });
    default:
      return '';
  }
}
