/**
 * The desk's lists of people, one statement each. Lists are ordered by (lower(name), ext_id) and
 * paged by keyset on that pair, which the 0014 indexes (portal or company, lower(name), ext_id) serve
 * in order; a search adds `ilike` on the trigram-indexed name (and e-mail) or an exact id. The
 * statement text varies only with which filters are present (a fixed handful of prepared statements).
 */
import { permissionFlags, type PeopleUser } from '@sportello/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { likeEscape, queryRows, type Queryable } from '../../../platform/sql-json';

/** Where the previous page stopped: the sort key of its last row. */
export interface Seek {
  name: string;
  extId: number;
}

export interface ListFilter {
  q?: string;
  after?: Seek;
  /** Rows to read (the page plus one, to know whether another follows). */
  take: number;
}

const num = (v: unknown) => Number(v);
const bool = (v: unknown) => v === true || v === 't';
const digits = (q: string) => (/^\d{1,15}$/.test(q) ? Number(q) : null);

/** The snake_case contact columns of the flags, in the contracts' order. */
const flagColumns = permissionFlags.map((f) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

export interface CompanyListRow {
  id: number;
  companyName: string;
  sortName: string;
  contacts: number;
  users: number;
}

/** The statement of a companies page (exported for the plan test). */
export function companiesSql(portalId: number, f: ListFilter): SQL {
  const where: SQL[] = [sql`c.portal_id = ${portalId}::int`];
  if (f.q) {
    const id = digits(f.q);
    const like = sql`c.company_name ilike ${`%${likeEscape(f.q)}%`}`;
    where.push(id === null ? like : sql`(${like} or c.ext_id = ${id}::bigint)`);
  }
  if (f.after)
    where.push(sql`(lower(c.company_name), c.ext_id) > (${f.after.name}::text, ${f.after.extId}::bigint)`);
  return sql`select c.ext_id, c.company_name, lower(c.company_name) as sort_name,
        (select count(*) from contacts k where k.company_id = c.id) as contacts,
        (select count(distinct uc.user_id) from contacts k join user_contacts uc on uc.contact_id = k.id
          where k.company_id = c.id) as users
      from companies c
      where ${sql.join(where, sql` and `)}
      order by lower(c.company_name), c.ext_id
      limit ${f.take}::int`;
}

export async function listCompanies(
  db: Queryable,
  portalId: number,
  f: ListFilter,
): Promise<CompanyListRow[]> {
  const rows = await queryRows<Record<string, unknown>>(db, companiesSql(portalId, f));
  return rows.map((r) => ({
    id: num(r.ext_id),
    companyName: String(r.company_name),
    sortName: String(r.sort_name),
    contacts: num(r.contacts),
    users: num(r.users),
  }));
}

/** The internal id of a company of the portal, by the back office's id. */
export async function companyRowId(
  db: Queryable,
  portalId: number,
  extId: number,
): Promise<number | undefined> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from companies where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  return rows[0] ? num(rows[0].id) : undefined;
}

export interface ContactListRow {
  contactId: number;
  companyId: number;
  companyName: string;
  referentName: string;
  sortName: string;
  email: string | null;
  phone: string | null;
  users: number;
  permissions: Record<(typeof permissionFlags)[number], boolean>;
  bouncing: boolean;
}

/** The statement of a contacts page of the portal, or of one company (exported for the plan test). */
export function contactsSql(portalId: number, companyRowIdOrAll: number | null, f: ListFilter): SQL {
  // The company's list seeks contacts_company_name_idx, the portal's contacts_portal_name_idx.
  const where: SQL[] =
    companyRowIdOrAll === null
      ? [sql`k.portal_id = ${portalId}::int`]
      : [sql`k.company_id = ${companyRowIdOrAll}::int`, sql`k.portal_id = ${portalId}::int`];
  if (f.q) {
    const id = digits(f.q);
    const pattern = `%${likeEscape(f.q)}%`;
    const like = sql`k.referent_name ilike ${pattern} or k.email ilike ${pattern}`;
    where.push(id === null ? sql`(${like})` : sql`(${like} or k.ext_id = ${id}::bigint)`);
  }
  if (f.after)
    where.push(sql`(lower(k.referent_name), k.ext_id) > (${f.after.name}::text, ${f.after.extId}::bigint)`);
  return sql`select k.ext_id, c.ext_id as company_ext, c.company_name, k.referent_name,
        lower(k.referent_name) as sort_name, k.email, k.phone,
        (select count(*) from user_contacts uc where uc.contact_id = k.id) as users,
        exists(select 1 from email_bounces b where b.portal_id = k.portal_id and b.address = lower(k.email))
          as bouncing,
        ${sql.raw(flagColumns.map((col, i) => `k.${col} as f${i}`).join(', '))}
      from contacts k join companies c on c.id = k.company_id
      where ${sql.join(where, sql` and `)}
      order by lower(k.referent_name), k.ext_id
      limit ${f.take}::int`;
}

/** Contacts of the portal, or of one company (`companyRowId`). */
export async function listContacts(
  db: Queryable,
  portalId: number,
  companyRowIdOrAll: number | null,
  f: ListFilter,
): Promise<ContactListRow[]> {
  const rows = await queryRows<Record<string, unknown>>(db, contactsSql(portalId, companyRowIdOrAll, f));
  return rows.map((r) => ({
    contactId: num(r.ext_id),
    companyId: num(r.company_ext),
    companyName: String(r.company_name),
    referentName: String(r.referent_name),
    sortName: String(r.sort_name),
    email: (r.email as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    users: num(r.users),
    bouncing: bool(r.bouncing),
    permissions: Object.fromEntries(permissionFlags.map((fl, i) => [fl, bool(r[`f${i}`])])) as Record<
      (typeof permissionFlags)[number],
      boolean
    >,
  }));
}

/** The internal id of a contact of the portal, with its name. */
export async function contactOf(
  db: Queryable,
  portalId: number,
  extId: number,
): Promise<{ rowId: number; referentName: string } | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select id, referent_name from contacts where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  const r = rows[0];
  return r && { rowId: num(r.id), referentName: String(r.referent_name) };
}

/** The users of a contact: state from password and open invitation links; last sign-in from sessions. */
export async function contactUsers(db: Queryable, contactRowId: number, now: Date): Promise<PeopleUser[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select u.user_name, u.email, u.display_name, u.password_hash is not null as active,
        exists (select 1 from user_tokens t where t.user_id = u.id and t.purpose = 'invite'
          and t.used_at is null and t.expires_at > ${now.toISOString()}::timestamptz) as pending,
        (select to_char(max(s.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          from sessions s where s.user_id = u.id) as last_sign_in
      from user_contacts uc join users u on u.id = uc.user_id
      where uc.contact_id = ${contactRowId}::int
      order by lower(u.user_name)`,
  );
  return rows.map((r) => ({
    userName: String(r.user_name),
    email: (r.email as string | null) ?? null,
    displayName: (r.display_name as string | null) ?? null,
    state: bool(r.active) ? 'active' : bool(r.pending) ? 'invited' : 'invitation_expired',
    lastSignInAt: (r.last_sign_in as string | null) ?? null,
  }));
}
