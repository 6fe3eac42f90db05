import { describe, expect, it, vi } from 'vitest';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import {
  formatDate,
  formatDateTime,
  formatEuro,
  formatFileSize,
  formatNumber,
  formatTime,
  fromDayParam,
  toDayParam,
  ticketNumberText,
  toMinuteParam,
} from './format';
import { setDisplayTimeZone } from './time-zone';
import { portalDayOf, todayInPortal, zoneOffsetLabel } from './zone-days';

// The reference: dayjs's zone plugin, which time-zone.ts replaced with Intl.
dayjs.extend(utc);
dayjs.extend(timezone);

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

  it("labels a zone's UTC offset as dayjs did, and reads query days back", () => {
    for (const tz of ['Europe/Rome', 'America/New_York', 'Asia/Kolkata', 'UTC'])
      for (const iso of ['2026-03-29T01:00:00Z', '2026-07-04T12:34:00-04:00', '2026-11-20T23:30:00'])
        expect(zoneOffsetLabel(iso, tz), `${iso} in ${tz}`).toBe(dayjs(iso).tz(tz).format('Z'));
    const day = fromDayParam('2026-11-20');
    expect(toDayParam(day)).toBe('2026-11-20');
    expect(toMinuteParam(fromDayParam('2026-11-20', true)!)).toBe('2026-11-20 23:59');
    expect(fromDayParam('2026-02-30')).toBeNull();
    expect(fromDayParam('20/11/2026')).toBeNull();
  });

  it('shows euro with two decimals', () => {
    expect(formatEuro(12345.5, 'it-IT')).toMatch(/^12\.345,50\s€$/);
    expect(formatEuro(1234.5, 'en-EN')).toBe('€1,234.50');
  });

  it('groups thousands in every language, four digits included', () => {
    // Italian and Spanish leave 1234 ungrouped by default (CLDR's minimum grouping digits).
    expect(formatEuro(1234.5, 'it-IT')).toMatch(/^1\.234,50\s€$/);
    expect(formatEuro(1234.5, 'es-ES')).toMatch(/^1\.234,50\s€$/);
    expect(formatNumber(1234, 'it-IT')).toBe('1.234');
    expect(formatNumber(1234.25, 'es-ES')).toBe('1.234,25');
    expect(formatNumber(1234.25, 'en-EN')).toBe('1,234.25');
  });

  it('writes file sizes with the decimal separator of the language', () => {
    expect(formatFileSize(2.5 * 1024 * 1024, 'it-IT')).toBe('2,5 MB');
    expect(formatFileSize(2.5 * 1024 * 1024, 'en-EN')).toBe('2.5 MB');
    expect(formatFileSize(25 * 1024 * 1024, 'es-ES')).toBe('25 MB');
    expect(formatFileSize(300, 'it-IT')).toBe('1 KB');
    expect(formatFileSize(1536 * 1024 * 1024, 'it-IT')).toBe('1,5 GB');
  });
});

describe('ticketNumberText', () => {
  it('is the ticket number, and none without a yearly progressive', () => {
    expect(ticketNumberText({ ticketNumber: '2026/0126', internalAnnualProgressive: 126 })).toBe('2026/0126');
    expect(ticketNumberText({ ticketNumber: '2026/0000', internalAnnualProgressive: 0 })).toBe('');
  });
});

describe("the portal's today", () => {
  it('is the day in the portal zone, not in UTC, and so are the days of date fields', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-27T23:30:00Z')); // already the 28th in Rome
      setDisplayTimeZone('Europe/Rome');
      expect(todayInPortal()).toBe('2026-11-28');
      // A contract starting on 1 October, midnight in Rome: 30 September in UTC.
      expect(portalDayOf('2026-09-30T22:00:00.000Z')).toBe('2026-10-01');
      expect(portalDayOf('2026-10-01')).toBe('2026-10-01');
      setDisplayTimeZone('America/New_York');
      expect(todayInPortal()).toBe('2026-11-27');
      // A zone Intl does not know shows the browser's (UTC in tests) instead of breaking the page.
      setDisplayTimeZone('Mars/Olympus');
      expect(todayInPortal()).toBe('2026-11-27');
    } finally {
      setDisplayTimeZone('Europe/Rome');
      vi.useRealTimers();
    }
  });
});
