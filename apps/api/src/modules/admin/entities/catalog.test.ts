/**
 * The catalogue's entities one by one (hour and unit contracts, subscriptions, appointment links, task
 * links) through the integration API and the staff admin API: each change with its event and audit row;
 * the import's rules hold (5-minute durations, known agent, company, ticket); bad input changes nothing;
 * a key sees only its portal. Bookings: the staff list and the staff cancellation with its e-mail.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp } from '../../../test/harness';
import { lastEmailTo } from '../../staff/staff.fixture';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';

let t: TestApp;
let write = '';
let betaKey = '';
let admin: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  ({ t, write, betaKey, admin, agent } = await entityWorld());
});
afterAll(async () => {
  await t?.close();
});
const { call, rows, count, eventTypes, auditOf } = entityHelpers(() => t);

/** Everything a refused request must leave as it was. */
async function snapshot() {
  return {
    audit: await count('audit_log'),
    events: await count('events'),
    contracts: await count('activity_contracts'),
    activities: await count('contract_activities'),
    advances: await count('recurring_advances'),
    links: await count('appointment_links'),
    tasks: await count('task_links'),
  };
}

const hourContract = {
  id: 900,
  companyId: 10,
  name: 'Monte ore 2027',
  start: '2027-01-01',
  end: '2027-12-31',
  activityContractType: 0,
  hoursAmount: 40,
  activities: [
    { id: 1, activityTypeName: 'Assistenza remota', start: '2027-01-10T09:00:00Z', durationMinutes: 90 },
  ],
};

describe('hour and unit contracts', () => {
  it('creates, reads, updates and deletes, each with its event and audit row', async () => {
    const created = await call('POST', `${V1}/activity-contracts`, write, hourContract);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      id: 900,
      companyId: 10,
      name: 'Monte ore 2027',
      activityContractType: 0,
      hoursAmount: 40,
      unitAmount: null,
      activities: [{ id: 1, activityTypeName: 'Assistenza remota', durationMinutes: 90, reportFileId: null }],
    });
    // The staff admin sees it in the company's list.
    const list = await call('GET', `${ADMIN}/activity-contracts?companyId=10`, admin);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { items: { id: number }[] }).items.map((c) => c.id)).toContain(900);

    const updated = await call('PATCH', `${ADMIN}/activity-contracts/900`, admin, {
      hoursAmount: 50,
      activities: [
        ...hourContract.activities,
        { id: 2, activityTypeName: 'Intervento', start: '2027-02-01T09:00:00Z', durationMinutes: 60 },
      ],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ hoursAmount: 50, name: 'Monte ore 2027' });
    expect((updated.json() as { activities: unknown[] }).activities).toHaveLength(2);

    // Nothing differs: nothing written, no event.
    const before = await snapshot();
    expect((await call('PATCH', `${V1}/activity-contracts/900`, write, { hoursAmount: 50 })).statusCode).toBe(
      200,
    );
    expect(await snapshot()).toEqual(before);

    expect((await call('DELETE', `${V1}/activity-contracts/900`, write)).statusCode).toBe(204);
    expect((await call('GET', `${V1}/activity-contracts/900`, write)).statusCode).toBe(404);
    expect(
      await count(
        'contract_activities',
        'activity_contract_id is not null and ext_id = 2 and duration_minutes = 60',
      ),
    ).toBe(0);
    expect(await eventTypes('activity_contract.')).toEqual([
      'activity_contract.created',
      'activity_contract.updated',
      'activity_contract.deleted',
    ]);
    expect((await auditOf('activity_contract')).map((a) => [a.action, a.actor_type])).toEqual([
      ['created', 'api_key'],
      ['updated', 'staff'],
      ['deleted', 'api_key'],
    ]);
  });

  it('an update keeps the reports of the activities the import gave', async () => {
    const stored = (await call('GET', `${V1}/activity-contracts/1`, write)).json() as {
      activities: { id: number; reportFileId: number | null }[];
    };
    const withReport = stored.activities.find((a) => a.reportFileId !== null);
    expect(withReport).toBeDefined();
    const res = await call('PATCH', `${V1}/activity-contracts/1`, write, { name: 'ACME Monte ore 2026 bis' });
    expect(res.statusCode, res.body).toBe(200);
    const after = (res.json() as { activities: { id: number; reportFileId: number | null }[] }).activities;
    expect(after.find((a) => a.id === withReport!.id)!.reportFileId).toBe(withReport!.reportFileId);
  });

  it('refuses an unknown company, duplicate activity ids and bad fields, writing nothing', async () => {
    const before = await snapshot();
    const unknown = await call('POST', `${V1}/activity-contracts`, write, {
      ...hourContract,
      companyId: 999,
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'unknown_reference' });
    const dup = await call('POST', `${V1}/activity-contracts`, write, {
      ...hourContract,
      activities: [hourContract.activities[0], hourContract.activities[0]],
    });
    expect(dup.statusCode).toBe(400);
    const badType = await call('POST', `${ADMIN}/activity-contracts`, admin, {
      ...hourContract,
      activityContractType: 3,
    });
    expect(badType.statusCode).toBe(400);
    const taken = await call('POST', `${V1}/activity-contracts`, write, { ...hourContract, id: 1 });
    expect(taken.statusCode).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('a key of another portal does not see them', async () => {
    expect((await call('GET', `${V1}/activity-contracts/1`, betaKey)).statusCode).toBe(200); // beta's own 1
    const made = await call('POST', `${V1}/activity-contracts`, write, { ...hourContract, id: 901 });
    expect(made.statusCode).toBe(201);
    expect((await call('GET', `${V1}/activity-contracts/901`, betaKey)).statusCode).toBe(404);
    expect((await call('DELETE', `${V1}/activity-contracts/901`, betaKey)).statusCode).toBe(404);
    expect((await call('GET', `${V1}/activity-contracts/901`, write)).statusCode).toBe(200);
  });
});

describe('subscriptions', () => {
  const sub = {
    companyId: 10,
    code: 'CANONE-WEB',
    description: 'Canone hosting',
    quantity: 1,
    taxedTotal: 122,
    advanceDate: '2027-01-01',
    trigger: { recurrenceType: 20, frequencyMonth: 1, recurrenceDay: 1 },
  };
  it('creates (next free id), updates and deletes with events and audit', async () => {
    const created = await call('POST', `${ADMIN}/subscriptions`, admin, sub);
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: number };
    expect(id).toBeGreaterThan(3);
    expect(created.json()).toMatchObject({
      code: 'CANONE-WEB',
      taxedTotal: 122,
      trigger: { recurrenceType: 20 },
    });
    const list = (await call('GET', `${ADMIN}/subscriptions?companyId=10`, admin)).json() as {
      items: { id: number }[];
    };
    expect(list.items.map((s) => s.id)).toContain(id);
    const up = await call('PATCH', `${V1}/subscriptions/${id}`, write, { taxedTotal: 244 });
    expect(up.json()).toMatchObject({ taxedTotal: 244, code: 'CANONE-WEB' });
    expect((await call('DELETE', `${ADMIN}/subscriptions/${id}`, admin)).statusCode).toBe(204);
    expect(await eventTypes('subscription.')).toEqual([
      'subscription.created',
      'subscription.updated',
      'subscription.deleted',
    ]);
    expect((await auditOf('subscription')).map((a) => a.action)).toEqual(['created', 'updated', 'deleted']);
  });

  it("refuses a trigger without its recurrence's fields, writing nothing", async () => {
    const before = await snapshot();
    const res = await call('POST', `${V1}/subscriptions`, write, {
      ...sub,
      trigger: { recurrenceType: 10 },
    });
    expect(res.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('appointment links and bookings', () => {
  const link = {
    title: 'Consulenza',
    agentId: 1,
    defaultDurationMinutes: 30,
    slotMinutes: 30,
    daysAhead: 14,
    weeklyHours: { mon: [['09:00', '10:00']] },
  };
  let key = '';

  it('a staff admin creates a link (the portal draws its key) whose hours the booking page offers', async () => {
    const res = await call('POST', `${ADMIN}/appointment-links`, admin, link);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { eventKey: string; weeklyHours: Record<string, unknown> };
    key = body.eventKey;
    expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(body.weeklyHours).toEqual({
      mon: [['09:00', '10:00']],
      tue: [],
      wed: [],
      thu: [],
      fri: [],
      sat: [],
      sun: [],
    });
    // Now is Friday 2026-11-20; Monday 23 from 09:00 to 10:00 Rome: two 30-minute slots.
    const slots = await t.app.inject({
      url: `/api/appointments/acme/${key}/slots?from=2026-11-23&to=2026-11-23`,
    });
    expect(slots.statusCode, slots.body).toBe(200);
    const starts = (slots.json() as { days: { slots: { start: string }[] }[] }).days.flatMap((d) =>
      d.slots.map((s) => s.start),
    );
    expect(starts).toEqual(['2026-11-23T08:00:00.000Z', '2026-11-23T08:30:00.000Z']);
    expect((await call('GET', `${ADMIN}/appointment-links`, admin)).json()).toMatchObject({
      items: expect.arrayContaining([expect.objectContaining({ eventKey: key, title: 'Consulenza' })]),
    });
    expect(await eventTypes('appointment_link.')).toEqual(['appointment_link.created']);
  });

  it('refuses durations not in 5-minute steps and an unknown agent, writing nothing', async () => {
    const before = await snapshot();
    const steps = await call('POST', `${V1}/appointment-links`, write, {
      ...link,
      defaultDurationMinutes: 32,
    });
    expect(steps.statusCode).toBe(400);
    const patch = await call('PATCH', `${ADMIN}/appointment-links/${key}`, admin, {
      defaultDurationMinutes: 7,
    });
    expect(patch.statusCode).toBe(400);
    const agentless = await call('POST', `${ADMIN}/appointment-links`, admin, { ...link, agentId: 77 });
    expect(agentless.statusCode).toBe(422);
    expect(agentless.json()).toMatchObject({ code: 'unknown_reference' });
    const hours = await call('POST', `${ADMIN}/appointment-links`, admin, {
      ...link,
      weeklyHours: { mon: [['10:00', '09:00']] },
    });
    expect(hours.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('an agent is refused; a key of another portal does not see the link', async () => {
    expect((await call('GET', `${ADMIN}/appointment-links`, agent)).statusCode).toBe(403);
    expect((await call('POST', `${ADMIN}/appointment-links`, agent, link)).statusCode).toBe(403);
    expect((await call('GET', `${V1}/appointment-links/${key}`, betaKey)).statusCode).toBe(404);
    expect((await call('GET', `${V1}/appointment-links/${key}`, write)).statusCode).toBe(200);
  });

  it('lists bookings; a staff cancellation frees the slot and e-mails the customer, once', async () => {
    const booked = await t.app.inject({
      method: 'POST',
      url: `/api/appointments/acme/${key}`,
      payload: {
        start: '2026-11-23T08:00:00.000Z',
        durationMinutes: 30,
        firstName: 'Ada',
        lastName: 'Neri',
        phone: '+39 333 0000000',
        email: 'ada.neri@example.com',
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const list = await call('GET', `${ADMIN}/bookings?eventKey=${key}`, admin);
    expect(list.statusCode, list.body).toBe(200);
    const [b] = (list.json() as { items: { id: number; status: string; firstName: string }[] }).items;
    expect(b).toMatchObject({ status: 'booked', firstName: 'Ada' });

    // A link with an upcoming booking is not deleted under it.
    const del = await call('DELETE', `${ADMIN}/appointment-links/${key}`, admin);
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({ code: 'entity_in_use' });

    const cancelled = await call('POST', `${ADMIN}/bookings/${b!.id}/cancel`, admin);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const mail = await lastEmailTo(t, 'ada.neri@example.com');
    expect(mail?.subject).toMatch(/annullat|cancel/i);
    const mails = await count('outbox', `channel = 'email' and payload->>'to' = 'ada.neri@example.com'`);
    const events = await rows<{ source: unknown }>(
      sql`select source from events where type = 'appointment.cancelled' order by id desc limit 1`,
    );
    const source = events[0]!.source;
    expect(typeof source === 'string' ? JSON.parse(source) : source).toMatchObject({ type: 'staff' });
    expect((await auditOf('appointment')).map((a) => [a.entity_id, a.action])).toEqual([
      [String(b!.id), 'cancelled'],
    ]);
    // Again: the same state, nothing sent or written.
    const before = await snapshot();
    expect((await call('POST', `${ADMIN}/bookings/${b!.id}/cancel`, admin)).json()).toMatchObject({
      status: 'cancelled',
    });
    expect(await count('outbox', `channel = 'email' and payload->>'to' = 'ada.neri@example.com'`)).toBe(
      mails,
    );
    expect(await snapshot()).toEqual(before);
    // The slot is free again.
    const slots = await t.app.inject({
      url: `/api/appointments/acme/${key}/slots?from=2026-11-23&to=2026-11-23`,
    });
    expect((slots.json() as { days: { slots: unknown[] }[] }).days[0]!.slots).toHaveLength(2);
    // Another portal's booking id is not found.
    expect(
      (await call('POST', `/api/staff/portals/acme/admin/bookings/999999/cancel`, admin)).statusCode,
    ).toBe(404);
  });

  it('updates and deletes the link with events and audit', async () => {
    const up = await call('PATCH', `${V1}/appointment-links/${key}`, write, {
      weeklyHours: { tue: [['14:00', '15:30']] },
      daysAhead: 30,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ daysAhead: 30, weeklyHours: { mon: [], tue: [['14:00', '15:30']] } });
    expect((await call('DELETE', `${V1}/appointment-links/${key}`, write)).statusCode).toBe(204);
    expect(await eventTypes('appointment_link.')).toEqual([
      'appointment_link.created',
      'appointment_link.updated',
      'appointment_link.deleted',
    ]);
    expect((await auditOf('appointment_link')).map((a) => a.action)).toEqual([
      'created',
      'updated',
      'deleted',
    ]);
  });
});

describe('task links', () => {
  it('creates with a given key, moves to another ticket, deletes; unknown ticket is 422', async () => {
    const created = await call('POST', `${V1}/task-links`, write, {
      eventKey: 'link-to-5002-abcdef',
      ticketId: 5002,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({ eventKey: 'link-to-5002-abcdef', ticketId: 5002 });
    const before = await snapshot();
    const bad = await call('PATCH', `${V1}/task-links/link-to-5002-abcdef`, write, { ticketId: 424242 });
    expect(bad.statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
    const moved = await call('PATCH', `${ADMIN}/task-links/link-to-5002-abcdef`, admin, { ticketId: 5001 });
    expect(moved.json()).toEqual({ eventKey: 'link-to-5002-abcdef', ticketId: 5001 });
    const taken = await call('POST', `${V1}/task-links`, write, {
      eventKey: 'link-to-5002-abcdef',
      ticketId: 5002,
    });
    expect(taken.statusCode).toBe(409);
    expect((await call('DELETE', `${V1}/task-links/link-to-5002-abcdef`, write)).statusCode).toBe(204);
    expect(await eventTypes('task_link.')).toEqual([
      'task_link.created',
      'task_link.updated',
      'task_link.deleted',
    ]);
  });
});

describe('company picker', () => {
  it('finds companies by the start of the name in any case; % and _ are plain characters', async () => {
    const pick = async (q: string) =>
      (
        (await call('GET', `${ADMIN}/company-picker?q=${encodeURIComponent(q)}`, admin)).json() as {
          items: { id: number; companyName: string }[];
        }
      ).items.map((c) => c.id);
    expect(await pick('acme g')).toEqual([20]);
    expect(await pick('ACME')).toEqual(expect.arrayContaining([10, 20]));
    expect(await pick('%')).toEqual([]);
    expect(await pick('_')).toEqual([]);
    expect((await call('GET', `${ADMIN}/company-picker`, agent)).statusCode).toBe(403);
  });
});

describe('wiki folders and elements', () => {
  it('creates a folder and an element with typed properties, updates and deletes them, with events', async () => {
    const folder = await call('POST', `${V1}/wiki-folders`, write, { companyId: 10, name: 'Stampanti' });
    expect(folder.statusCode, folder.body).toBe(201);
    const folderId = (folder.json() as { id: number }).id;
    const element = await call('POST', `${ADMIN}/wiki-elements`, admin, {
      companyId: 10,
      folderId,
      name: 'HP LaserJet',
      properties: [
        { id: 1, typologyName: 'Modello', dataType: 'text', value: 'M404' },
        { id: 2, typologyName: 'Pagine', dataType: 'number', value: 1200 },
        { id: 3, typologyName: 'In garanzia', dataType: 'bool', value: true },
      ],
    });
    expect(element.statusCode, element.body).toBe(201);
    const { id } = element.json() as { id: number };
    expect(element.json()).toMatchObject({
      folderId,
      properties: [
        { id: 1, dataType: 'text', value: 'M404' },
        { id: 2, dataType: 'number', value: '1200' },
        { id: 3, dataType: 'bool', value: 'true' },
      ],
    });
    const wiki = (await call('GET', `${ADMIN}/wiki?companyId=10`, admin)).json() as {
      folders: { id: number }[];
      elements: { id: number; folderId: number }[];
    };
    expect(wiki.folders.map((f) => f.id)).toEqual(expect.arrayContaining([1, 2, folderId]));
    expect(wiki.elements).toContainEqual(expect.objectContaining({ id, folderId }));
    // A folder holding elements is not deleted under them.
    expect((await call('DELETE', `${V1}/wiki-folders/${folderId}`, write)).statusCode).toBe(409);
    const up = await call('PATCH', `${V1}/wiki-elements/${id}`, write, { name: 'HP LaserJet Pro' });
    expect(up.json()).toMatchObject({
      name: 'HP LaserJet Pro',
      properties: [{ id: 1 }, { id: 2 }, { id: 3 }],
    });
    expect((await call('DELETE', `${V1}/wiki-elements/${id}`, write)).statusCode).toBe(204);
    expect((await call('DELETE', `${ADMIN}/wiki-folders/${folderId}`, admin)).statusCode).toBe(204);
    expect(await eventTypes('wiki_')).toEqual([
      'wiki_folder.created',
      'wiki_element.created',
      'wiki_element.updated',
      'wiki_element.deleted',
      'wiki_folder.deleted',
    ]);
    expect((await auditOf('wiki_element')).map((a) => a.action)).toEqual(['created', 'updated', 'deleted']);
  });

  it('keeps the file of a file property; refuses a bad typed value, a folder of another company, a named element', async () => {
    const before100 = (await call('GET', `${V1}/wiki-elements/100`, write)).json() as {
      properties: { id: number; fileId: number | null }[];
    };
    const fileId = before100.properties.find((p) => p.id === 2)!.fileId;
    expect(fileId).not.toBeNull();
    const renamed = await call('PATCH', `${V1}/wiki-elements/100`, write, { name: 'Server principale' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((renamed.json() as typeof before100).properties.find((p) => p.id === 2)!.fileId).toBe(fileId);

    const before = { ...(await snapshot()), elements: await count('wiki_elements') };
    const badValue = await call('POST', `${V1}/wiki-elements`, write, {
      companyId: 10,
      folderId: 1,
      name: 'X',
      properties: [{ id: 1, typologyName: 'Data', dataType: 'date', value: 'ieri' }],
    });
    expect(badValue.statusCode).toBe(400);
    const otherCompany = await call('POST', `${V1}/wiki-elements`, write, {
      companyId: 20,
      folderId: 1,
      name: 'X',
    });
    expect(otherCompany.statusCode).toBe(422);
    expect(otherCompany.json()).toMatchObject({ code: 'unknown_reference' });
    // Element 100 is named by ticket 5001.
    expect((await call('DELETE', `${V1}/wiki-elements/100`, write)).statusCode).toBe(409);
    expect({ ...(await snapshot()), elements: await count('wiki_elements') }).toEqual(before);
  });
});
