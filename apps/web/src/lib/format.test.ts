import { describe, expect, it } from 'vitest';
import { dayjs, formatDate, formatDateTime, formatEuro, formatTime } from './format';
import { setDisplayTimeZone } from './time-zone';

describe('format', () => {
  it('shows dates and times in the portal zone', () => {
    setDisplayTimeZone('Europe/Rome');
    expect(formatDate('2026-03-29T22:30:00Z')).toBe('30/03/2026');
    expect(formatTime('2026-03-29T22:30:00Z')).toBe('00:30');
    expect(formatDateTime('2026-11-20T10:05:00Z')).toBe('20/11/2026 11:05');
  });

  it('gives the same wall clock as dayjs.tz across DST changes, zones and input kinds', () => {
    const zones = ['Europe/Rome', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
    const instants = [
      '2026-03-29T00:59:59Z',
      '2026-03-29T01:00:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:30:00.250Z',
      '2026-12-31T23:00:00Z',
      '2027-01-01T00:00:00+01:00',
      '2026-07-04T12:34:00-04:00',
      '0999-06-01T12:00:00Z',
    ];
    for (const tz of zones) {
      setDisplayTimeZone(tz);
      for (const iso of instants) {
        const d = dayjs(iso).tz(tz);
        expect(formatDateTime(iso), `${iso} in ${tz}`).toBe(d.format('DD/MM/YYYY HH:mm'));
        expect(formatDate(new Date(iso))).toBe(d.format('DD/MM/YYYY'));
        expect(formatTime(iso)).toBe(d.format('HH:mm'));
      }
    }
    setDisplayTimeZone('Europe/Rome');
    // No offset: dayjs reads it in the browser's zone (UTC in tests), as before.
    expect(formatDate('2026-11-20')).toBe('20/11/2026');
    expect(formatDateTime('2026-11-20T23:30:00')).toBe(
      dayjs('2026-11-20T23:30:00').tz('Europe/Rome').format('DD/MM/YYYY HH:mm'),
    );
    expect(formatDate(null)).toBe('');
  });

  it('shows euro with two decimals', () => {
    expect(formatEuro(12345.5, 'it-IT')).toMatch(/^12\.345,50\s€$/);
    expect(formatEuro(1234.5, 'en-EN')).toBe('€1,234.50');
  });
});
