import { describe, expect, it, vi } from 'vitest';
import { parseDateRange } from './date-range';
import { localDay, yearBounds } from '@sportello/contracts/time-zone';

describe('parseDateRange', () => {
  it('reads days and minutes in the portal zone as half-open bounds, across DST', () => {
    const r = parseDateRange({ from: '2026-10-25', to: '2026-10-25' }, 'Europe/Rome');
    expect(r.from?.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(r.toExclusive?.toISOString()).toBe('2026-10-25T23:00:00.000Z'); // a 25-hour day
    const m = parseDateRange({ to: '2026-11-20 10:30' }, 'Europe/Rome');
    expect(m.toExclusive?.toISOString()).toBe('2026-11-20T09:31:00.000Z');
    expect(parseDateRange({}, 'Europe/Rome')).toEqual({ from: null, toExclusive: null });
  });

  it('answers a repeated range the same, in fresh Date objects', () => {
    const a = parseDateRange({ from: '2026-01-01', to: '2026-01-31' }, 'America/New_York');
    a.from!.setTime(0);
    const b = parseDateRange({ from: '2026-01-01', to: '2026-01-31' }, 'America/New_York');
    expect(b.from?.toISOString()).toBe('2026-01-01T05:00:00.000Z');
    expect(parseDateRange({ from: '2026-01-01' }, 'Europe/Rome').from?.toISOString()).toBe(
      '2025-12-31T23:00:00.000Z',
    );
  });

  it('refuses what is not a real date, every time', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => parseDateRange({ from: '2026-02-30' }, 'Europe/Rome')).toThrow(/not a real date/);
      expect(() => parseDateRange({ to: 'yesterday' }, 'Europe/Rome')).toThrow(/expected YYYY-MM-DD/);
    }
  });

  it('refuses years outside 1900–2199, which name no data and break zone arithmetic', () => {
    for (const q of [
      { from: '0100-01-01' },
      { to: '9999-12-31' },
      { from: '1899-12-31' },
      { to: '2200-01-01' },
    ])
      expect(() => parseDateRange(q, 'Europe/Rome')).toThrow(
        expect.objectContaining({ code: 'invalid_date' }),
      );
    expect(parseDateRange({ from: '1900-01-01', to: '2199-12-31' }, 'Europe/Rome').toExclusive).toEqual(
      new Date('2199-12-31T23:00:00Z'),
    );
  });
});

describe('localDay and yearBounds', () => {
  it('give the calendar day and year of an instant in the zone, across DST and New Year', () => {
    expect(localDay('2026-03-28T23:30:00Z', 'Europe/Rome')).toBe('2026-03-29');
    expect(localDay(new Date('2026-03-29T21:59:59Z'), 'Europe/Rome')).toBe('2026-03-29');
    expect(localDay(new Date('2026-03-29T22:00:00Z'), 'Europe/Rome')).toBe('2026-03-30');
    expect(localDay('2026-10-25T22:59:59Z', 'Europe/Rome')).toBe('2026-10-25');
    expect(localDay('2026-10-25T23:00:00Z', 'Europe/Rome')).toBe('2026-10-26');
    expect(localDay('2026-06-01T03:00:00Z', 'America/New_York')).toBe('2026-05-31');
    expect(yearBounds(new Date('2026-12-31T23:30:00Z'), 'Europe/Rome')).toEqual({
      year: 2027,
      start: new Date('2026-12-31T23:00:00Z'),
      end: new Date('2027-12-31T23:00:00Z'),
    });
  });

  it('builds one formatter per zone, not one per call (lists call it per row)', () => {
    // Counted rather than timed: a timing read beside other suites on two cores said nothing reliable.
    const Real = Intl.DateTimeFormat;
    const built = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof Real>
    ) {
      return new Real(...args);
    } as unknown as typeof Real);
    try {
      for (let i = 0; i < 2000; i++)
        localDay(new Date(Date.UTC(2026, 0, 1) + i * 3_600_000), 'Asia/Kathmandu');
      expect(built.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      built.mockRestore();
    }
  });
});
