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
/** kind: which target applies (a view's or a search's). */
export const STAFF: { name: string; path: string; kind: 'view' | 'search' }[] = [
  { name: 'view All open', path: `${S}/tickets?view=open`, kind: 'view' },
  { name: 'view Unassigned', path: `${S}/tickets?view=unassigned`, kind: 'view' },
  { name: 'view Mine', path: `${S}/tickets?view=mine`, kind: 'view' },
  { name: 'view Waiting for the customer', path: `${S}/tickets?view=waiting`, kind: 'view' },
  { name: 'view Closed', path: `${S}/tickets?view=closed`, kind: 'view' },
  { name: 'view All open, one company', path: `${S}/tickets?view=open&company=1`, kind: 'view' },
  { name: 'unread counts of every view', path: `${S}/unread`, kind: 'view' },
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
  await sqlCall('analyze tickets');
  const { token } = await call<{ token: string }>(`${b}/api/staff/auth/login`, {
    json: { email: STAFF_EMAIL, password: BENCH_PASSWORD },
  });
  return token;
}
