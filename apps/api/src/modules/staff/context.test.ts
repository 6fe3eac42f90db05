/**
 * The customer beside a ticket (issue 28 item 10): the requester, company, other open tickets and what
 * only Sportello knows, bounded, scoped to the portal, invoices for admins only; one statement on
 * indexes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_LIST_MAX, type TicketContext } from '@sportello/contracts';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from './staff.fixture';
import { ticketContextSql } from './context.queries';

let t: TestApp;
let personas: Awaited<ReturnType<typeof seedPersonas>>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const desk = '/api/staff/portals/acme';
const get = (who: keyof typeof staff, url: string) =>
  t.app.inject({ method: 'GET', url, headers: staff[who] });
const rows = async <T>(s: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(s)) as unknown as { rows: T[] }).rows;

describe('the customer beside the ticket', () => {
  it("shows the requester, company, other open tickets, contracts' hour banks, signatures, appointments", async () => {
    // Six more tickets of the requester (acme/102): the list holds CONTEXT_LIST_MAX, the count all.
    for (let i = 0; i < 6; i++) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/acme/102/tickets',
        headers: personas.owner.headers,
        payload: { title: `Context ${i}`, taskTypeId: 1, description: 'x', attachments: [] },
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    // An appointment booked with the requester's address, tomorrow, and one cancelled.
    await t.ctx.database.db.execute(sql`
      insert into appointments (portal_id, link_id, agent_id, cancel_key, starts_at, ends_at, first_name,
        last_name, phone, email, cancelled_at)
      select l.portal_id, l.id, l.agent_id, 'ctx-' || g, now() + interval '1 day' * g,
        now() + interval '1 day' * g + interval '30 minutes', 'Anna', 'Verdi', '+39 02 1', 'ANNA@acme.example',
        case when g = 2 then now() end
      from appointment_links l join portals p on p.id = l.portal_id, generate_series(1, 2) g
      where p.key = 'acme' order by l.id limit 2`);
    const res = await get('agentA', `${desk}/tickets/5003/context`);
    expect(res.statusCode, res.body).toBe(200);
    const c = res.json() as TicketContext;
    expect(c.contact).toEqual({ id: 102, name: 'ACME Anna Verdi', email: 'anna@acme.example', phone: null });
    expect(c.company).toEqual({ id: 10, name: 'ACME Contoso Srl' });
    expect(c.openTickets.total).toBeGreaterThanOrEqual(6);
    expect(c.openTickets.items).toHaveLength(CONTEXT_LIST_MAX);
    expect(c.openTickets.items.map((i) => i.id)).not.toContain(5003);
    expect(c.openTickets.items[0]!.title).toBe('Context 5');
    expect(c.contracts.items).toContainEqual(
      expect.objectContaining({ name: 'ACME Monte ore 2026', hoursAmount: 20, residualMinutes: 990 }),
    );
    // Only documents the company's contacts have not signed, none cancelled.
    expect(c.signatures.total).toBe(3);
    expect(c.signatures.items.map((s) => s.contactName)).toContain('ACME Anna Verdi');
    const links = await rows<{ n: string }>(sql`select count(*)::text as n from appointment_links l
      join portals p on p.id = l.portal_id where p.key = 'acme'`);
    expect(c.appointments.total).toBe(Math.min(Number(links[0]!.n), 1));
    // Money is the admins': an agent gets no invoices.
    expect(c.invoices).toBeNull();
  });

  it('shows an admin the unpaid invoices, the one due first first, overdue by the portal’s today', async () => {
    const company = sql`(select co.id from companies co join portals p on p.id = co.portal_id
      where p.key = 'acme' and co.ext_id = 10)`;
    const file = sql`(select file_id from invoices where company_id = ${company} limit 1)`;
    // The clock reads 2026-11-20 10:00 UTC. Due yesterday (overdue), due today and in a week (due),
    // paid, and one whose payment the back office does not track.
    await t.ctx.database.db.execute(sql`
      insert into invoices (portal_id, company_id, ext_id, document_number, total, invoice_date, file_id,
        due_date, paid_date)
      select co.portal_id, co.id, 880000 + g, 'CTX-' || g, 100 * g, '2026-10-01T00:00:00Z', ${file},
        case g when 1 then '2026-11-19T00:00:00+01'::timestamptz when 2 then '2026-11-20T00:00:00+01'
          when 3 then '2026-11-27T00:00:00+01' when 4 then '2026-11-01T00:00:00+01' end,
        case g when 4 then '2026-11-02T00:00:00+01'::timestamptz end
      from companies co, generate_series(1, 5) g where co.id = ${company}`);
    const admin = (await get('adminA', `${desk}/tickets/5003/context`)).json() as TicketContext;
    expect(admin.invoices!.total).toBe(3);
    expect(admin.invoices!.items.map((i) => [i.documentNumber, i.overdue])).toEqual([
      ['CTX-1', true],
      ['CTX-2', false],
      ['CTX-3', false],
    ]);
    expect(admin.invoices!.items[0]).toMatchObject({ total: 100, dueDate: '2026-11-18T23:00:00.000Z' });
  });

  it("keeps to the caller's portal", async () => {
    expect((await get('agentB', `${desk}/tickets/5003/context`)).statusCode).toBe(403);
    const missing = await get('agentA', `${desk}/tickets/424242/context`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('ticket_not_found');
    // A ticket of portal beta, asked for through acme: not there.
    const [beta] = await rows<{ ext: string }>(sql`select t.ext_id::text as ext from tickets t
      join portals p on p.id = t.portal_id where p.key = 'beta' and not exists (
        select 1 from tickets a join portals ap on ap.id = a.portal_id where ap.key = 'acme' and a.ext_id = t.ext_id)
      limit 1`);
    if (beta) expect((await get('agentA', `${desk}/tickets/${beta.ext}/context`)).statusCode).toBe(404);
  });

  it('reads each list through an index, not the whole table', async () => {
    const db = t.ctx.database.db;
    // 20,000 tickets of the company by nobody in particular, so the planner is not pricing empty tables.
    await db.execute(sql`
      insert into tickets (portal_id, company_id, ext_id, title, description, created_on, type_id, status_step_id)
      select t.portal_id, t.company_id, 700000 + g, 'Bulk ' || g, '', now() - g * interval '1 hour', t.type_id,
        t.status_step_id
      from tickets t join portals p on p.id = t.portal_id, generate_series(1, 20000) g
      where p.key = 'acme' and t.ext_id = 5003`);
    await db.execute(sql`analyze`);
    const [p] = await rows<{ id: number }>(sql`select id from portals where key = 'acme'`);
    const q = ticketContextSql({
      portalId: Number(p!.id),
      ticketExtId: 5003,
      invoices: true,
      now: new Date(),
    });
    const plan = (await rows<{ 'QUERY PLAN': string }>(sql`explain ${q}`))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan, plan).not.toMatch(/Seq Scan on tickets\b/);
  });
});
