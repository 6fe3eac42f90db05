import { zonedDate } from '@sportello/contracts/time-zone';
import { describe, expect, it } from 'vitest';
import { addBusinessMinutes, businessMinutesBetween, type BusinessCalendar } from './sla';
import { computeClock, targetsFor } from './sla-clock';

const ROME = 'Europe/Rome';
const rome = (local: string) => zonedDate(local, ROME);
const iso = (d: Date | null) => d?.toISOString() ?? null;

const day: [string, string][] = [
  ['14:00', '18:00'],
  ['09:00', '13:00'],
];
/** Monday to Friday, 9-13 and 14-18; Easter Monday 2026 closed. */
const office: BusinessCalendar = {
  timeZone: ROME,
  hours: [[], day, day, day, day, day, []],
  holidays: ['2026-04-06'],
};
const allDay: [string, string][] = [['00:00', '24:00']];
const always: BusinessCalendar = { timeZone: ROME, hours: Array(7).fill(allDay), holidays: [] };

describe('addBusinessMinutes', () => {
  it('adds within a day and skips the lunch break', () => {
    expect(iso(addBusinessMinutes(office, rome('2026-03-03T10:00'), 60))).toBe('2026-03-03T10:00:00.000Z');
    expect(iso(addBusinessMinutes(office, rome('2026-03-03T12:30'), 60))).toBe('2026-03-03T13:30:00.000Z');
  });

  it('spans several days', () => {
    // Monday 17:00, one working day (8 h) later: Tuesday 17:00.
    expect(iso(addBusinessMinutes(office, rome('2026-03-02T17:00'), 480))).toBe('2026-03-03T16:00:00.000Z');
    // Three working days from Wednesday morning: Friday 18:00, not Monday 9:00.
    expect(iso(addBusinessMinutes(office, rome('2026-03-04T09:00'), 3 * 480))).toBe(
      '2026-03-06T17:00:00.000Z',
    );
    // One minute more: Monday 9:01.
    expect(iso(addBusinessMinutes(office, rome('2026-03-04T09:00'), 3 * 480 + 1))).toBe(
      '2026-03-09T08:01:00.000Z',
    );
  });

  it('skips the weekend across the spring change (last Sunday of March)', () => {
    // Friday 17:00 CET (+01:00) plus two hours: Monday 10:00 CEST (+02:00), 08:00 UTC.
    expect(iso(addBusinessMinutes(office, rome('2026-03-27T17:00'), 120))).toBe('2026-03-30T08:00:00.000Z');
  });

  it('skips the weekend across the autumn change (last Sunday of October)', () => {
    // Friday 17:00 CEST plus two hours: Monday 10:00 CET, 09:00 UTC.
    expect(iso(addBusinessMinutes(office, rome('2026-10-23T17:00'), 120))).toBe('2026-10-26T09:00:00.000Z');
  });

  it('counts the real length of the days the clocks change', () => {
    // 02:00-03:00 does not exist on 29 March: three hours after midnight is 04:00 CEST.
    expect(iso(addBusinessMinutes(always, rome('2026-03-29'), 180))).toBe('2026-03-29T02:00:00.000Z');
    expect(iso(addBusinessMinutes(always, rome('2026-03-29'), 24 * 60))).toBe(
      rome('2026-03-30T01:00').toISOString(),
    );
    // 02:00-03:00 happens twice on 25 October: 24 hours after midnight is 23:00 the same day.
    expect(iso(addBusinessMinutes(always, rome('2026-10-25'), 24 * 60))).toBe(
      rome('2026-10-25T23:00').toISOString(),
    );
  });

  it('skips a holiday', () => {
    // Good Friday 17:00 plus two hours: Easter Monday is closed, so Tuesday 10:00 CEST.
    expect(iso(addBusinessMinutes(office, rome('2026-04-03T17:00'), 120))).toBe('2026-04-07T08:00:00.000Z');
  });

  it('handles the edges of the day', () => {
    // From closing time, the next opening; from midnight of a Saturday, Monday's.
    expect(iso(addBusinessMinutes(office, rome('2026-03-06T18:00'), 1))).toBe('2026-03-09T08:01:00.000Z');
    expect(iso(addBusinessMinutes(office, rome('2026-03-07T00:00'), 30))).toBe('2026-03-09T08:30:00.000Z');
    // A whole day ends at its closing time, not the next morning.
    expect(iso(addBusinessMinutes(office, rome('2026-03-02T09:00'), 480))).toBe('2026-03-02T17:00:00.000Z');
    // Zero minutes: the start itself, even when closed.
    expect(iso(addBusinessMinutes(office, rome('2026-03-07T12:00'), 0))).toBe(
      rome('2026-03-07T12:00').toISOString(),
    );
    // An evening shift to midnight runs on into the next day's first interval.
    const night: BusinessCalendar = {
      timeZone: ROME,
      hours: [[], [['20:00', '24:00']], [['00:00', '02:00']], [], [], [], []],
      holidays: [],
    };
    expect(iso(addBusinessMinutes(night, rome('2026-03-02T23:30'), 60))).toBe(
      rome('2026-03-03T00:30').toISOString(),
    );
  });

  it('does not count pauses', () => {
    // 10:00-10:30 then paused until 11:30: two hours are reached at 13:00.
    const pause = { start: rome('2026-03-02T10:30').getTime(), end: rome('2026-03-02T11:30').getTime() };
    expect(iso(addBusinessMinutes(office, rome('2026-03-02T10:00'), 120, [pause]))).toBe(
      rome('2026-03-02T13:00').toISOString(),
    );
    // Paused from Friday 17:30 to Monday 10:00 (overlapping pauses joined).
    const weekend = [
      { start: rome('2026-03-27T17:30').getTime(), end: rome('2026-03-30T09:30').getTime() },
      { start: rome('2026-03-30T09:00').getTime(), end: rome('2026-03-30T10:00').getTime() },
    ];
    expect(iso(addBusinessMinutes(office, rome('2026-03-27T17:00'), 60, weekend))).toBe(
      rome('2026-03-30T10:30').toISOString(),
    );
  });

  it('gives up on a calendar without opening hours', () => {
    const closed: BusinessCalendar = { timeZone: ROME, hours: Array(7).fill([]), holidays: [] };
    expect(addBusinessMinutes(closed, rome('2026-03-02T10:00'), 1)).toBeNull();
  });

  it('reads the day in a zone west of UTC', () => {
    const la: BusinessCalendar = { ...office, timeZone: 'America/Los_Angeles', holidays: [] };
    // Monday 18:00 in Los Angeles is already Tuesday in UTC: the next opening is Tuesday 9:00 there.
    expect(iso(addBusinessMinutes(la, new Date('2026-03-03T02:00:00Z'), 60))).toBe(
      '2026-03-03T18:00:00.000Z',
    );
  });
});

describe('businessMinutesBetween', () => {
  it('counts the open minutes across a weekend, a DST change and a holiday', () => {
    expect(businessMinutesBetween(office, rome('2026-03-27T17:00'), rome('2026-03-30T10:00'))).toBe(120);
    expect(businessMinutesBetween(office, rome('2026-10-23T17:00'), rome('2026-10-26T10:00'))).toBe(120);
    expect(businessMinutesBetween(office, rome('2026-04-03T17:00'), rome('2026-04-07T10:00'))).toBe(120);
    expect(businessMinutesBetween(always, rome('2026-03-29'), rome('2026-03-30'))).toBe(23 * 60);
    expect(businessMinutesBetween(always, rome('2026-10-25'), rome('2026-10-26'))).toBe(25 * 60);
  });

  it('is zero backwards and leaves pauses out', () => {
    expect(businessMinutesBetween(office, rome('2026-03-03T10:00'), rome('2026-03-03T09:00'))).toBe(0);
    const pause = { start: rome('2026-03-03T12:00').getTime(), end: rome('2026-03-03T15:00').getTime() };
    // 9-18 is 480 minutes; the pause takes 12-13 and 14-15.
    expect(businessMinutesBetween(office, rome('2026-03-03T09:00'), rome('2026-03-03T18:00'), [pause])).toBe(
      360,
    );
  });

  it('agrees with addBusinessMinutes', () => {
    const start = rome('2026-10-22T11:17');
    for (const minutes of [1, 59, 480, 1000, 2500]) {
      const due = addBusinessMinutes(office, start, minutes)!;
      expect(businessMinutesBetween(office, start, due)).toBe(minutes);
    }
  });
});

describe('targetsFor (a company with targets of its own)', () => {
  const portal = {
    low: { firstResponse: null, resolution: null },
    normal: { firstResponse: 120, resolution: 480 },
    high: { firstResponse: 60, resolution: 240 },
    urgent: { firstResponse: 60, resolution: 480 },
  };

  it('takes each target the company has, the portal one elsewhere', () => {
    expect(targetsFor(portal, { urgent: { firstResponse: 30 }, low: { resolution: 2400 } })).toEqual({
      low: { firstResponse: null, resolution: 2400 },
      normal: portal.normal,
      high: portal.high,
      urgent: { firstResponse: 30, resolution: 480 },
    });
    expect(targetsFor(portal, null)).toBe(portal);
    expect(targetsFor(portal, {})).toEqual(portal);
  });

  it("gives the ticket the company's due time across the autumn DST change", () => {
    // Friday 23 October 2026, 17:30 in Rome (CEST); the clocks go back on Sunday 25.
    const policy = {
      enabled: true,
      timeZone: ROME,
      hours: [[], day, day, day, day, day, []],
      holidays: [],
      targets: portal,
    };
    const ticket = {
      createdOn: rome('2026-10-23T17:30'),
      priority: 3,
      closed: false,
      breached: 0,
      messages: [],
    };
    const own = computeClock(
      { ...policy, targets: targetsFor(portal, { urgent: { firstResponse: 90 } }) },
      ticket,
    );
    // Half an hour on Friday, one on Monday (CET): 10:00 CET is 09:00Z.
    expect(iso(own.firstResponseDueAt)).toBe('2026-10-26T09:00:00.000Z');
    // The resolution stays the portal's eight hours: Friday 17:30-18, Monday 9-13, 14-17:30 CET.
    expect(iso(own.resolutionDueAt)).toBe('2026-10-26T16:30:00.000Z');
    expect(iso(computeClock(policy, ticket).firstResponseDueAt)).toBe('2026-10-26T08:30:00.000Z');
  });
});
