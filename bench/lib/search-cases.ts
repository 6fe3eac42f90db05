/** The cases of `npm run bench:search` (and `bench/cpu-cost.ts`): what a contact and an agent search and view. */
import { call } from './cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './generate';

export const P = `/api/${BENCH_PORTAL}/${BENCH_CONTACT_EXT}/search?q=`;
export const QUERIES: { name: string; q: string }[] = [
  { name: 'a word of every title ("printer")', q: 'printer' },
  { name: 'a word of every conversation ("technician")', q: 'technician' },
  { name: 'a ticket number ("T-150")', q: 'T-150' },
  { name: 'an invoice number fragment ("INV-10")', q: 'INV-10' },
  { name: 'two characters ("of")', q: 'of' },
  { name: 'a word nothing has ("zebra")', q: 'zebra' },
];

export const S = `/api/staff/portals/${BENCH_PORTAL}`;
export const STAFF_EMAIL = 'bench.agent@example.com';
/**
 * The inbox's orders and filters as the desk asks for them (issue 28), each a page of the view; `query`
 * is also what `bench/search-plans.ts --inbox` explains. sort=sla reads tickets_inbox_sla_due_idx (0057),
 * the breaching view tickets_inbox_sla_idx.
 */
export const BENCH_INBOX_CASES: { name: string; query: Record<string, string> }[] = [
  { name: 'All open, by SLA due', query: { view: 'open', sort: 'sla' } },
  { name: 'Mine, by SLA due', query: { view: 'mine', sort: 'sla' } },
  {
    name: 'Unassigned, high priority, by SLA due',
    query: { view: 'unassigned', priority: 'high', sort: 'sla' },
  },
  { name: 'Breaching soon', query: { view: 'breaching' } },
  { name: 'All open, by priority', query: { view: 'open', sort: 'priority' } },
  { name: 'All open, by due date', query: { view: 'open', sort: 'due' } },
  { name: 'All open, newest first', query: { view: 'open', sort: 'created' } },
  { name: 'All open, urgent', query: { view: 'open', priority: 'urgent' } },
  { name: 'All open, overdue', query: { view: 'open', due: 'overdue' } },
  { name: 'All open, one company, by SLA due', query: { view: 'open', company: '1', sort: 'sla' } },
  { name: 'Closed, low ratings', query: { view: 'closed', rating: 'low' } },
];

/** The saved views the bench agent keeps (SAVED_VIEWS_MAX is 20): their counts are one statement. */
export const BENCH_SAVED_VIEWS: { name: string; query: Record<string, string | number> }[] = [
  { name: 'SLA first', query: { view: 'open', sort: 'sla' } },
  { name: 'My urgent', query: { view: 'mine', priority: 'urgent' } },
  { name: 'Breaching', query: { view: 'breaching' } },
  { name: 'Waiting', query: { view: 'waiting' } },
  { name: 'Overdue', query: { view: 'open', due: 'overdue' } },
  { name: 'Company 1', query: { view: 'open', company: 1 } },
  { name: 'Unassigned high', query: { view: 'unassigned', priority: 'high', sort: 'priority' } },
  { name: 'Low ratings', query: { view: 'closed', rating: 'low' } },
  { name: 'My SLA', query: { view: 'mine', sort: 'sla' } },
  { name: 'Due dates', query: { view: 'open', due: 'set', sort: 'due' } },
];

function inboxCases(): { name: string; path: string; kind: 'view' }[] {
  return [
    ...BENCH_INBOX_CASES.map((c) => ({
      name: `view ${c.name}`,
      path: `${S}/tickets?${new URLSearchParams(c.query).toString()}`,
      kind: 'view' as const,
    })),
    { name: `saved views with their counts (${BENCH_SAVED_VIEWS.length})`, path: `${S}/views`, kind: 'view' },
  ];
}

/** kind: which target applies (a view's or a search's). */
export const STAFF: { name: string; path: string; kind: 'view' | 'search' }[] = [
  { name: 'view All open', path: `${S}/tickets?view=open`, kind: 'view' },
  { name: 'view Unassigned', path: `${S}/tickets?view=unassigned`, kind: 'view' },
  { name: 'view Mine', path: `${S}/tickets?view=mine`, kind: 'view' },
  { name: 'view Waiting for the customer', path: `${S}/tickets?view=waiting`, kind: 'view' },
  { name: 'view Closed', path: `${S}/tickets?view=closed`, kind: 'view' },
  { name: 'view All open, one company', path: `${S}/tickets?view=open&company=1`, kind: 'view' },
  { name: 'unread counts of every view', path: `${S}/unread`, kind: 'view' },
  // The agent's day (issue 28): orders, filters, service levels and saved views (BENCH_INBOX_CASES).
  ...inboxCases(),
  { name: 'search a ticket number ("T-150")', path: `${S}/tickets?view=open&q=T-150`, kind: 'search' },
  { name: 'search a ticket id ("150")', path: `${S}/tickets?view=open&q=150`, kind: 'search' },
  {
    name: 'search a word of every title ("printer")',
    path: `${S}/tickets?view=open&q=printer`,
    kind: 'search',
  },
  {
    name: 'search a word of every conversation ("technician")',
    path: `${S}/tickets?view=open&q=technician`,
    kind: 'search',
  },
  { name: 'search a word nothing has ("zebra")', path: `${S}/tickets?view=open&q=zebra`, kind: 'search' },
  // As agents say a number (issue 28): the progressive, with or without the year and the portal's form.
  { name: 'search a number as said ("0118")', path: `${S}/tickets?view=open&q=0118`, kind: 'search' },
  {
    name: 'search a number with its year ("2026/0118")',
    path: `${S}/tickets?view=open&q=2026%2F0118`,
    kind: 'search',
  },
  {
    name: 'search a number as the portal writes it ("T-2026-00118")',
    path: `${S}/tickets?view=open&q=T-2026-00118`,
    kind: 'search',
  },
  {
    name: 'search a requester\'s e-mail ("contact3@example")',
    path: `${S}/tickets?view=open&q=contact3%40example`,
    kind: 'search',
  },
  {
    name: 'search a company name ("Company 2 S.r.l.")',
    path: `${S}/tickets?view=open&q=Company%202%20S.r.l.`,
    kind: 'search',
  },
  { name: 'search as one types, grouped ("0118")', path: `${S}/search?q=0118`, kind: 'search' },
  { name: 'search as one types, grouped ("Contact 3")', path: `${S}/search?q=Contact%203`, kind: 'search' },
];

export /** An agent of the bench portal (the bench user's password), a seventh of its tickets assigned to them. */
async function staffToken(b: string): Promise<string> {
  const sqlCall = (text: string) => call(`${b}/bench/admin/sql`, { json: { text } });
  await sqlCall(`insert into staff_users (email, display_name, password_hash, password_changed_at, status)
    select '${STAFF_EMAIL}', 'Bench Agent', u.password_hash, now(), 'active' from users u
    where u.user_name = '${BENCH_USER}' on conflict do nothing`);
  await sqlCall(`insert into staff_memberships (staff_user_id, portal_id, role, agent_id)
    select s.id, p.id, 'agent', a.id from staff_users s, portals p join agents a on a.portal_id = p.id and a.ext_id = 1
    where s.email = '${STAFF_EMAIL}' and p.key = '${BENCH_PORTAL}' on conflict do nothing`);
  await sqlCall(`update tickets t set assigned_user_id = a.id from portals p join agents a on a.portal_id = p.id
    and a.ext_id = 1 where p.key = '${BENCH_PORTAL}' and t.portal_id = p.id and t.ext_id % 7 = 0
    and t.assigned_user_id is distinct from a.id`);
  // The agent's day (issue 28): priorities, due dates, service-level clocks and ratings on the portal's
  // tickets (the generator leaves them normal, undated, clockless, unrated, and every open one waiting
  // for the customer), so the orders and filters above have something to sort: a quarter of each
  // priority (by ext_id / 4, as ext_id % 4 = 3 are the closed ones), one in five due three days after
  // its creation, two in three open tickets back with the agents and with a clock (first response due
  // 8 hours after creation, "soon" an hour before), a rating of 1 to 5 on one closed ticket in two.
  const day = {
    priority: '((t.ext_id / 4) % 4)::smallint',
    due_at: "case when t.ext_id % 5 = 0 then t.created_on + interval '3 days' end",
    waiting_on_customer: 't.closed or t.ext_id % 3 = 0',
    sla_next_due_at:
      "case when not t.closed and t.ext_id % 3 <> 0 then t.created_on + interval '8 hours' end",
    sla_soon_at: "case when not t.closed and t.ext_id % 3 <> 0 then t.created_on + interval '7 hours' end",
    rating: 'case when t.closed and t.ext_id % 2 = 1 then ((t.ext_id / 2) % 5 + 1)::smallint end',
  };
  await sqlCall(`update tickets t set ${Object.entries(day)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ')}
    from portals p where p.key = '${BENCH_PORTAL}' and t.portal_id = p.id
      and (${Object.keys(day)
        .map((k) => `t.${k}`)
        .join(', ')}) is distinct from (${Object.values(day).join(', ')})`);
  await sqlCall(`insert into staff_saved_views (portal_id, owner_staff_user_id, name, query)
    select p.id, s.id, v.name, v.query from portals p, staff_users s,
      jsonb_to_recordset('${JSON.stringify(BENCH_SAVED_VIEWS).replaceAll("'", "''")}'::jsonb)
        as v(name text, query jsonb)
    where p.key = '${BENCH_PORTAL}' and s.email = '${STAFF_EMAIL}' and not exists (
      select 1 from staff_saved_views x where x.owner_staff_user_id = s.id and x.name = v.name)`);
  await sqlCall('analyze tickets');
  const { token } = await call<{ token: string }>(`${b}/api/staff/auth/login`, {
    json: { email: STAFF_EMAIL, password: BENCH_PASSWORD },
  });
  return token;
}
