import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AppointmentBooking,
  AppointmentLink,
  AppointmentSlots,
  AppointmentSummary,
} from '@sportello/contracts';
import { OutboxWorker } from '../../platform/outbox';
import { createTestApp, type TestApp } from '../../test/harness';
import { exampleDocument, seedExample } from '../../test/seed';

const LINK = '/api/appointments/acme/acme-sopralluogo-5e6f7a8b';
const NIGHT = '/api/appointments/acme/acme-notte-1a2b3c4d';
const OTHER = '/api/appointments/acme/acme-altro-9f8e7d6c';
const NOW = '2026-11-20T10:00:00Z'; // a Friday, 11:00 in Rome

let t: TestApp;

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
async function query<T>(q: ReturnType<typeof sql>): Promise<T[]> {
  return rows<T>(await t.ctx.database.db.execute(q));
}
async function one<T>(q: ReturnType<typeof sql>): Promise<T> {
  const [row] = await query<T>(q);
  if (!row) throw new Error('no row');
  return row;
}

const person = (over: Record<string, unknown> = {}) => ({
  firstName: 'Mario',
  lastName: 'Rossi',
  phone: '+39 333 1234567',
  email: 'mario.rossi@example.com',
  companyName: 'Rossi; Figli, & C.',
  notes: 'Citofono "Rossi"\nsecondo piano',
  ...over,
});

async function bookAt(
  path: string,
  start: string,
  durationMinutes: number,
  over: Record<string, unknown> = {},
) {
  return t.app.inject({ method: 'POST', url: path, payload: { start, durationMinutes, ...person(over) } });
}

async function slotsOf(path: string, from: string, to: string, duration?: number): Promise<AppointmentSlots> {
  const res = await t.app.inject({
    url: `${path}/slots?from=${from}&to=${to}${duration ? `&duration=${duration}` : ''}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const allStarts = (s: AppointmentSlots) => s.days.flatMap((d) => d.slots.map((x) => x.start));

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; contentBase64: string }[];
}

async function mailsTo(to: string): Promise<OutboxMail[]> {
  const r = await query<{ id: number; payload: unknown }>(
    sql`select id, payload from outbox where channel = 'email' and payload->>'to' = ${to} order by id`,
  );
  return r.map((x) => ({
    id: x.id,
    ...((typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload) as Omit<OutboxMail, 'id'>),
  }));
}

const icsOf = (m: OutboxMail) => {
  const a = m.attachments?.find((x) => x.contentType.startsWith('text/calendar'));
  if (!a) throw new Error(`no .ics in ${m.subject}`);
  return Buffer.from(a.contentBase64, 'base64').toString('utf8');
};

/** A minimal RFC 5545 reader: unfolds lines, then splits NAME;PARAMS:VALUE. */
function rawProps(ics: string): { name: string; params: string; value: string }[] {
  return ics
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => {
      const m = /^([A-Z-]+)((?:;[^:]*)?):(.*)$/.exec(line);
      if (!m) throw new Error(`bad content line: ${line}`);
      return { name: m[1]!, params: m[2]!, value: m[3]! };
    });
}

function readIcs(ics: string) {
  const comp = new ICAL.Component(ICAL.parse(ics));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const vevent = comp.getFirstSubcomponent('vevent');
  if (!vevent) throw new Error('no VEVENT');
  return { comp, vevent, event: new ICAL.Event(vevent) };
}

beforeAll(async () => {
  // The race of 50 bookings is about the slot, not load: the embedded database's queue bound (which
  // would shed some of them with 503) is raised above it.
  t = await createTestApp({ now: NOW, env: { PGLITE_QUEUE_LIMIT: '100' } });
  const doc = exampleDocument() as {
    portals: { agents: unknown[]; appointmentLinks: unknown[] }[];
  };
  const portal = doc.portals[0]!;
  // A night agent with Sunday hours across both DST changes, and a second link of agent 1.
  portal.agents.push({ id: 2, displayName: 'Turno di notte', firstName: 'Nora', lastName: 'Notte' });
  portal.appointmentLinks.push(
    {
      eventKey: 'acme-notte-1a2b3c4d',
      title: 'Notte',
      agentId: 2,
      defaultDurationMinutes: 30,
      slotMinutes: 30,
      daysAhead: 30,
      weeklyHours: { sun: [['00:00', '04:00']] },
    },
    {
      eventKey: 'acme-altro-9f8e7d6c',
      title: 'Altro servizio',
      agentId: 1,
      defaultDurationMinutes: 45,
      slotMinutes: 15,
      daysAhead: 30,
      weeklyHours: { mon: [['08:00', '12:00']] },
    },
  );
  await seedExample(t, doc);
});

afterAll(async () => {
  await t?.close();
});

describe('appointment link', () => {
  it('answers the link without a token', async () => {
    t.clock.set(NOW);
    const res = await t.app.inject({ url: LINK });
    expect(res.statusCode).toBe(200);
    expect(res.json<AppointmentLink>()).toEqual({
      title: 'ACME Sopralluogo',
      agentName: 'ACME Agent Luca',
      timeZone: 'Europe/Rome',
      defaultDurationMinutes: 60,
      slotMinutes: 30,
      daysAhead: 30,
      firstDay: '2026-11-20',
      lastDay: '2026-12-19',
    });
  });

  it('answers 404 link_not_found for an unknown key or portal', async () => {
    for (const url of ['/api/appointments/acme/nope', '/api/appointments/other/acme-sopralluogo-5e6f7a8b']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('link_not_found');
    }
    const slots = await t.app.inject({
      url: '/api/appointments/acme/nope/slots?from=2026-11-23&to=2026-11-23',
    });
    expect(slots.statusCode).toBe(404);
  });
});

describe('slots', () => {
  it('lists the weekly hours per day in the portal zone, nothing in the past or at weekends', async () => {
    t.clock.set(NOW);
    const s = await slotsOf(LINK, '2026-11-20', '2026-11-24');
    expect(s.timeZone).toBe('Europe/Rome');
    expect(s.durationMinutes).toBe(60);
    expect(s.days.map((d) => d.date)).toEqual(['2026-11-20', '2026-11-23', '2026-11-24']);
    // Friday 09:00–12:00, it is 11:00 now: only 11:00–12:00 is left.
    expect(s.days[0]!.slots).toEqual([
      { start: '2026-11-20T10:00:00.000Z', end: '2026-11-20T11:00:00.000Z' },
    ]);
    // Monday 09–13 and 14–18 with 60 minutes every 30: 7 + 7.
    expect(s.days[1]!.slots).toHaveLength(14);
    expect(s.days[1]!.slots[0]).toEqual({
      start: '2026-11-23T08:00:00.000Z',
      end: '2026-11-23T09:00:00.000Z',
    });
    expect(s.days[2]!.slots).toHaveLength(7);
  });

  it('follows the chosen duration', async () => {
    const s = await slotsOf(LINK, '2026-11-24', '2026-11-24', 120);
    expect(s.days[0]!.slots.map((x) => x.start)).toEqual([
      '2026-11-24T08:00:00.000Z',
      '2026-11-24T08:30:00.000Z',
      '2026-11-24T09:00:00.000Z',
      '2026-11-24T09:30:00.000Z',
      '2026-11-24T10:00:00.000Z',
    ]);
  });

  it('clamps the range to the bookable window (today … today + daysAhead − 1)', async () => {
    const s = await slotsOf(LINK, '2026-11-01', '2027-01-01'.replace('2027-01-01', '2026-12-31'));
    expect(s.days[0]!.date).toBe('2026-11-20');
    expect(s.days.at(-1)!.date).toBe('2026-12-18'); // 2026-12-19 is a Saturday
  });

  it('refuses a reversed or too long range and a duration off the 5-minute grid', async () => {
    for (const [q, code] of [
      ['from=2026-11-24&to=2026-11-23', 'invalid_range'],
      ['from=2026-11-01&to=2027-02-01', 'invalid_range'],
      ['from=2026-11-23&to=2026-11-23&duration=7', 'invalid_duration'],
      // A day that is no date is refused as every list filter's is (common.ts dayString).
      ['from=2026-11-23&to=x', 'invalid_date'],
    ]) {
      const res = await t.app.inject({ url: `${LINK}/slots?${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code, q).toBe(code);
    }
  });
});

describe('booking', () => {
  let booking: AppointmentBooking;

  it('refuses missing required fields with the A8 message and keeps nothing', async () => {
    for (const missing of ['firstName', 'lastName', 'phone', 'email']) {
      const res = await bookAt(LINK, '2026-11-23T08:00:00.000Z', 60, { [missing]: '  ' });
      expect(res.statusCode, missing).toBe(400);
      expect(res.json(), missing).toMatchObject({
        code: 'fields_required',
        message: 'Please fill in the required fields',
      });
    }
    const bare = await t.app.inject({
      method: 'POST',
      url: LINK,
      payload: { start: '2026-11-23T08:00:00.000Z', durationMinutes: 60 },
    });
    expect(bare.json().code).toBe('fields_required');
    const bad = await bookAt(LINK, '2026-11-23T08:00:00.000Z', 60, { email: 'not-an-address' });
    expect(bad.json().code).toBe('invalid_email');
    const { n } = await one<{ n: number }>(sql`select count(*)::int as n from appointments`);
    expect(n).toBe(0);
  });

  it('refuses a start that is not an offered slot', async () => {
    for (const start of [
      '2026-11-23T08:10:00.000Z', // off the grid
      '2026-11-21T09:00:00.000Z', // Saturday
      '2026-11-20T08:00:00.000Z', // earlier today
      '2026-11-23T11:30:00.000Z', // 12:30 local: 60 minutes do not fit before 13:00
      '2026-12-21T08:00:00.000Z', // beyond daysAhead
    ]) {
      const res = await bookAt(LINK, start, 60);
      expect(res.statusCode, start).toBe(400);
      expect(res.json().code, start).toBe('slot_not_offered');
    }
    // No date at all fails the contract's bounded date-time before any slot is looked at.
    const notADate = await bookAt(LINK, 'yesterday', 60);
    expect(notADate.statusCode).toBe(400);
    expect(notADate.json().code).toBe('validation_error');
  });

  it('books an offered slot without a token and answers the cancellation link', async () => {
    const res = await bookAt(LINK, '2026-11-23T08:00:00.000Z', 60);
    expect(res.statusCode, res.body).toBe(201);
    booking = res.json();
    expect(booking).toMatchObject({
      start: '2026-11-23T08:00:00.000Z',
      end: '2026-11-23T09:00:00.000Z',
      timeZone: 'Europe/Rome',
    });
    const m = /^http:\/\/127\.0\.0\.1:3000\/appointments\/acme\/cancellation\/([A-Za-z0-9_-]+)$/.exec(
      booking.cancellationUrl,
    );
    expect(m).not.toBeNull();
    // At least 128 bits of randomness: 22+ base64url characters.
    expect(m![1]!.length).toBeGreaterThanOrEqual(22);
    const [row] = await query<{ first_name: string; company_name: string; n: number }>(
      sql`select a.first_name, a.company_name, (select count(*)::int from appointment_slot_claims c where c.appointment_id = a.id) as n
          from appointments a`,
    );
    expect(row).toEqual({ first_name: 'Mario', company_name: 'Rossi; Figli, & C.', n: 12 });
  });

  it('removes the booked time from the slots of every link of the same agent', async () => {
    const same = allStarts(await slotsOf(LINK, '2026-11-23', '2026-11-23'));
    expect(same).not.toContain('2026-11-23T08:00:00.000Z');
    expect(same).not.toContain('2026-11-23T08:30:00.000Z');
    expect(same).toContain('2026-11-23T09:00:00.000Z');
    // The other link of agent 1 (15-minute steps, 45 minutes): nothing may overlap 08:00–09:00Z.
    const other = allStarts(await slotsOf(OTHER, '2026-11-23', '2026-11-23'));
    expect(other).toContain('2026-11-23T07:00:00.000Z');
    expect(other).toContain('2026-11-23T07:15:00.000Z');
    expect(other).not.toContain('2026-11-23T07:30:00.000Z'); // would end 08:15Z
    expect(other).not.toContain('2026-11-23T08:45:00.000Z');
    expect(other).toContain('2026-11-23T09:00:00.000Z');
    // A start the other link offers by its hours, but overlapping agent 1's booking.
    const clash = await bookAt(OTHER, '2026-11-23T07:30:00.000Z', 45, { email: 'clash@example.com' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('slot_taken');
  });

  it('answers 409 slot_taken for a slot booked meanwhile', async () => {
    const again = await bookAt(LINK, '2026-11-23T08:00:00.000Z', 60, { email: 'late@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('slot_taken');
    expect(await mailsTo('late@example.com')).toEqual([]);
  });

  it('queues the confirmation with an .ics invitation and the cancellation link', async () => {
    const [mail, ...rest] = await mailsTo('mario.rossi@example.com');
    expect(rest).toEqual([]);
    expect(mail!.subject).toContain('ACME Sopralluogo');
    expect(mail!.text).toContain(booking.cancellationUrl);
    expect(mail!.text).toContain('23/11/2026 09:00–10:00 (Europe/Rome)');
    const ics = icsOf(mail!);
    // Raw form: CRLF only, folded at 75 octets, one METHOD, TZID times with a VTIMEZONE.
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const props = rawProps(ics);
    const prop = (name: string) => props.filter((p) => p.name === name);
    expect(prop('METHOD').map((p) => p.value)).toEqual(['REQUEST']);
    expect(prop('DTSTART').filter((p) => p.params !== '')).toEqual([
      { name: 'DTSTART', params: ';TZID=Europe/Rome', value: '20261123T090000' },
    ]);
    expect(prop('DTEND')[0]).toEqual({
      name: 'DTEND',
      params: ';TZID=Europe/Rome',
      value: '20261123T100000',
    });
    expect(prop('TZID').map((p) => p.value)).toEqual(['Europe/Rome']);
    // Parsed: ical.js resolves the TZID through our VTIMEZONE to the booked instants.
    const { comp, vevent, event } = readIcs(ics);
    expect(comp.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.startDate.toJSDate().toISOString()).toBe(booking.start);
    expect(event.endDate.toJSDate().toISOString()).toBe(booking.end);
    expect(event.description).toContain(booking.cancellationUrl);
    expect(event.summary).toContain('ACME Sopralluogo');
    expect(event.uid).toMatch(/^[0-9a-f]{32}@127\.0\.0\.1$/);
    expect(event.uid).not.toContain(booking.cancellationUrl.split('/').at(-1));
    expect(vevent.getFirstPropertyValue('organizer')).toBe('mailto:luca@acme.example');
    expect(vevent.getFirstPropertyValue('attendee')).toBe('mailto:mario.rossi@example.com');
    expect(vevent.getFirstProperty('attendee')?.getParameter('cn')).toBe('Mario Rossi');
    expect(vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(vevent.getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-11-20T10:00:00Z');
  });

  it('notifies the agent, who has an e-mail', async () => {
    const [mail] = await mailsTo('luca@acme.example');
    expect(mail!.text).toContain('Mario Rossi');
    expect(mail!.text).toContain('+39 333 1234567');
    const { comp } = readIcs(icsOf(mail!));
    expect(comp.getFirstPropertyValue('method')).toBe('PUBLISH');
  });

  it('writes the e-mail as an .eml whose text/calendar part parses back to the same event', async () => {
    // Read before sending: a sent row keeps no body.
    const queued = icsOf((await mailsTo('mario.rossi@example.com'))[0]!);
    const worker = new OutboxWorker(t.ctx, t.app.log);
    await worker.runOnce();
    const dir = join(t.dataDir, 'outbox');
    const emls = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    const eml = emls
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .find((s) => /^To: mario\.rossi@example\.com/m.test(s));
    expect(eml).toBeDefined();
    // The calendar part: its headers, a blank line, base64 up to the next boundary.
    const part = /Content-Type: text\/calendar[^]*?\n\n([A-Za-z0-9+/=\n]+)\n--/.exec(eml!);
    expect(part).not.toBeNull();
    expect(eml).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/);
    const ics = Buffer.from(part![1]!.replace(/\n/g, ''), 'base64').toString('utf8');
    expect(ics).toBe(queued);
    expect(readIcs(ics).event.startDate.toJSDate().toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it('lets exactly one of 50 concurrent bookings of one slot succeed; the others get 409', async () => {
    const start = '2026-11-24T09:00:00.000Z';
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: LINK,
          payload: { start, durationMinutes: 60, ...person({ email: `racer${i}@example.com` }) },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().code).toBe('slot_taken');
    const { n } = await one<{ n: number }>(
      sql`select count(*)::int as n from appointments where starts_at = ${start}::timestamptz`,
    );
    expect(n).toBe(1);
    const { claims } = await one<{ claims: number }>(
      sql`select count(*)::int as claims from appointment_slot_claims
          where slot_start >= ${start}::timestamptz and slot_start < ${start}::timestamptz + interval '1 hour'`,
    );
    expect(claims).toBe(12);
    const { mails } = await one<{ mails: number }>(
      sql`select count(*)::int as mails from outbox where payload->>'to' like 'racer%'`,
    );
    expect(mails).toBe(1);
  });

  it('lets the claim rows alone decide: a held claim refuses the booking and keeps nothing', async () => {
    // A claim row on 10:30Z with no appointment overlapping 10:00–11:00Z in the table.
    const { id } = await one<{ id: number }>(sql`select id from appointments order by id limit 1`);
    await t.ctx.database.db.execute(
      sql`insert into appointment_slot_claims (agent_id, slot_start, appointment_id)
          select agent_id, '2026-11-26T10:30:00Z'::timestamptz, id from appointments where id = ${id}`,
    );
    const before = await query<{ n: number }>(sql`select count(*)::int as n from appointments`);
    const res = await bookAt(LINK, '2026-11-26T10:00:00.000Z', 60, { email: 'unlucky@example.com' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('slot_taken');
    expect(await query(sql`select count(*)::int as n from appointments`)).toEqual(before);
    expect(await mailsTo('unlucky@example.com')).toEqual([]);
    await t.ctx.database.db.execute(
      sql`delete from appointment_slot_claims where slot_start = '2026-11-26T10:30:00Z'::timestamptz`,
    );
  });
});

describe('daylight saving (Europe/Rome)', () => {
  it('spring forward, Sunday 2027-03-28: 00:00–04:00 gives 6 half-hour slots, no 02:xx', async () => {
    t.clock.set('2027-03-20T10:00:00Z');
    const s = await slotsOf(NIGHT, '2027-03-28', '2027-03-28');
    expect(allStarts(s)).toEqual([
      '2027-03-27T23:00:00.000Z',
      '2027-03-27T23:30:00.000Z',
      '2027-03-28T00:00:00.000Z',
      '2027-03-28T00:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-28T01:30:00.000Z',
    ]);
    // The Sunday before has 8.
    t.clock.set('2027-03-18T10:00:00Z');
    expect(allStarts(await slotsOf(NIGHT, '2027-03-21', '2027-03-21'))).toHaveLength(8);
  });

  it('fall back, Sunday 2026-10-25: 10 slots, each instant once, and the repeated hour books and invites right', async () => {
    t.clock.set('2026-10-20T10:00:00Z');
    const s = await slotsOf(NIGHT, '2026-10-25', '2026-10-25');
    const starts = allStarts(s);
    expect(starts).toHaveLength(10);
    expect(new Set(starts).size).toBe(10);
    expect(starts[0]).toBe('2026-10-24T22:00:00.000Z');
    expect(starts[4]).toBe('2026-10-25T00:00:00.000Z'); // 02:00 CEST
    expect(starts[6]).toBe('2026-10-25T01:00:00.000Z'); // 02:00 CET
    expect(starts[9]).toBe('2026-10-25T02:30:00.000Z');

    const res = await bookAt(NIGHT, '2026-10-25T01:00:00.000Z', 30, { email: 'night@example.com' });
    expect(res.statusCode, res.body).toBe(201);
    const after = allStarts(await slotsOf(NIGHT, '2026-10-25', '2026-10-25'));
    expect(after).toContain('2026-10-25T00:00:00.000Z'); // the first 02:00 stays free
    expect(after).not.toContain('2026-10-25T01:00:00.000Z');
    const [mail] = await mailsTo('night@example.com');
    const ics = icsOf(mail!);
    // 02:00 local happens twice that night: the invitation names the instant in UTC.
    const eventProps = rawProps(ics).slice(rawProps(ics).findIndex((p) => p.value === 'VEVENT'));
    expect(eventProps.find((p) => p.name === 'DTSTART')).toEqual({
      name: 'DTSTART',
      params: '',
      value: '20261025T010000Z',
    });
    expect(readIcs(ics).event.startDate.toJSDate().toISOString()).toBe('2026-10-25T01:00:00.000Z');
    // The agent has no e-mail: the organizer is the portal's sender.
    expect(readIcs(ics).vevent.getFirstPropertyValue('organizer')).toBe('mailto:no-reply@localhost');
    t.clock.set(NOW);
  });
});

describe('cancellation', () => {
  let url: string;
  let booked: AppointmentBooking;

  beforeAll(async () => {
    t.clock.set(NOW);
    const res = await bookAt(LINK, '2026-11-25T09:00:00.000Z', 60, {
      email: 'anna@example.com',
      firstName: 'Anna',
    });
    expect(res.statusCode).toBe(201);
    booked = res.json();
    url = `/api/appointments/acme/cancellation/${booked.cancellationUrl.split('/').at(-1)}`;
  });

  it('shows the appointment by its key', async () => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.json<AppointmentSummary>()).toEqual({
      title: 'ACME Sopralluogo',
      agentName: 'ACME Agent Luca',
      start: '2026-11-25T09:00:00.000Z',
      end: '2026-11-25T10:00:00.000Z',
      timeZone: 'Europe/Rome',
      firstName: 'Anna',
      lastName: 'Rossi',
      companyName: 'Rossi; Figli, & C.',
      status: 'booked',
      cancelledAt: null,
    });
  });

  it('cancels, frees the slot and e-mails a METHOD:CANCEL for the same event', async () => {
    expect(allStarts(await slotsOf(LINK, '2026-11-25', '2026-11-25'))).not.toContain(booked.start);
    t.clock.set('2026-11-21T08:00:00Z');
    const res = await t.app.inject({ method: 'POST', url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' });
    expect(allStarts(await slotsOf(LINK, '2026-11-25', '2026-11-25'))).toContain(booked.start);
    const { n } = await one<{ n: number }>(
      sql`select count(*)::int as n from appointment_slot_claims
          where slot_start >= ${booked.start}::timestamptz and slot_start < ${booked.end}::timestamptz`,
    );
    expect(n).toBe(0);
    const [confirmation, cancellation, ...rest] = await mailsTo('anna@example.com');
    expect(rest).toEqual([]);
    const first = readIcs(icsOf(confirmation!));
    const second = readIcs(icsOf(cancellation!));
    expect(second.comp.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(second.event.uid).toBe(first.event.uid);
    expect(second.event.sequence).toBe(1);
    expect(second.vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(second.event.startDate.toJSDate().toISOString()).toBe(booked.start);
  });

  it('is harmless twice: same state, no second e-mail', async () => {
    t.clock.set('2026-11-21T09:00:00Z');
    const res = await t.app.inject({ method: 'POST', url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', cancelledAt: '2026-11-21T08:00:00.000Z' });
    expect(await mailsTo('anna@example.com')).toHaveLength(2);
    expect((await t.app.inject({ url })).json().status).toBe('cancelled');
  });

  it('lets someone else book the freed slot', async () => {
    t.clock.set(NOW);
    const res = await bookAt(LINK, booked.start, 60, { email: 'next@example.com' });
    expect(res.statusCode).toBe(201);
  });

  it('answers 404 for an unknown key or another portal', async () => {
    for (const u of ['/api/appointments/acme/cancellation/nope', url.replace('/acme/', '/other/')]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url: u });
        expect(res.statusCode, `${method} ${u}`).toBe(404);
        expect(res.json().code).toBe('appointment_not_found');
      }
    }
  });
});

describe('abuse', () => {
  it('refuses a 21st confirmed booking from one address within the hour, keeping nothing', async () => {
    t.clock.set(NOW);
    await t.ctx.database.db.execute(
      sql`insert into rate_limits (key, count, window_start) values ('appointments:book:127.0.0.1', 20, ${NOW}::timestamptz)
          on conflict (key) do update set count = 20, window_start = excluded.window_start`,
    );
    const res = await bookAt(LINK, '2026-11-30T08:00:00.000Z', 60, { email: 'spam@example.com' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(
      await query(sql`select 1 from appointments where starts_at = '2026-11-30T08:00:00Z'::timestamptz`),
    ).toEqual([]);
    expect(await mailsTo('spam@example.com')).toEqual([]);
    await t.ctx.database.db.execute(sql`delete from rate_limits where key = 'appointments:book:127.0.0.1'`);
  });
});

describe('abuse: links, recipients and markup', () => {
  const setCount = (key: string, count: number) =>
    t.ctx.database.db.execute(
      sql`insert into rate_limits (key, count, window_start) values (${key}, ${count}, ${NOW}::timestamptz)
          on conflict (key) do update set count = excluded.count, window_start = excluded.window_start`,
    );
  const forget = (key: string) => t.ctx.database.db.execute(sql`delete from rate_limits where key = ${key}`);

  it('refuses a 6th booking to one e-mail address within a day, from any address', async () => {
    t.clock.set(NOW);
    await setCount('appointments:to:victim@example.com', 5);
    const res = await bookAt(LINK, '2026-11-30T09:00:00.000Z', 60, { email: 'Victim@Example.com' });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('too_many_bookings');
    expect(await mailsTo('Victim@Example.com')).toEqual([]);
    await forget('appointments:to:victim@example.com');
  });

  it('refuses a 31st booking on one link within the hour', async () => {
    t.clock.set(NOW);
    const { id } = await one<{ id: number }>(
      sql`select id from appointment_links where event_key = 'acme-sopralluogo-5e6f7a8b'`,
    );
    await setCount(`appointments:link:${id}`, 30);
    const res = await bookAt(LINK, '2026-11-30T10:00:00.000Z', 60, { email: 'someone@example.com' });
    expect(res.statusCode).toBe(429);
    expect(await mailsTo('someone@example.com')).toEqual([]);
    await forget(`appointments:link:${id}`);
  });

  it.each([
    ['firstName', '<a href="https://evil.example">Win</a>'],
    ['lastName', 'visit https://evil.example'],
    ['firstName', 'www.evil.example'],
    ['companyName', '<img src=x>'],
  ])('refuses markup or a web address in %s', async (field, value) => {
    t.clock.set(NOW);
    const res = await bookAt(LINK, '2026-11-30T11:00:00.000Z', 60, {
      email: 'spam2@example.com',
      [field]: value,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_name', errors: [{ path: field }] });
    expect(await mailsTo('spam2@example.com')).toEqual([]);
  });

  it("writes the booker's confirmation in the page's language, the agent's in the portal's", async () => {
    t.clock.set(NOW);
    const res = await t.app.inject({
      method: 'POST',
      url: LINK,
      payload: {
        start: '2026-12-01T09:00:00.000Z',
        durationMinutes: 60,
        ...person({ email: 'english@example.com' }),
        language: 'en-EN',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [mail] = await mailsTo('english@example.com');
    expect(mail!.subject).toMatch(/^Appointment Confirmed: /);
    const agent = (await mailsTo('luca@acme.example')).at(-1)!;
    expect(agent.subject).toMatch(/^Nuovo appuntamento: /);
  });

  it('keeps tags out of the text part, and a lone < in', async () => {
    t.clock.set(NOW);
    const notes = '<b>Bold</b> <a href="https://x.example">link</a> <!-- hidden --> arrive < 10:00';
    const res = await bookAt(LINK, '2026-12-01T08:00:00.000Z', 60, { email: 'notes@example.com', notes });
    expect(res.statusCode, res.body).toBe(201);
    const agentMail = (await mailsTo('luca@acme.example')).find((m) => m.text?.includes('arrive'));
    expect(agentMail!.text).toContain('Bold link  arrive < 10:00');
    expect(agentMail!.text).not.toMatch(/<[a-z!/]/i);
  });
});

describe('OpenAPI', () => {
  it('documents every appointments route', async () => {
    const doc = (await t.app.inject({ url: '/api/docs' })).json<{ paths: Record<string, object> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/appointments/{company}/{eventkey}',
        '/api/appointments/{company}/{eventkey}/slots',
        '/api/appointments/{company}/cancellation/{cancelkey}',
      ]),
    );
  });
});
