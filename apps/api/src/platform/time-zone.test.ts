import { describe, expect, it } from 'vitest';
import { importDateToDate } from '../modules/admin/writers/support';
import { demoKit } from '../modules/admin/demo-kit';
import { parseDateRange } from './date-range';
import {
  addDays,
  daysBetween,
  formatInZone,
  localDay,
  wallToInstant,
  weekdayOf,
  yearBounds,
  zonedDate,
} from '@sportello/contracts/time-zone';

describe('one reading of local times on the whole server', () => {
  // [zone, day, time, the instant]: clocks going back (twice: the first pass), going forward (missing:
  // moved forward by the gap), at midnight in zones that change there, and an ordinary time.
  const cases: [string, string, string, string][] = [
    ['Europe/Rome', '2026-10-25', '02:30', '2026-10-25T00:30:00.000Z'],
    ['Europe/Rome', '2027-03-28', '02:30', '2027-03-28T01:30:00.000Z'],
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z'],
    ['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z'],
    ['America/Santiago', '2026-09-06', '00:00', '2026-09-06T04:00:00.000Z'],
    ['Asia/Beirut', '2026-03-29', '00:00', '2026-03-28T22:00:00.000Z'],
    ['Australia/Lord_Howe', '2026-04-05', '01:45', '2026-04-04T14:45:00.000Z'],
    ['Europe/Rome', '2026-07-01', '09:15', '2026-07-01T07:15:00.000Z'],
  ];

  it('filters, imports and appointments agree on every wall-clock time, DST gaps and repeats included', () => {
    for (const [zone, day, time, instant] of cases) {
      const what = `${zone} ${day} ${time}`;
      expect(wallToInstant(day, time, zone).toISOString(), what).toBe(instant);
      expect(zonedDate(`${day}T${time}`, zone).toISOString(), what).toBe(instant);
      expect(importDateToDate(`${day} ${time}`, zone).toISOString(), `import ${what}`).toBe(instant);
      expect(parseDateRange({ from: `${day} ${time}` }, zone).from?.toISOString(), `filter ${what}`).toBe(
        instant,
      );
    }
  });

  it('keeps the years 0–99 where they are', () => {
    expect(zonedDate('0050-06-01', 'UTC').getUTCFullYear()).toBe(50);
    expect(localDay(zonedDate('0100-01-01', 'Europe/Rome'), 'Europe/Rome')).toBe('0100-01-01');
  });

  it('does calendar arithmetic on days, whatever the clocks do', () => {
    expect(addDays('2026-10-24', 1)).toBe('2026-10-25');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-10-20', '2026-10-30')).toBe(10);
    expect(weekdayOf('2026-11-22')).toBe(0); // a Sunday
    expect(localDay(new Date('2026-11-22T23:30:00Z'), 'Europe/Rome')).toBe('2026-11-23');
    const y = yearBounds(new Date('2026-12-31T23:30:00Z'), 'Europe/Rome');
    expect([y.year, y.start.toISOString(), y.end.toISOString()]).toEqual([
      2027,
      '2026-12-31T23:00:00.000Z',
      '2027-12-31T23:00:00.000Z',
    ]);
  });

  it('writes an instant in a zone for people to read', () => {
    const at = new Date('2026-07-01T07:05:09Z');
    expect(formatInZone(at, 'Europe/Rome', 'DD/MM/YYYY HH:mm:ss')).toBe('01/07/2026 09:05:09');
    expect(formatInZone(at, 'America/New_York', 'HH:mm')).toBe('03:05');
  });

  it('places the demo at the local hours it names, in summer as in winter', () => {
    // Built in November: a time in May is in summer time (UTC+2), not November's UTC+1.
    const k = demoKit(new Date('2026-11-20T10:00:00Z'));
    expect(k.ago(200, 11, 0)).toBe('2026-05-04T09:00:00.000Z');
    expect(k.ago(2, 8, 42)).toBe('2026-11-18T07:42:00.000Z');
  });
});
