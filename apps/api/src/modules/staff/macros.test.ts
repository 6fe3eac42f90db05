/**
 * Canned replies (issue 28 item 6): personal and shared macros, placeholders refused at save and
 * filled for a ticket, the requester's language picked, and a macro's reply with its ticket changes in
 * one transaction.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeholdersIn, renderMacroText, unknownPlaceholdersIn } from '@sportello/contracts';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { pickMacroLanguage } from './macros.service';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const desk = '/api/staff/portals/acme';
type Who = keyof typeof staff;
const call = (who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: staff[who], ...(payload && { payload }) });
const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;
const lastEvent = async () =>
  Number((await rows<{ id: string | null }>(sql`select max(id)::text as id from events`))[0]?.id ?? 0);
const commentCount = async (ticketExt: number) =>
  Number(
    (
      await rows<{ n: string }>(
        sql`select count(*)::text as n from ticket_comments cm join tickets t on t.id = cm.ticket_id
          join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = ${ticketExt}`,
      )
    )[0]!.n,
  );

describe('placeholders', () => {
  it('finds, refuses and fills {{…}} placeholders, escaping each value', () => {
    const text = 'Ciao {{ customer.first_name }}, ticket {{ticket.number}} {{agent.nome}}';
    expect(placeholdersIn(text)).toEqual(['customer.first_name', 'ticket.number', 'agent.nome']);
    expect(unknownPlaceholdersIn(text)).toEqual(['agent.nome']);
    const values = {
      'customer.first_name': '<b>Anna</b>',
      'customer.name': 'Anna Rossi',
      'ticket.number': '2026/0118',
      'ticket.title': 'T',
      'agent.name': 'Sara',
    };
    expect(renderMacroText(text, values, (s) => s.replace(/</g, '&lt;'))).toBe(
      'Ciao &lt;b>Anna&lt;/b>, ticket 2026/0118 {{agent.nome}}',
    );
  });

  it("picks the requester's language, else the portal's, else the first the macro has", () => {
    const texts = { 'it-IT': 'Ciao', 'en-EN': 'Hello' };
    expect(pickMacroLanguage(texts, 'en', 'it-IT')).toBe('en-EN');
    expect(pickMacroLanguage(texts, 'es-ES', 'it-IT')).toBe('it-IT');
    expect(pickMacroLanguage(texts, null, 'en-EN')).toBe('en-EN');
    expect(pickMacroLanguage({ 'es-ES': 'Hola', 'en-EN': ' ' }, 'en-EN', 'it-IT')).toBe('es-ES');
  });
});

describe('macros', () => {
  const personal = {
    name: 'Grazie',
    shared: false,
    texts: {
      'it-IT': '<p>Ciao {{customer.first_name}}, grazie</p>',
      'en-EN': '<p>Hi {{customer.first_name}}</p>',
    },
  };

  it("keeps an agent's own macros to them and the shared ones to the admins", async () => {
    const mine = await call('agentA', 'POST', `${desk}/macros`, personal);
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json()).toMatchObject({ name: 'Grazie', shared: false, editable: true, actions: {} });

    const refused = await call('agentA', 'POST', `${desk}/macros`, { ...personal, shared: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('admin_required');

    const shared = await call('adminA', 'POST', `${desk}/macros`, {
      name: 'Chiusura',
      shared: true,
      texts: { 'it-IT': 'Chiudo il ticket {{ticket.number}}' },
      actions: { priority: 'low' },
    });
    expect(shared.statusCode, shared.body).toBe(201);
    const sharedId = shared.json().id as number;

    // The agent sees the shared one (not editable) and theirs; the admin does not see the agent's.
    const agentList = (await call('agentA', 'GET', `${desk}/macros`)).json();
    expect(agentList.items.map((m: { name: string; editable: boolean }) => [m.name, m.editable])).toEqual([
      ['Chiusura', false],
      ['Grazie', true],
    ]);
    const adminList = (await call('adminA', 'GET', `${desk}/macros?q=GRAZ`)).json();
    expect(adminList.items).toEqual([]);
    expect((await call('adminA', 'GET', `${desk}/macros?scope=shared`)).json().items).toHaveLength(1);
    expect((await call('agentA', 'GET', `${desk}/macros?scope=mine`)).json().items).toHaveLength(1);

    // The agent may neither change nor delete the shared one; the admin cannot reach the agent's.
    const edit = await call('agentA', 'PUT', `${desk}/macros/${sharedId}`, { ...personal, name: 'Mia' });
    expect(edit.json().code).toBe('admin_required');
    expect((await call('agentA', 'DELETE', `${desk}/macros/${sharedId}`)).statusCode).toBe(403);
    const foreign = await call('adminA', 'DELETE', `${desk}/macros/${mine.json().id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('macro_not_found');
    // Another portal's staff never reach these.
    expect((await call('agentB', 'GET', `${desk}/macros`)).statusCode).toBe(403);
    const beta = (await call('agentB', 'GET', '/api/staff/portals/beta/macros')).json();
    expect(beta.items).toEqual([]);
    expect((await call('agentB', 'DELETE', `/api/staff/portals/beta/macros/${sharedId}`)).statusCode).toBe(
      404,
    );

    const renamed = await call('agentA', 'PUT', `${desk}/macros/${mine.json().id}`, {
      ...personal,
      name: 'Grazie mille',
    });
    expect(renamed.json()).toMatchObject({ name: 'Grazie mille' });
    expect((await call('adminA', 'DELETE', `${desk}/macros/${sharedId}`)).statusCode).toBe(204);
  });

  it('refuses an unknown placeholder, a macro without text and bad actions when saved', async () => {
    const bad = await call('agentA', 'POST', `${desk}/macros`, {
      ...personal,
      texts: { 'it-IT': 'Ciao {{cliente.nome}}' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('unknown_placeholder');
    const empty = await call('agentA', 'POST', `${desk}/macros`, { ...personal, texts: { 'it-IT': '  ' } });
    expect(empty.statusCode).toBe(400);
    const action = await call('agentA', 'POST', `${desk}/macros`, {
      ...personal,
      actions: { colour: 'red' },
    });
    expect(action.statusCode).toBe(400);
    const lang = await call('agentA', 'POST', `${desk}/macros`, { ...personal, texts: { 'fr-FR': 'Salut' } });
    expect(lang.statusCode).toBe(400);
  });

  it("fills a macro for a ticket in the requester's language", async () => {
    const made = (await call('agentA', 'POST', `${desk}/macros`, { ...personal, name: 'Lingua' })).json();
    await t.ctx.database.db.execute(
      sql`update users set language = 'en-EN' where id in (select uc.user_id from user_contacts uc
        join contacts c on c.id = uc.contact_id join portals p on p.id = c.portal_id
        where p.key = 'acme' and c.ext_id = 102)`,
    );
    const [who] = await rows<{ name: string; number: string }>(
      sql`select c.referent_name as name, t.ticket_number as number from tickets t
        join contacts c on c.id = t.creator_contact_id join portals p on p.id = t.portal_id
        where p.key = 'acme' and t.ext_id = 5003`,
    );
    const first = who!.name.trim().split(/\s+/)[0]!;
    const en = await call('agentA', 'GET', `${desk}/tickets/5003/macros/${made.id}`);
    expect(en.statusCode, en.body).toBe(200);
    expect(en.json()).toMatchObject({ language: 'en-EN', text: `<p>Hi ${first}</p>`, actions: {} });

    await t.ctx.database.db.execute(
      sql`update users set language = 'es-ES' where id in (select uc.user_id from user_contacts uc
        join contacts c on c.id = uc.contact_id join portals p on p.id = c.portal_id
        where p.key = 'acme' and c.ext_id = 102)`,
    );
    const it = (await call('agentA', 'GET', `${desk}/tickets/5003/macros/${made.id}`)).json();
    expect(it).toMatchObject({ language: 'it-IT', text: `<p>Ciao ${first}, grazie</p>` });
    expect((await call('agentA', 'GET', `${desk}/tickets/424242/macros/${made.id}`)).statusCode).toBe(404);
    expect((await call('agentA', 'GET', `${desk}/tickets/5003/macros/424242`)).statusCode).toBe(404);
  });

  it("writes the reply and the macro's changes in one transaction, each change as the ticket's own", async () => {
    const options = (await call('agentA', 'GET', `${desk}/options`)).json() as {
      steps: { id: number; isClosing: boolean }[];
      agents: { id: number }[];
      groups: { id: number }[];
    };
    const closing = options.steps.find((s) => s.isClosing)!;
    const before = await commentCount(5003);
    const since = await lastEvent();
    const res = await call('agentA', 'POST', `${desk}/tickets/5003/reply-with-actions`, {
      message: '<p>Risolto</p>',
      internal: false,
      actions: {
        stepId: closing.id,
        priority: 'high',
        tags: ['Macro'],
        groupId: options.groups[0]?.id ?? null,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ internal: false, author: { kind: 'agent' } });
    expect(await commentCount(5003)).toBe(before + 1);
    const ticket = (await call('agentA', 'GET', `${desk}/tickets/5003`)).json();
    expect(ticket).toMatchObject({ closed: true, priority: 'high', tags: [{ name: 'Macro' }] });
    const events = await rows<{ type: string }>(sql`select type from events where id > ${since} order by id`);
    expect(events.map((e) => e.type)).toEqual(['agent.comment_added', 'ticket.closed']);

    // A refused change (an agent that is not the portal's) writes no comment and no event.
    const count = await commentCount(5003);
    const mark = await lastEvent();
    const refused = await call('agentA', 'POST', `${desk}/tickets/5003/reply-with-actions`, {
      message: '<p>Non deve restare</p>',
      internal: false,
      actions: { assigneeId: 424242, priority: 'low' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('unknown_reference');
    expect(await commentCount(5003)).toBe(count);
    expect(await lastEvent()).toBe(mark);
    expect((await call('agentA', 'GET', `${desk}/tickets/5003`)).json().priority).toBe('high');
    const outbox = await rows<{ n: string }>(
      sql`select count(*)::text as n from outbox where payload::text like '%Non deve restare%'`,
    );
    expect(outbox[0]!.n).toBe('0');

    // Not the portal's ticket: 404, as the comment route.
    const foreign = await call('agentA', 'POST', `${desk}/tickets/424242/reply-with-actions`, {
      message: 'x',
      internal: true,
      actions: {},
    });
    expect(foreign.statusCode).toBe(404);
  });
});
