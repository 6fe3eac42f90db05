import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { describe, expect, it } from 'vitest';
import { claimStarts, dayIntervals, freeSlots, offeredStarts, type SlotRules } from './slots';
import { instantToDay, wallToInstant, zoneOffsetMinutes } from '@sportello/contracts/time-zone';

dayjs.extend(utc);
dayjs.extend(timezone);

const iso = (d: { start: Date }) => d.start.toISOString();
const rome = (weeklyHours: SlotRules['weeklyHours'], slotMinutes = 30): SlotRules => ({
  weeklyHours,
  slotMinutes,
  timeZone: 'Europe/Rome',
});
const longAgo = new Date('2020-01-01T00:00:00Z');

describe('zone arithmetic', () => {
  it('agrees with dayjs.tz on ordinary times in several zones', () => {
    for (const tz of ['Europe/Rome', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC']) {
      for (const [day, time] of [
        ['2026-01-15', '09:30'],
        ['2026-07-01', '23:45'],
        ['2026-11-23', '00:00'],
      ] as const) {
        expect(wallToInstant(day, time, tz).toISOString(), `${tz} ${day} ${time}`).toBe(
          dayjs.tz(`${day} ${time}`, tz).toDate().toISOString(),
        );
      }
    }
  });

  it('reads a repeated time as its first pass and moves a missing one forward', () => {
    // 2026-10-25 02:30 happens at 00:30Z (CEST) and 01:30Z (CET): the first pass.
    expect(wallToInstant('2026-10-25', '02:30', 'Europe/Rome').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    // 2027-03-28 02:30 does not exist: 03:30 CEST.
    expect(wallToInstant('2027-03-28', '02:30', 'Europe/Rome').toISOString()).toBe(
      '2027-03-28T01:30:00.000Z',
    );
    expect(zoneOffsetMinutes(Date.parse('2027-03-28T00:59:00Z'), 'Europe/Rome')).toBe(60);
    expect(zoneOffsetMinutes(Date.parse('2027-03-28T01:00:00Z'), 'Europe/Rome')).toBe(120);
  });

  it('finds the local day of an instant near midnight', () => {
    expect(instantToDay(Date.parse('2026-11-22T23:30:00Z'), 'Europe/Rome')).toBe('2026-11-23');
    expect(instantToDay(Date.parse('2026-11-22T22:59:00Z'), 'Europe/Rome')).toBe('2026-11-22');
  });
});

describe('offered slots', () => {
  const hours = rome({
    mon: [
      ['09:00', '13:00'],
      ['14:00', '18:00'],
    ],
    fri: [['09:00', '12:00']],
  });

  it('steps every slotMinutes inside each interval, the whole duration fitting', () => {
    // Monday 2026-11-23 (CET, +01:00).
    const slots = offeredStarts(hours, '2026-11-23', 60, longAgo);
    expect(slots).toHaveLength(7 + 7);
    expect(iso(slots[0]!)).toBe('2026-11-23T08:00:00.000Z');
    expect(iso(slots[6]!)).toBe('2026-11-23T11:00:00.000Z'); // 12:00 local, ends 13:00
    expect(iso(slots[7]!)).toBe('2026-11-23T13:00:00.000Z'); // 14:00 local
    expect(slots[13]!.end.toISOString()).toBe('2026-11-23T17:00:00.000Z'); // ends 18:00 local
    // Tuesday has no hours.
    expect(offeredStarts(hours, '2026-11-24', 60, longAgo)).toEqual([]);
  });

  it('offers nothing in the past', () => {
    const now = new Date('2026-11-23T10:10:00Z'); // 11:10 local
    const slots = offeredStarts(hours, '2026-11-23', 30, now);
    expect(iso(slots[0]!)).toBe('2026-11-23T10:30:00.000Z');
  });

  it('removes slots that overlap a busy interval, from any link', () => {
    const busy = [{ start: new Date('2026-11-27T08:30:00Z'), end: new Date('2026-11-27T09:15:00Z') }];
    const slots = freeSlots(hours, '2026-11-27', 30, longAgo, busy).map(iso);
    // Friday 09:00–12:00 local = 08:00–11:00Z; 08:30, 09:00 overlap.
    expect(slots).toEqual([
      '2026-11-27T08:00:00.000Z',
      '2026-11-27T09:30:00.000Z',
      '2026-11-27T10:00:00.000Z',
      '2026-11-27T10:30:00.000Z',
    ]);
  });

  it('spring forward (Europe/Rome, last Sunday of March 2027): 00:00–04:00 holds 3 real hours', () => {
    const rules = rome({ sun: [['00:00', '04:00']] });
    const slots = offeredStarts(rules, '2027-03-28', 30, longAgo);
    expect(slots.map(iso)).toEqual([
      '2027-03-27T23:00:00.000Z', // 00:00 CET
      '2027-03-27T23:30:00.000Z',
      '2027-03-28T00:00:00.000Z',
      '2027-03-28T00:30:00.000Z', // 01:30 CET; 02:00–02:59 does not exist
      '2027-03-28T01:00:00.000Z', // 03:00 CEST
      '2027-03-28T01:30:00.000Z',
    ]);
    const local = slots.map((s) => dayjs(s.start).tz('Europe/Rome').format('HH:mm'));
    expect(local).not.toContain('02:30');
    expect(local).toEqual(['00:00', '00:30', '01:00', '01:30', '03:00', '03:30']);
  });

  it('fall back (Europe/Rome, last Sunday of October 2026): 00:00–04:00 holds 5 real hours, no instant twice', () => {
    const rules = rome({ sun: [['00:00', '04:00']] });
    const slots = offeredStarts(rules, '2026-10-25', 30, longAgo);
    expect(slots).toHaveLength(10);
    expect(iso(slots[0]!)).toBe('2026-10-24T22:00:00.000Z'); // 00:00 CEST
    expect(iso(slots[9]!)).toBe('2026-10-25T02:30:00.000Z'); // 03:30 CET
    expect(new Set(slots.map(iso)).size).toBe(10);
    for (let i = 1; i < slots.length; i++) {
      expect(slots[i]!.start.getTime() - slots[i - 1]!.start.getTime()).toBe(30 * 60_000);
    }
    // The repeated hour appears once per pass, each an hour apart in real time.
    const local = slots.map((s) => dayjs(s.start).tz('Europe/Rome').format('HH:mm'));
    expect(local.filter((l) => l === '02:00')).toHaveLength(2);
  });

  it('keeps a DST day with ordinary office hours right', () => {
    const rules = rome({ sun: [['09:00', '12:00']] });
    expect(offeredStarts(rules, '2027-03-28', 60, longAgo).map(iso)[0]).toBe('2027-03-28T07:00:00.000Z');
    expect(offeredStarts(rules, '2026-10-25', 60, longAgo).map(iso)[0]).toBe('2026-10-25T08:00:00.000Z');
  });

  it('accepts 24:00 as the end of a day and skips malformed intervals', () => {
    const rules = rome({
      sat: [
        ['22:00', '24:00'],
        ['9', '10:00'],
        ['12:00', '11:00'],
      ],
    });
    expect(dayIntervals(rules, '2026-11-28')).toEqual([
      { start: new Date('2026-11-28T21:00:00Z'), end: new Date('2026-11-28T23:00:00Z') },
    ]);
  });
});

describe('slot claims', () => {
  it('cover every 5-minute cell of the appointment on one UTC grid', () => {
    const claims = claimStarts({
      start: new Date('2026-11-23T08:00:00Z'),
      end: new Date('2026-11-23T09:00:00Z'),
    });
    expect(claims).toHaveLength(12);
    expect(claims[0]!.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(claims[11]!.toISOString()).toBe('2026-11-23T08:55:00.000Z');
  });

  it('collide for overlapping appointments of different slot lengths', () => {
    const a = claimStarts({ start: new Date('2026-11-23T08:00:00Z'), end: new Date('2026-11-23T09:00:00Z') });
    const b = claimStarts({ start: new Date('2026-11-23T08:45:00Z'), end: new Date('2026-11-23T09:30:00Z') });
    const c = claimStarts({ start: new Date('2026-11-23T09:00:00Z'), end: new Date('2026-11-23T09:30:00Z') });
    const keys = (l: Date[]) => new Set(l.map((d) => d.getTime()));
    expect([...keys(b)].some((k) => keys(a).has(k))).toBe(true);
    expect([...keys(c)].some((k) => keys(a).has(k))).toBe(false);
  });
});
