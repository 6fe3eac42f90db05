import { describe, expect, it } from 'vitest';
import { reportFiltersOf, reportParamsOf, reportQueryOf } from './reports-url';

const read = (s: string) => reportFiltersOf(new URLSearchParams(s), '2026-11-20');

describe('the reports URL', () => {
  it('defaults to the last 30 days by day', () => {
    expect(read('')).toEqual({ from: '2026-10-22', to: '2026-11-20', granularity: 'day' });
  });

  it('reads and writes back every value', () => {
    const s =
      'from=2026-01-01&to=2026-03-31&granularity=week&group=2&agent=1&company=10&type=3&priority=high&breakdown=group';
    const f = read(s);
    expect(f).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      granularity: 'week',
      group: 2,
      agent: 1,
      company: 10,
      type: 3,
      priority: 'high',
      breakdown: 'group',
    });
    expect(reportParamsOf(f).toString()).toBe(s);
    expect(reportQueryOf(f, false)).not.toHaveProperty('breakdown');
  });

  it('drops what the desk cannot have written', () => {
    expect(read('from=2026-02-30&to=x&group=two&priority=extreme&breakdown=step&granularity=month')).toEqual({
      from: '2026-10-22',
      to: '2026-11-20',
      granularity: 'day',
    });
    // Over 366 days, or reversed: the default length before `to`.
    expect(read('from=2024-01-01&to=2026-03-31').from).toBe('2026-03-02');
    expect(read('from=2026-04-01&to=2026-03-31').from).toBe('2026-03-02');
  });
});
