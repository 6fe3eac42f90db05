/**
 * The desk's own routes through the entity service (issue 14): any staff member of the portal, agents
 * included, opens a ticket on behalf of a contact (numbered by the portal, `ticket.created` once with
 * the staff source, an audit row, the customer sees it, the agents who are to hear of a new ticket are
 * e-mailed, the author not), with the company and contact pickers; and shares a ticket's task page
 * (create, list, revoke). Bad input is 4xx `{code, message}` and writes nothing.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { multipartFile, seedPersonas, type Persona, type PersonaAccess } from '../../../test/personas';
import { staffMember } from '../../staff/staff.fixture';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;
/** luca is the import's agent 1; sara an agent the invitation made; boss an admin. */
let luca: Record<string, string>;
let sara: Record<string, string>;
let boss: Record<string, string>;
let betaAgent: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  luca = await staffMember(t, 'acme', 'luca@acme.example');
  sara = await staffMember(t, 'acme', 'sara@acme.example');
  boss = await staffMember(t, 'acme', 'boss@acme.example', 'admin');
  betaAgent = await staffMember(t, 'beta', 'agent@beta.example');
});
afterAll(async () => {
  await t?.close();
});

const DESK = '/api/staff/portals/acme';
const call = (
  method: InjectOptions['method'],
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const count = async (table: string, where = 'true') =>
  Number(
    (await rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where ${where}`)))[0]!.n,
  );
/** E-mails to `to` about a new ticket (the invitation of the fixture is not one). */
const ticketMailsTo = (to: string) =>
  count(
    'outbox',
    `channel = 'email' and lower(payload->>'to') = '${to.toLowerCase()}' and payload->>'subject' like '%Nuovo ticket%'`,
  );
const mailTo = async (to: string) =>
  (
    await rows<{ payload: unknown }>(
      sql`select payload from outbox where channel = 'email' and lower(payload->>'to') = ${to} order by id desc limit 1`,
    )
  ).map(
    (r) =>
      (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as {
        subject: string;
        text: string;
      },
  )[0];

async function snapshot() {
  return {
    tickets: await count('tickets'),
    events: await count('events'),
    audit: await count('audit_log'),
    outbox: await count('outbox'),
    links: await count('task_links'),
  };
}

const phoned = {
  companyId: 10,
  creatorContactId: 102,
  title: 'Stampante bloccata (telefonata)',
  description:
    '<p>Chiamata di Anna: <b>errore E42</b>.</p><script>alert(1)</script><img src=x onerror="alert(2)">',
  taskTypeId: 1,
  statusStepId: 2,
  nextPlannedActivityInfo: 'Richiamare domani',
};

describe('a ticket opened on the desk for a contact', () => {
  let created: { id: number; ticketNumber: string };

  it('an agent opens it: numbered by the portal, one ticket.created from the staff, an audit row', async () => {
    const before = await snapshot();
    const res = await call('POST', `${DESK}/tickets`, luca, phoned);
    expect(res.statusCode, res.body).toBe(201);
    created = res.json();
    expect(res.json()).toMatchObject({
      companyId: 10,
      creatorContactId: 102,
      title: 'Stampante bloccata (telefonata)',
      taskTypeId: 1,
      statusStepId: 2,
      nextPlannedActivityInfo: 'Richiamare domani',
      assignedUserId: null,
      assignedGroupId: null,
      createdOn: '2026-11-20T10:00:00.000Z',
    });
    // Numbered as a customer's own ticket, in the back office's format (`2026/0099`), after its ids.
    expect(created.ticketNumber).toMatch(/^2026\/\d{4}$/);
    expect(created.id).toBeGreaterThan(6001);
    // The same sanitiser as every description: the markup stays, the scripts go.
    const description = (res.json() as { description: string }).description;
    expect(description).toContain('<b>errore E42</b>');
    expect(description).not.toMatch(/script|onerror/);

    const events = await rows<{
      type: string;
      source: Record<string, unknown>;
      data: { ticket: { id: number } };
    }>(sql`select type, source, data from events where type like 'ticket.%' order by id`);
    const mine = events.filter((e) => e.data.ticket?.id === created.id);
    expect(mine.map((e) => e.type)).toEqual(['ticket.created']);
    expect(mine[0]!.source).toMatchObject({ type: 'staff', userName: expect.any(String) });
    const audit = await rows<{ action: string; actor_type: string; actor_name: string }>(
      sql`select action, actor_type, actor_name from audit_log where entity = 'ticket' and entity_id = ${String(created.id)}`,
    );
    expect(audit).toEqual([{ action: 'created', actor_type: 'staff', actor_name: 'luca@acme.example' }]);
    const after = await snapshot();
    expect(after.tickets).toBe(before.tickets + 1);
  });

  it('the customer finds it in their list and opens it; a contact of another company does not', async () => {
    const list = await call(
      'GET',
      '/api/acme/102/tickets?from=2026-01-01&to=2026-12-31',
      personas.owner.headers,
    );
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Stampante bloccata (telefonata)');
    const detail = await call('GET', `/api/acme/102/tickets/${created.id}`, personas.owner.headers);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ ticketNumber: created.ticketNumber });
    const other = await call('GET', `/api/acme/201/tickets/${created.id}`, personas.otherCompany.headers);
    expect(other.statusCode).toBe(404);
    // And the desk's inbox has it, unassigned.
    const inbox = await call('GET', `${DESK}/tickets?view=unassigned`, sara);
    expect(inbox.body).toContain('Stampante bloccata (telefonata)');
  });

  it('e-mails the agents who hear of new tickets, never its author', async () => {
    // Unassigned and without a group: the portal's triage, by default its admins (luca, who opened
    // it, is none; sara, an agent, neither).
    expect(await ticketMailsTo('luca@acme.example')).toBe(0);
    const toBoss = await mailTo('boss@acme.example');
    expect(toBoss?.subject).toContain(`Nuovo ticket ${created.ticketNumber}`);
    expect(toBoss?.text).toMatch(/ha aperto un ticket per ACME Anna Verdi/);
    expect(toBoss?.text).toContain(`/acme/staff/tickets/${created.id}`);
    expect(await ticketMailsTo('boss@acme.example')).toBe(1);
    expect(await ticketMailsTo('sara@acme.example')).toBe(0);

    // Assigned to luca himself (agent 1): the assignee is the one to hear of it, and he knows; only
    // the customer's confirmation goes.
    const before = await count('outbox');
    const own = await call('POST', `${DESK}/tickets`, luca, { ...phoned, assignedUserId: 1, title: 'Mio' });
    expect(own.statusCode, own.body).toBe(201);
    expect(await count('outbox')).toBe(before + 1);
    expect((await mailTo('anna@acme.example'))?.subject).toContain('Mio');
  });

  it("names the agent, takes the agent's uploads and confirms to the customer in their language", async () => {
    await t.ctx.database.db.execute(sql`update users set language = 'en-EN' where user_name = 'anna.verdi'`);
    const upload = async (who: Record<string, string>, name: string) => {
      const m = multipartFile(name, 'foto', 'text/plain');
      const up = await t.app.inject({
        method: 'POST',
        url: `${DESK}/uploads`,
        headers: { ...who, ...m.headers },
        payload: m.payload,
      });
      expect(up.statusCode, up.body).toBe(201);
      return up.json().id as number;
    };
    const [a, b] = [await upload(luca, 'errore.txt'), await upload(luca, 'etichetta.txt')];
    const theirs = await upload(sara, 'di-sara.txt');

    // Another agent's upload is refused, and nothing is written.
    const before = await snapshot();
    const stolen = await call('POST', `${DESK}/tickets`, luca, { ...phoned, attachmentIds: [a, theirs] });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ code: 'attachment_unavailable' });
    expect(await snapshot()).toEqual(before);

    const res = await call('POST', `${DESK}/tickets`, luca, {
      ...phoned,
      title: 'Con foto',
      attachmentIds: [b, a],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { id: number }).id;
    const detail = await call('GET', `/api/acme/102/tickets/${id}`, personas.owner.headers);
    expect(detail.json()).toMatchObject({
      openedBy: 'ACME Agent Luca',
      attachments: [{ name: 'etichetta.txt' }, { name: 'errore.txt' }],
    });
    const desk = await call('GET', `${DESK}/tickets/${id}`, sara);
    expect(desk.json()).toMatchObject({ openedBy: 'ACME Agent Luca' });
    // The customer's own tickets are not "opened by" anyone.
    expect((await call('GET', '/api/acme/102/tickets/5003', personas.owner.headers)).json()).toMatchObject({
      openedBy: null,
    });

    const mail = (await mailTo('anna@acme.example'))!;
    expect(mail.subject).toMatch(/^\[.+\] Ticket \d{4}\/\d{4} received: Con foto$/);
    expect(mail.text).toContain('ACME Agent Luca opened ticket');
    expect(mail.text).toContain(`/acme/102/tickets/${id}`);
    await t.ctx.database.db.execute(sql`update users set language = null where user_name = 'anna.verdi'`);
  });

  it('refuses bad input with {code, message} and writes nothing', async () => {
    const before = await snapshot();
    const cases: [string, unknown, number, string][] = [
      ['blank title', { ...phoned, title: '  ' }, 400, 'validation_error'],
      ['no contact', { ...phoned, creatorContactId: undefined }, 400, 'validation_error'],
      ['an id', { ...phoned, id: 99999 }, 400, 'validation_error'],
      ['a date', { ...phoned, createdOn: '2020-01-01' }, 400, 'validation_error'],
      ['unknown type', { ...phoned, taskTypeId: 77 }, 422, 'unknown_reference'],
      ['unknown step', { ...phoned, statusStepId: 77 }, 422, 'unknown_reference'],
      ['contact of another company', { ...phoned, creatorContactId: 201 }, 422, 'unknown_reference'],
      ['unknown company', { ...phoned, companyId: 99 }, 422, 'unknown_reference'],
      ['unknown agent', { ...phoned, assignedUserId: 77 }, 422, 'unknown_reference'],
    ];
    for (const [what, body, status, code] of cases) {
      const res = await call('POST', `${DESK}/tickets`, sara, body);
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toMatchObject({ code, message: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('is refused outside the portal: an agent of another portal, a contact, nobody', async () => {
    const before = await snapshot();
    expect((await call('POST', `${DESK}/tickets`, betaAgent, phoned)).statusCode).toBe(403);
    expect((await call('POST', `${DESK}/tickets`, personas.admin.headers, phoned)).statusCode).toBe(401);
    expect((await call('POST', `${DESK}/tickets`, {}, phoned)).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('the pickers: companies by the start of the name, contacts of a company by name', async () => {
    const companies = await call('GET', `${DESK}/companies?q=acme g`, sara);
    expect(companies.json()).toEqual({ items: [{ id: 20, companyName: 'ACME Globex Spa' }] });
    const contacts = await call('GET', `${DESK}/companies/10/contacts?q=anna`, sara);
    expect(contacts.statusCode).toBe(200);
    expect(contacts.json()).toEqual({
      items: [expect.objectContaining({ contactId: 102, companyId: 10, referentName: 'ACME Anna Verdi' })],
      nextCursor: null,
    });
    // Only what the desk needs: no permissions, no users.
    expect(Object.keys((contacts.json() as { items: object[] }).items[0]!).sort()).toEqual([
      'companyId',
      'contactId',
      'email',
      'phone',
      'referentName',
    ]);
    expect((await call('GET', `${DESK}/companies/99/contacts`, sara)).statusCode).toBe(404);
    expect((await call('GET', `${DESK}/companies/10/contacts`, betaAgent)).statusCode).toBe(403);
  });

  it('an admin opens one too, through the same route', async () => {
    const res = await call('POST', `${DESK}/tickets`, boss, {
      ...phoned,
      title: 'Da admin',
      description: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ description: '', creatorContactId: 102 });
  });
});

describe("a ticket's task page links", () => {
  it('an agent shares one (an unguessable key), lists it and revokes it, with events and audit', async () => {
    const before = await snapshot();
    const made = await call('POST', `${DESK}/tickets/5002/task-links`, sara);
    expect(made.statusCode, made.body).toBe(201);
    const { eventKey, ticketId } = made.json() as { eventKey: string; ticketId: number };
    expect(ticketId).toBe(5002);
    expect(eventKey).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // The public read-only page answers for it.
    const page = await t.app.inject({ method: 'GET', url: `/api/tasks/acme/${eventKey}` });
    expect(page.statusCode, page.body).toBe(200);

    const list = await call('GET', `${DESK}/tickets/5002/task-links`, luca);
    expect(list.json()).toEqual({ items: [{ eventKey, ticketId: 5002 }] });
    // Ticket 5001's link (the import's) is 5001's only.
    expect((await call('GET', `${DESK}/tickets/5001/task-links`, luca)).json()).toEqual({
      items: [{ eventKey: 'acme-task-3c4d5e6f7a8b9c0d', ticketId: 5001 }],
    });

    // Another ticket's path does not reach it.
    const wrong = await call('DELETE', `${DESK}/tickets/5001/task-links/${eventKey}`, sara);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ code: 'entity_not_found' });
    expect((await call('GET', `${DESK}/tickets/5002/task-links`, luca)).json()).toEqual({
      items: [{ eventKey, ticketId: 5002 }],
    });

    expect((await call('DELETE', `${DESK}/tickets/5002/task-links/${eventKey}`, sara)).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/tasks/acme/${eventKey}` })).statusCode).toBe(404);
    expect((await call('GET', `${DESK}/tickets/5002/task-links`, luca)).json()).toEqual({ items: [] });

    const events = await rows<{ type: string; source: Record<string, unknown> }>(
      sql`select type, source from events where type like 'task_link.%' order by id`,
    );
    expect(events.map((e) => e.type)).toEqual(['task_link.created', 'task_link.deleted']);
    expect(events[0]!.source).toMatchObject({ type: 'staff' });
    const audit = await rows<{ action: string; actor_type: string; entity_id: string }>(
      sql`select action, actor_type, entity_id from audit_log where entity = 'task_link' order by id`,
    );
    expect(audit).toEqual([
      { action: 'created', actor_type: 'staff', entity_id: eventKey },
      { action: 'deleted', actor_type: 'staff', entity_id: eventKey },
    ]);
    const after = await snapshot();
    expect(after.links).toBe(before.links);
  });

  it('answers 404 for a ticket or key the portal lacks, writing nothing', async () => {
    const before = await snapshot();
    for (const [method, url] of [
      ['POST', `${DESK}/tickets/424242/task-links`],
      ['GET', `${DESK}/tickets/424242/task-links`],
      ['DELETE', `${DESK}/tickets/5002/task-links/no-such-key-0000000000`],
    ] as const) {
      const res = await call(method, url, sara);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'entity_not_found', message: expect.any(String) });
    }
    expect((await call('POST', `${DESK}/tickets/5002/task-links`, betaAgent)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});
