import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatEuro, formatTime, setDisplayTimeZone } from './format';

describe('format', () => {
  it('shows dates and times in the portal zone', () => {
    setDisplayTimeZone('Europe/Rome');
    expect(formatDate('2026-03-29T22:30:00Z')).toBe('30/03/2026');
    expect(formatTime('2026-03-29T22:30:00Z')).toBe('00:30');
    expect(formatDateTime('2026-11-20T10:05:00Z')).toBe('20/11/2026 11:05');
  });

  it('shows euro with two decimals', () => {
    expect(formatEuro(12345.5, 'it-IT')).toMatch(/^12\.345,50\s€$/);
    expect(formatEuro(1234.5, 'en-EN')).toBe('€1,234.50');
  });
});
