/**
 * The inbox's query plans on a portal of 40,000 tickets (PGlite; the same indexes serve PostgreSQL).
 * Each view must be read from its index in order and stop after the page: no Sort of the portal's
 * tickets, no sequential scan. What the plans look like (EXPLAIN, abridged):
 *
 *   open:       Limit -> Index Scan using tickets_inbox_idx (portal_id = $1 AND closed = false)
 *   closed:     Limit -> Index Scan using tickets_inbox_idx (portal_id = $1 AND closed = true)
 *   unassigned: Limit -> Index Scan using tickets_inbox_assignee_idx (assigned_user_id IS NULL, …), or
 *               tickets_inbox_idx filtered when most open tickets are unassigned
 *   mine:       Limit -> Index Scan using tickets_inbox_assignee_idx (assigned_user_id = $2, …)
 *   waiting:    Limit -> Index Scan using tickets_inbox_waiting_idx (partial index)
 *   company:    Limit -> Index Scan using tickets_inbox_company_idx (company_id = (InitPlan), …)
 *   rated:      Limit -> Index Scan using tickets_inbox_rated_idx (partial index; `low` filters it)
 *   next page:  the same, with the keyset (last_activity_at, ext_id) < ($n, $m) as an index condition
 *   search:     one branch per way of finding a ticket, each cut at the page: a rare word reads the
 *               portal-led GIN indexes (tickets_search_idx, ticket_comments_search_idx: words;
 *               tickets_title_trgm_idx: fragments) and sorts its few hits; a common word walks the
 *               view's index in order comparing stored vectors; the number reads tickets_number_idx
 * The joins for names (company, type, step, contact, group, agent) run on the page's rows only.
 * Unread counts (desk.queries countUnread) read the same indexes, each stopping at INBOX_COUNT_CAP, and
 * look each ticket's read mark up by the primary key of staff_ticket_reads.
 */
import { and, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, portals } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedExample } from '../../test/seed';
import { countUnreadSql } from './desk.queries';
import {
  countInboxSql,
  filteredCountSql,
  inboxPageSql,
  listInbox,
  type InboxFilters,
  type InboxScope,
} from './inbox.queries';

let t: TestApp;
let scope: InboxScope;
const dialect = new PgDialect();

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  const db = t.ctx.database.db;
  const [p] = await db.select({ id: portals.id }).from(portals).where(eq(portals.key, 'acme'));
  const [a] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.portalId, p!.id), eq(agents.extId, 1)));
  // Five staff users who have each read a third of the portal's tickets, the first in a group: the
  // read marks and memberships a desk in use has, so the planner is not pricing empty tables.
  const staff = await db.execute(sql`
    insert into staff_users (email, display_name, status)
    select 'agent' || g || '@plans.example', 'Agent ' || g, 'active' from generate_series(1, 5) g
    returning id`);
  const staffIds = (staff as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
  scope = { portalId: p!.id, staffUserId: staffIds[0]!, agentId: a!.id };
  // 40,000 tickets over two companies: a tenth open, a seventh of those assigned, a few waiting.
  await db.execute(sql`
    insert into tickets (portal_id, company_id, ext_id, title, description, created_on, type_id,
      status_step_id, assigned_user_id, waiting_on_customer)
    select ${p!.id},
      (select id from companies where portal_id = ${p!.id} order by id offset (g % 2) limit 1),
      100000 + g, 'Ticket ' || g, 'Descrizione ' || g,
      timestamptz '2020-01-01' + g * interval '37 minutes',
      (select id from ticket_types where portal_id = ${p!.id} order by id limit 1),
      (select id from status_steps where portal_id = ${p!.id} and task_status = case when g % 10 = 0 then 0 else 2 end limit 1),
      case when g % 70 = 0 then ${a!.id}::int end,
      g % 50 = 0
    from generate_series(1, 40000) g`);
  // Priorities spread over the four, a due date on a third (the other orders, 0049), a running
  // service-level clock on the open fifth (0057).
  await db.execute(sql`
    update tickets set priority = ext_id % 4,
      due_at = case when ext_id % 3 = 0 then created_on + interval '5 days' end,
      sla_next_due_at = case when ext_id % 5 = 0 and ext_id % 10 = 0 then created_on + interval '1 day' end
    where portal_id = ${p!.id} and ext_id > 100000`);
  // A comment on every other ticket, all with one common word (the search's conversation branch).
  await db.execute(sql`
    insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, sender_agent_id)
    select t.portal_id, t.id, t.ext_id, 'Il tecnico risponde ' || t.ext_id, t.created_on + interval '1 hour',
      ${a!.id}::int
    from tickets t where t.portal_id = ${p!.id} and t.ext_id > 100000 and t.ext_id % 2 = 0`);
  // A rating on one closed ticket in a hundred, low on two fifths of those (the "Rated" filter, 0038).
  await db.execute(sql`
    insert into ticket_ratings (ticket_id, portal_id, rating, comment, created_at, updated_at)
    select t.id, t.portal_id, 1 + (t.ext_id / 100) % 5, '', t.created_on, t.created_on
    from tickets t where t.portal_id = ${p!.id} and t.closed and t.ext_id % 100 = 1`);
  await db.execute(sql`
    insert into staff_group_members (staff_user_id, group_id)
    select ${staffIds[0]!}, id from assignee_groups where portal_id = ${p!.id} order by id limit 1`);
  await db.execute(sql`
    insert into staff_ticket_reads (staff_user_id, ticket_id, read_at)
    select s, t.id, t.last_activity_at
    from tickets t cross join unnest(${sql.raw(`array[${staffIds.join(',')}]`)}::int[]) s
    where t.portal_id = ${p!.id} and (t.id + s) % 3 = 0`);
  // Every table, not only tickets: the planner's choice of joins for the page's names depends on the
  // small tables' statistics too, which autovacuum may or may not have gathered yet.
  await db.execute(sql`analyze`);
}, 240_000);
afterAll(async () => {
  await t?.close();
});

async function plan(view: Parameters<typeof inboxPageSql>[1], f: Partial<InboxFilters> = {}) {
  const q = dialect.sqlToQuery(inboxPageSql(scope, view, { from: null, toExclusive: null, ...f }, 50));
  return t.ctx.database.withConnection(async (raw) => {
    const r = await raw.query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, q.params);
    return r.rows.map((x) => x['QUERY PLAN']).join('\n');
  });
}

/** The part of the plan that reads tickets for the page (before the joins; `t_1` when a subquery). */
const innermost = (p: string) => p.split('\n').filter((l) => /on tickets t(_\d+)?\b/.test(l));

/**
 * The sorts in a plan with their estimated rows. A sort of the page's rows after the joins (hash joins
 * for the names do not keep the order) is cheap; a sort of the portal's tickets is what must not be.
 */
const sorts = (p: string) => [...p.matchAll(/Sort {2}\(cost=[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1]));

describe('inbox plans', () => {
  /** No sort of the portal's tickets: a sort may hold the page, or a rare search's hits. */
  const portalTickets = 40_000;
  const noPortalSort = (p: string) => {
    for (const rows of sorts(p)) expect(rows, p).toBeLessThan(portalTickets / 20);
  };

  /** The conversation's hits are taken from a capped read: never every comment hit of the portal. */
  const cappedCommentHits = (p: string) =>
    expect(p, p).toMatch(/CTE comment_hits\n\s+-> {2}Limit {2}\(cost=[\d.]+ rows=\d+/);

  it('searches a rare word through the portal-led text indexes, then sorts only the hits', async () => {
    const p = await plan('open', { q: '12345' });
    for (const read of [
      'Index Scan using tickets_number_idx',
      'Index Scan using tickets_ext_uq',
      'Index Scan on tickets_search_idx',
    ])
      expect(p, p).toContain(read);
    // Led by the portal (btree_gin, migration 0019): the index condition names it with the words.
    expect(p, p).toMatch(/Index Cond: \(\(portal_id = \d+\) AND \(search_vector @@/);
    expect(p, p).not.toMatch(/Seq Scan on tickets\b/);
    cappedCommentHits(p);
    noPortalSort(p);
  });

  it('finds a ticket by its number as agents say it through the progressive index', async () => {
    for (const q of ['0118', '2026/0118', 'T-2026-00118']) {
      const p = await plan('open', { q });
      expect(p, p).toContain('tickets_progressive_idx');
      expect(p, p).not.toMatch(/Seq Scan on tickets\b/);
      noPortalSort(p);
    }
  });

  it("finds tickets by a requester's name or e-mail and a company's name without sorting the portal", async () => {
    // ACME Contoso Srl holds half the portal's tickets: its branch walks the view in order.
    for (const q of ['Contoso', 'mario@acme', 'Giulia Blu']) {
      const p = await plan('open', { q });
      expect(p, p).toMatch(/CTE people_hits/);
      expect(p, p).not.toMatch(/Seq Scan on tickets\b/);
      noPortalSort(p);
    }
  });

  it('searches a word of every ticket by walking the view in order, stopping after the page', async () => {
    for (const q of ['ticket', 'tecnico']) {
      const p = await plan('open', { q });
      // The view's index in activity order, each row's stored vector (or its comments') compared.
      expect(p, p).toMatch(/Index Scan using tickets_inbox_idx on tickets t_\d+\b/);
      expect(p, p).not.toMatch(/Seq Scan on tickets\b/);
      cappedCommentHits(p);
      noPortalSort(p);
    }
    // The conversation's common word: the capped hits decide between the two branches (one-time
    // filters); the walk probes each ticket's comments by key.
    const p = await plan('open', { q: 'tecnico' });
    expect(p, p).toMatch(/One-Time Filter: .*< '?1000/);
    expect(p, p).toMatch(/One-Time Filter: .*>= '?1000/);
    expect(p, p).toMatch(/Index Scan using ticket_comments_ticket_idx on ticket_comments/);
  });

  it('finds by a common word of the conversation the same page as reading every hit would', async () => {
    // More hits than COMMENT_HITS_CAP: the walking branch answers; the page must be the newest.
    const db = t.ctx.database.db;
    const got = await listInbox(db, scope, 'open', { from: null, toExclusive: null, q: 'tecnico' }, 50);
    const want = (await db.execute(sql`select t.ext_id as id from tickets t
      where t.portal_id = ${scope.portalId} and not t.closed and exists (select 1 from ticket_comments c
        where c.ticket_id = t.id and c.message ilike '%tecnico%')
      order by t.last_activity_at desc, t.ext_id desc limit 51`)) as unknown as { rows: { id: number }[] };
    expect(want.rows.length).toBe(51);
    expect(got.map((r) => Number(r.id))).toEqual(want.rows.map((r) => Number(r.id)));
  });

  const cases: [Parameters<typeof inboxPageSql>[1], Partial<InboxFilters>, string][] = [
    ['open', {}, 'tickets_inbox_idx'],
    ['closed', {}, 'tickets_inbox_idx'],
    // Where most open tickets are unassigned the open index with a filter is as good: either is fine.
    ['unassigned', {}, 'tickets_inbox_(assignee_)?idx'],
    ['mine', {}, 'tickets_inbox_assignee_idx'],
    ['waiting', {}, 'tickets_inbox_waiting_idx'],
    ['closed', { rating: 'any' }, 'tickets_inbox_rated_idx'],
    ['closed', { rating: 'low' }, 'tickets_inbox_rated_idx'],
    // A company holding half the portal's tickets: its own index or the portal's filtered by it, both
    // read in order and stop after the page (the planner's choice varies with the rows' width).
    ['closed', { companyExt: 10 }, 'tickets_inbox_(company_)?idx'],
    ['open', { after: ['2021-01-01T00:00:00.000Z', 120000] }, 'tickets_inbox_idx'],
    // The other orders (issue 28, migration 0049), first pages and pages after a key.
    ['open', { sort: 'created' }, 'tickets_inbox_created_idx'],
    ['closed', { sort: 'created', after: ['2021-01-01T00:00:00.000Z', 120000] }, 'tickets_inbox_created_idx'],
    ['open', { sort: 'priority' }, 'tickets_inbox_priority_idx'],
    [
      'open',
      { sort: 'priority', after: [1, '2021-01-01T00:00:00.000Z', 120000] },
      'tickets_inbox_priority_idx',
    ],
    ['open', { sort: 'due' }, 'tickets_inbox_due_idx'],
    ['closed', { sort: 'due', after: ['infinity', 120000] }, 'tickets_inbox_due_idx'],
    // The due filters are ranges of the due order's key (a saved view counts them as well).
    ['open', { sort: 'due', due: 'overdue', now: new Date('2030-01-01T00:00:00Z') }, 'tickets_inbox_due_idx'],
    ['closed', { sort: 'due', due: 'none' }, 'tickets_inbox_due_idx'],
    // By the service level's due time (0057).
    ['open', { sort: 'sla' }, 'tickets_inbox_sla_due_idx'],
    ['open', { sort: 'sla', after: ['2021-01-01T00:00:00.000Z', 120000] }, 'tickets_inbox_sla_due_idx'],
    ['closed', { sort: 'sla', after: ['infinity', 120000] }, 'tickets_inbox_sla_due_idx'],
  ];
  for (const [view, f, index] of cases) {
    it(`${view} ${JSON.stringify(f)} reads ${index} in order`, async () => {
      const p = await plan(view, f);
      const reads = innermost(p);
      expect(reads.join('\n'), p).toMatch(new RegExp(`Index Scan using ${index} on tickets t(_\\d+)?\\b`));
      expect(p, p).not.toMatch(/Seq Scan on tickets/);
      for (const rows of sorts(p)) expect(rows, p).toBeLessThanOrEqual(51);
    });
  }

  it("counts each view of a page reading at most a thousand index entries, whatever the portal's size", async () => {
    // Every inbox page carries the counts: at 10,000 per view they cost a page 29 ms of a million-ticket
    // portal (bench/RESULTS.md), more than the page itself.
    const q = dialect.sqlToQuery(countInboxSql(scope));
    const p = await t.ctx.database.withConnection(async (raw) => {
      const r = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze) ${q.sql}`, q.params);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
    const reads = [...p.matchAll(/Scan[^\n]* on tickets t(?:_\d+)?\b[^\n]*actual time=[\d.]+ rows=(\d+)/g)];
    expect(reads.length, p).toBeGreaterThan(0);
    for (const [, rows] of reads) expect(Number(rows), p).toBeLessThanOrEqual(1000);
  });

  it('counts saved views (issue 28) each as its pages read, stopping at a thousand, in one statement', async () => {
    const none = { from: null, toExclusive: null };
    const views: [Parameters<typeof filteredCountSql>[1], InboxFilters][] = [
      ['open', { ...none, priority: 3 }],
      ['open', { ...none, due: 'overdue', now: new Date('2030-01-01T00:00:00Z') }],
      ['closed', { ...none, due: 'none' }],
      ['mine', none],
      ['closed', { ...none, rating: 'any' }],
      ['closed', { ...none, companyExt: 10 }],
      ['waiting', none],
    ];
    const counts = sql.join(
      views.map(([v, f]) => filteredCountSql(scope, v, f)),
      sql`, `,
    );
    const q = dialect.sqlToQuery(sql`select json_build_array(${counts})`);
    const p = await t.ctx.database.withConnection(async (raw) => {
      const r = await raw.query<{ 'QUERY PLAN': string }>(`explain (analyze) ${q.sql}`, q.params);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
    // A count whose rows are most of the portal's (closed without a due date, a company of half the
    // portal) may read the table in any order and stop at the cap, as the fixed views' counts may.
    const reads = [...p.matchAll(/Scan[^\n]* on tickets t(?:_\d+)?\b[^\n]*actual time=[\d.]+ rows=(\d+)/g)];
    expect(reads.length, p).toBeGreaterThanOrEqual(views.length);
    for (const [, rows] of reads) expect(Number(rows), p).toBeLessThanOrEqual(1000);
    for (const index of ['tickets_inbox_due_idx', 'tickets_inbox_rated_idx']) expect(p, p).toContain(index);
    // The open tickets of a priority: the inbox's index, or the reports' (0056), which leads with the
    // same two columns; the planner takes either.
    expect(p, p).toMatch(/Scan using tickets_(inbox_priority|report_open)_idx/);
  });

  it('counts unread tickets per view probing the read marks by key, one ticket at a time', async () => {
    const q = dialect.sqlToQuery(countUnreadSql(scope));
    const p = await t.ctx.database.withConnection(async (raw) => {
      const r = await raw.query<{ 'QUERY PLAN': string }>(`explain ${q.sql}`, q.params);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
    // Each read mark is one probe of the primary key by (staff user, ticket); never all of the user's.
    expect(p, p).toMatch(/Index Cond: \(\(staff_user_id = \d+\) AND \(ticket_id = t(_\d)?\.id\)\)/);
    expect(p, p).not.toMatch(
      /Seq Scan on staff_ticket_reads|Bitmap Index Scan on staff_ticket_reads_pkey|Anti Join/,
    );
    // Views with few rows read their index (a count that stops at the cap may read the common open or
    // closed rows of a portal in any order, which the planner prices).
    for (const index of [
      'tickets_inbox_assignee_idx',
      'tickets_inbox_waiting_idx',
      'tickets_inbox_group_idx',
    ])
      expect(p, p).toContain(index);
  });
});
