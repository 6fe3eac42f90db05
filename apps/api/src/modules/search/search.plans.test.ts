/**
 * The customer search's query plan on a company of 5,000 tickets, as the API runs it: a prepared
 * statement (named by its text), whose generic plan never sees the words. The tickets are read from
 * the company's index in order of public activity, open and closed apart, and each walk stops at
 * the group's limit; never a read and sort of the whole scope (a bitmap heap scan of the company's
 * tickets), which is what the planner chose while the match was priced as text matches.
 *
 *   Limit -> Index Scan using tickets_public_company_idx (company_id = $n AND closed = false)
 *            Filter: CASE WHEN (…scope… AND …match…) THEN true ELSE false END
 *
 * Every other group reads its scope through the scope's own index (invoices: the company's), never a
 * trigram index (whose entries are every portal's: at 100,000 invoices the generic plan of "INV-10"
 * ANDed the company's 20 with 1,111 entries of the installation's numbers) nor a portal-led one. This
 * database's statistics do not lead the planner there even with `ilike`; what keeps every plan off a
 * trigram index is the operator, checked on the statement's text in search.test.ts.
 */
import { permissionFlags, searchKinds, type PermissionFlag, type SearchKind } from '@sportello/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companies, contacts, portals } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedExample } from '../../test/seed';
import type { TenantContext } from '../../platform/tenancy';
import { searchQuery } from './search.queries';

let t: TestApp;
let tenant: TenantContext;

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  const db = t.ctx.database.db;
  const [p] = await db.select({ id: portals.id }).from(portals).where(eq(portals.key, 'acme'));
  const [c] = await db.select({ id: companies.id }).from(companies).where(eq(companies.portalId, p!.id));
  const [ct] = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.companyId, c!.id));
  tenant = {
    userId: 0,
    portalId: p!.id,
    portalKey: 'acme',
    timeZone: 'UTC',
    companyId: c!.id,
    companyName: '',
    contactId: ct!.id,
    contactExtId: 1,
    flags: Object.fromEntries(permissionFlags.map((f) => [f, true])) as Record<PermissionFlag, boolean>,
    listVersion: 0,
  };
  // 5,000 tickets of the company, a fifth open, every title with the word "stampante", half created by
  // the contact; a public comment on every other ticket.
  await db.execute(sql`
    insert into tickets (portal_id, company_id, ext_id, title, description, created_on, type_id,
      status_step_id, creator_contact_id)
    select ${p!.id}, ${c!.id}, 200000 + g, 'Stampante ' || g, 'Descrizione ' || g,
      timestamptz '2020-01-01' + g * interval '37 minutes',
      (select id from ticket_types where portal_id = ${p!.id} order by id limit 1),
      (select id from status_steps where portal_id = ${p!.id} and task_status = case when g % 5 = 0 then 0 else 2 end limit 1),
      case when g % 2 = 0 then ${ct!.id}::int end
    from generate_series(1, 5000) g`);
  await db.execute(sql`
    insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, sender_contact_id)
    select t.portal_id, t.id, t.ext_id, 'Il tecnico risponde ' || t.ext_id, t.created_on + interval '1 hour',
      ${ct!.id}::int
    from tickets t where t.company_id = ${c!.id} and t.ext_id > 200000 and t.ext_id % 2 = 0`);
  // Invoices numbered like the bench's: the company's 20 among 10,000 of 500 companies of the portal.
  await db.execute(sql`insert into companies (portal_id, ext_id, company_name)
    select ${p!.id}::int, 300000 + g, 'Cliente ' || g from generate_series(1, 499) g`);
  await db.execute(sql`
    insert into invoices (portal_id, company_id, ext_id, document_number, total, invoice_date, file_id)
    select ${p!.id}::int, case when g % 500 = 0 then ${c!.id}::int else co.id end, 300000 + g, 'INV-' || g, 10,
      timestamptz '2024-01-01' + g * interval '1 hour', (select file_id from invoices limit 1)
    from generate_series(1, 10000) g
    join companies co on co.portal_id = ${p!.id}::int and co.ext_id = 300000 + 1 + g % 499`);
  await db.execute(sql`analyze`);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** EXPLAIN of the generic plan the API's prepared statement settles on. */
async function genericPlan(
  q: string,
  administrator: boolean,
  kinds: readonly SearchKind[] = ['tickets'],
): Promise<string> {
  const flags = { ...tenant.flags, administrator };
  const statement = searchQuery(
    { ...tenant, flags },
    {
      q,
      kinds: new Set(kinds),
      ticketScope: {
        portalId: tenant.portalId,
        companyId: tenant.companyId,
        creatorContactId: administrator ? null : tenant.contactId,
        followerUserId: administrator ? null : tenant.userId,
        withReports: false,
      },
      limit: 8,
    },
    searchKinds,
  );
  const query = statement!;
  const lit = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  return t.ctx.database.withConnection(async (raw) => {
    await raw.query('set plan_cache_mode = force_generic_plan');
    await raw.query('deallocate all');
    await raw.query(`prepare search_plan as ${query.sql}`);
    const r = await raw.query<{ 'QUERY PLAN': string }>(
      `explain execute search_plan(${query.params.map(lit).join(', ')})`,
    );
    await raw.query('deallocate all');
    await raw.query('reset plan_cache_mode');
    return r.rows.map((x) => x['QUERY PLAN']).join('\n');
  });
}

describe('customer search plans', () => {
  for (const administrator of [true, false])
    it(`walks the scope's tickets in order and stops at the limit (${administrator ? 'administrator' : 'contact'})`, async () => {
      // An administrator's scope is the company's tickets; a contact's, those they created and those
      // their user follows; both walked by public activity (0040).
      const index = administrator ? 'tickets_public_company_idx' : 'tickets_public_creator_idx';
      for (const q of ['stampante', 'tecnico', 'zebra', 'T-150']) {
        const p = await genericPlan(q, administrator);
        // The walks (`t_1`: open, `t_2`: closed) each an ordered index scan under a Limit; the exact
        // number's branch (`t`) reads the number index; a contact's followed tickets (`t_3`) are read
        // from their follows.
        const walks = p.split('\n').filter((l) => /on tickets t_[12]\b/.test(l));
        expect(walks, p).toHaveLength(2);
        for (const w of walks) expect(w, p).toMatch(new RegExp(`Index Scan using ${index}`));
        expect(p, p).toMatch(
          new RegExp(
            `Limit[^\\n]*\\n(\\s+InitPlan[^\\n]*\\n\\s+->[^\\n]*\\n)*\\s+->\\s+Index Scan using ${index}`,
          ),
        );
        expect(p, p).toMatch(/tickets_number_idx/);
        expect(p, p).not.toMatch(/Seq Scan on tickets/);
        if (administrator) expect(p, p).not.toMatch(/ticket_followers fo/);
        else expect(p, p).toMatch(/ticket_followers fo/);
      }
    });

  it('reads every group through its scope, never a trigram or portal-led index (a number fragment too)', async () => {
    for (const q of ['INV-10', 'T-150', 'stampante', 'of'])
      for (const administrator of [true, false]) {
        const p = await genericPlan(q, administrator, searchKinds);
        expect(p, p).not.toMatch(/_trgm_idx/);
        expect(p, p).not.toMatch(/_ext_uq/);
        expect(p, p).toMatch(
          /Index Scan[^\n]* using invoices_company_date_idx|Index Scan on invoices_company_date_idx/,
        );
      }
  });
});
