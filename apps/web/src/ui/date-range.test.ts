import { describe, expect, it } from 'vitest';
import { dayjs } from '../lib/dates';
import {
  formatPickerDate,
  matchingPreset,
  normalizeRange,
  parseTypedDate,
  presetRange,
  type DatePreset,
} from './date-range';

// Thursday 20 November 2026, mid-morning (tests run with TZ=UTC).
const now = new Date(2026, 10, 20, 10, 30);
const day = (d: Date | null) => (d ? dayjs(d).format('YYYY-MM-DD HH:mm:ss') : null);

describe('presetRange', () => {
  const cases: [DatePreset, string, string][] = [
    ['today', '2026-11-20', '2026-11-20'],
    ['yesterday', '2026-11-19', '2026-11-19'],
    ['currentWeek', '2026-11-16', '2026-11-22'],
    ['lastWeek', '2026-11-09', '2026-11-15'],
    ['currentMonth', '2026-11-01', '2026-11-30'],
    ['lastMonth', '2026-10-01', '2026-10-31'],
    ['currentYear', '2026-01-01', '2026-12-31'],
    ['lastYear', '2025-01-01', '2025-12-31'],
  ];
  it.each(cases)('%s runs from %s 00:00:00 to %s 23:59:59', (preset, from, to) => {
    const r = presetRange(preset, now);
    expect(day(r.start)).toBe(`${from} 00:00:00`);
    expect(day(r.end)).toBe(`${to} 23:59:59`);
  });

  it('starts weeks on Monday, also when today is Sunday or Monday', () => {
    expect(day(presetRange('currentWeek', new Date(2026, 10, 22)).start)).toBe('2026-11-16 00:00:00');
    expect(day(presetRange('currentWeek', new Date(2026, 10, 23)).start)).toBe('2026-11-23 00:00:00');
    expect(day(presetRange('lastWeek', new Date(2026, 10, 22)).end)).toBe('2026-11-15 23:59:59');
  });

  it('crosses the year for last month in January', () => {
    const r = presetRange('lastMonth', new Date(2027, 0, 5));
    expect(day(r.start)).toBe('2026-12-01 00:00:00');
    expect(day(r.end)).toBe('2026-12-31 23:59:59');
  });
});

describe('matchingPreset', () => {
  it('finds the preset a value stands for, whatever the time of day', () => {
    expect(matchingPreset(presetRange('lastWeek', now), now)).toBe('lastWeek');
    expect(matchingPreset({ start: new Date(2026, 10, 20, 8), end: new Date(2026, 10, 20, 9) }, now)).toBe(
      'today',
    );
  });
  it("answers 'none' for an empty value and null for a custom range", () => {
    expect(matchingPreset({ start: null, end: null }, now)).toBe('none');
    expect(matchingPreset({ start: new Date(2026, 10, 2), end: new Date(2026, 10, 4) }, now)).toBeNull();
    expect(matchingPreset({ start: new Date(2026, 10, 20), end: null }, now)).toBeNull();
  });
});

describe('parseTypedDate', () => {
  it('reads DD/MM/YYYY', () => {
    expect(day(parseTypedDate('05/03/2026'))).toBe('2026-03-05 00:00:00');
    expect(day(parseTypedDate(' 5/3/2026 '))).toBe('2026-03-05 00:00:00');
  });
  it('gives null for anything else', () => {
    for (const s of [
      '',
      'abc',
      '2026-03-05',
      '03/05/26',
      '31/02/2026',
      '32/01/2026',
      '05/13/2026',
      '05/03/2026x',
    ])
      expect(parseTypedDate(s)).toBeNull();
  });
});

describe('normalizeRange', () => {
  it('sets the end to 23:59:59 of its day and the start to midnight', () => {
    const r = normalizeRange(new Date(2026, 10, 3, 15), new Date(2026, 10, 7, 8));
    expect(day(r.start)).toBe('2026-11-03 00:00:00');
    expect(day(r.end)).toBe('2026-11-07 23:59:59');
  });
  it('swaps a start after the end', () => {
    const r = normalizeRange(new Date(2026, 10, 9), new Date(2026, 10, 2));
    expect(day(r.start)).toBe('2026-11-02 00:00:00');
    expect(day(r.end)).toBe('2026-11-09 23:59:59');
  });
  it('keeps a partial range partial', () => {
    expect(normalizeRange(null, new Date(2026, 10, 2))).toEqual({
      start: null,
      end: new Date(2026, 10, 2, 23, 59, 59),
    });
    expect(normalizeRange(null, null)).toEqual({ start: null, end: null });
  });
});

describe('formatPickerDate', () => {
  it("shows DD MMM YYYY, or '...' when unset", () => {
    dayjs.locale('en');
    expect(formatPickerDate(new Date(2026, 10, 3))).toBe('03 Nov 2026');
    expect(formatPickerDate(null)).toBe('...');
  });
});
