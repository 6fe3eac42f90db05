import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portals, ticketComments, tickets } from '../../db/schema';
import { deskSignalOf } from '../../platform/event-signal';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

type Inbox = {
  items: { id: number; title: string; unread: boolean; waitingOnCustomer: boolean }[];
  counts: Record<string, number>;
  nextCursor: string | null;
};

async function inbox(query: string, who: Record<string, string> = staff.agentA) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/staff/portals/acme/tickets?${query}`,
    headers: who,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Inbox;
}
const ids = (r: Inbox) => r.items.map((i) => i.id);

/** Adds a comment to an acme ticket as the given kind of author, at the given time. */
async function addComment(
  ticketExt: number,
  extId: number,
  message: string,
  at: string,
  opts: { internal?: boolean; byAgent?: boolean } = {},
) {
  const db = t.ctx.database.db;
  const [p] = await db.select({ id: portals.id }).from(portals).where(eq(portals.key, 'acme'));
  const [tk] = await db
    .select({ id: tickets.id, creator: tickets.creatorContactId })
    .from(tickets)
    .where(and(eq(tickets.portalId, p!.id), eq(tickets.extId, ticketExt)));
  const agent = await db.execute(sql`select id from agents where portal_id = ${p!.id} order by id limit 1`);
  const agentId = (agent as unknown as { rows: { id: number }[] }).rows[0]!.id;
  // Written as another process would write it: the desk's kept answers are cleared by the database's
  // NOTIFY, which reaches this process after the insert has returned on PostgreSQL. Waited for, so the
  // next read is not an answer kept from before (the desk keeps none while it is not listening).
  const signal = deskSignalOf(t.ctx.database);
  const cleared = signal.isListening ? signal.wait(10_000) : Promise.resolve();
  await db.insert(ticketComments).values({
    portalId: p!.id,
    ticketId: tk!.id,
    extId,
    message,
    creationDate: new Date(at),
    internal: opts.internal ?? false,
    senderAgentId: opts.byAgent || opts.internal ? agentId : null,
    senderContactId: opts.byAgent || opts.internal ? null : tk!.creator,
  });
  await cleared;
}

describe('staff inbox', () => {
  it('lists every company of the portal by last activity, with the count of each view', async () => {
    const open = await inbox('view=open');
    // 5001's last activity is its comment of 10-14, after its creation on 10-12.
    expect(ids(open)).toEqual([6001, 5004, 5003, 5001]);
    expect(open.items.every((i) => i.title.startsWith('ACME'))).toBe(true);
    expect(open.counts).toEqual({
      unassigned: 2,
      mine: 2,
      groups: 0,
      waiting: 0,
      breaching: 0,
      open: 4,
      closed: 1,
    });
    expect(ids(await inbox('view=unassigned'))).toEqual([6001, 5003]);
    // Luca is the import's agent 1, the assignee of 5001 and 5004.
    expect(ids(await inbox('view=mine'))).toEqual([5004, 5001]);
    expect(ids(await inbox('view=closed'))).toEqual([5002]);
    // The admin is no agent of the import: nothing is theirs.
    expect((await inbox('view=mine', staff.adminA)).items).toEqual([]);
  });

  it('pages with a keyset cursor, without repeats or gaps', async () => {
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: Inbox = await inbox(`view=open&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...ids(page));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual([6001, 5004, 5003, 5001]);
  });

  it('filters by company, contact, type, step, assignee and creation dates', async () => {
    expect(ids(await inbox('company=20'))).toEqual([6001]);
    expect(ids(await inbox('contact=102'))).toEqual([5003]);
    expect(ids(await inbox('step=2'))).toEqual([5003]);
    expect(ids(await inbox('assignee=0'))).toEqual([6001, 5003]);
    expect(ids(await inbox('assignee=1'))).toEqual([5004, 5001]);
    expect(ids(await inbox('from=2026-10-27&to=2026-10-29'))).toEqual([5004, 5003]);
    expect(ids(await inbox('group=1&view=closed'))).toEqual([5002]);
    // An id of nothing finds nothing (never another portal's row).
    expect(ids(await inbox('company=999'))).toEqual([]);
  });

  it('searches number, id, words of title, description and conversation, and title fragments', async () => {
    expect(ids(await inbox('q=2026/0014'))).toEqual([5003]);
    expect(ids(await inbox('q=5004'))).toEqual([5004]);
    expect(ids(await inbox('q=stampante'))).toEqual([5001]);
    // A word of an agent's answer in the conversation.
    expect(ids(await inbox('q=carico'))).toEqual([5001]);
    // A fragment inside a word of a title (trigram index).
    expect(ids(await inbox('view=closed&q=ete%20len'))).toEqual([5002]);
    expect(ids(await inbox('q=%25%25%25'))).toEqual([]);
  });

  it('refuses bad input with 400 and a code', async () => {
    for (const q of ['view=bogus', 'cursor=not-a-cursor', 'from=2026-13-40', 'limit=0', 'company=abc']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/staff/portals/acme/tickets?${q}`,
        headers: staff.agentA,
      });
      expect(res.statusCode, q).toBe(400);
      expect(typeof res.json().code, q).toBe('string');
    }
  });

  it('marks unread per agent until opened, and again on new activity; tracks who is waiting', async () => {
    expect((await inbox('q=5003')).items[0]!.unread).toBe(true);
    const open = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/acme/tickets/5003',
      headers: staff.agentA,
    });
    expect(open.statusCode).toBe(200);
    expect((await inbox('q=5003')).items[0]!.unread).toBe(false);
    // Another agent has not read it.
    expect((await inbox('q=5003', staff.adminA)).items[0]!.unread).toBe(true);

    await addComment(5003, 91001, '<p>Serve altro?</p>', '2026-11-21T09:00:00Z', { byAgent: true });
    const after = (await inbox('view=waiting')).items;
    expect(after.map((i) => i.id)).toEqual([5003]);
    expect(after[0]!.unread).toBe(true);
    // 5003 moved to the top of the open view: its activity is the newest.
    expect(ids(await inbox('view=open'))[0]).toBe(5003);

    await addComment(5003, 91002, '<p>No, grazie</p>', '2026-11-21T10:00:00Z');
    expect(ids(await inbox('view=waiting'))).toEqual([]);
  });
});

describe('internal notes', () => {
  const NOTE = 'NOTA-INTERNA-riservata';

  beforeAll(async () => {
    await addComment(5003, 92001, `<p>${NOTE} 5003</p>`, '2026-11-22T08:00:00Z', { internal: true });
    await addComment(5001, 92002, `<p>${NOTE} 5001</p>`, '2026-11-22T08:00:00Z', { internal: true });
  });

  it('shows them to staff, marked internal, without making the customer the one to answer', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/acme/tickets/5003',
      headers: staff.agentA,
    });
    const notes = (res.json().comments as { message: string; internal: boolean }[]).filter((c) =>
      c.message.includes(NOTE),
    );
    expect(notes).toEqual([
      expect.objectContaining({ internal: true, author: { kind: 'agent', name: 'ACME Agent Luca' } }),
    ]);
    // The last public message is still the customer's: the note does not make the ticket wait.
    expect(res.json().waitingOnCustomer).toBe(false);
  });

  it('never shows them on the customer side: ticket detail, lists, task page', async () => {
    for (const p of ['owner', 'admin'] as const) {
      const { headers, company, contactId } = personas[p];
      for (const url of [
        `/api/${company}/${contactId}/tickets/5003`,
        `/api/${company}/${contactId}/tickets/5001`,
        `/api/${company}/${contactId}/tickets`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.body, `${url} as ${p}`).not.toContain(NOTE);
      }
    }
    const detail = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/tickets/5001',
      headers: personas.admin.headers,
    });
    expect(detail.statusCode).toBe(200);
    expect((detail.json().comments as unknown[]).length).toBe(2);
    const task = await t.app.inject({ method: 'GET', url: '/api/tasks/acme/acme-task-3c4d5e6f7a8b9c0d' });
    expect(task.statusCode).toBe(200);
    expect(task.body).not.toContain(NOTE);
    expect(task.body).toContain('Abbiamo preso in carico');
  });

  it('is found by a staff search of its words', async () => {
    expect(ids(await inbox(`q=${NOTE.toLowerCase()}`))).toEqual(expect.arrayContaining([5001, 5003]));
  });
});
