/**
 * SQL of the one search: every group the caller may see in ONE statement, each group a sub-select
 * scoped exactly as its list (modules/tickets/core/visibility.ts) and cut at the group limit + 1 (to know "more").
 *
 * The statement's text depends only on its shape (which groups, a short or a long text, a number or
 * not, a contact's own tickets or the company's); every value is a named placeholder. Each shape is
 * built and rendered once per process (`queryShaped`): building the statement's dozens of fragments on
 * every search cost more of the request's time than running it.
 */
import { fillPlaceholders, sql, type Query, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { SearchKind } from '@sportello/contracts';
import { isoText, queryShaped, type Queryable } from '../../platform/sql-json';
import { companyScopeWhere, contactScopeWhere, ticketScopeWhere, type TicketScope } from '../tickets/core';
import type { TenantContext } from '../../platform/tenancy';

export interface RawHit {
  id: number;
  title: string;
  detail: string | null;
  date: string | null;
  fileId: number | null;
  fileName: string | null;
}

export interface SearchTerms {
  /** The text as typed (trimmed). */
  q: string;
  /** Which groups the caller may see (decided by the service from the list routes' flags). */
  kinds: ReadonlySet<SearchKind>;
  ticketScope: TicketScope;
  limit: number;
}

/** A value of the statement, by name: its text is the same whatever the value (typed as what it holds). */
const value = <T>(name: keyof SearchValues): T => sql.placeholder(name) as unknown as T;

/** The values a statement's placeholders take. */
interface SearchValues {
  q: string;
  number: number;
  portalId: number;
  companyId: number;
  contactId: number;
  creatorContactId: number;
  followerUserId: number;
}

/**
 * "The column contains the text", case-insensitively: `strpos(lower(col), lower(text)) > 0`, whatever
 * the text's length. It means what `col ilike '%text%'` means (on a multibyte database PostgreSQL's
 * `ilike` is `lower(col) like lower(pattern)`; strpos has no wildcards, so `%` and `_` are literal as
 * the escaped pattern's were), at a third of the cost per row (`ilike` lowers the pattern and the
 * value again for every row: 0.7 of a ticket group's 1.1 ms over a company's 400 tickets), and it is
 * no index's operator: every group reads its scope through the scope's own index (the company's, or
 * the contact's documents), stopped at the group's limit, as the tickets do. With `ilike`, a prepared
 * statement's generic plan ANDed the scope with the column's trigram index, whose entries are the
 * whole installation's: every invoice number of every portal with the trigrams of "INV-10" (1,111 of
 * 100,000 invoices, 0.45 ms; "of", no trigram at all, read the index whole: 13 ms), a cost that grows
 * with the installation instead of the company. The lowered text is the database's `lower` (the same
 * folding `ilike` applies), computed once per statement (an InitPlan).
 */
const contains = (col: SQL): SQL => sql`strpos(lower(${col}), (select lower(${value<string>('q')}))) > 0`;
/**
 * A text of one or two characters is not looked for inside titles (its words still are): a fragment
 * that short is in most titles, and the group would list them all.
 */
const isShort = (q: string) => [...q].length < 3;
const isNumber = (q: string) => /^\d{1,15}$/.test(q);

/** What the statement's text depends on. */
interface Shape {
  kinds: readonly SearchKind[];
  short: boolean;
  number: boolean;
  /** A contact's own tickets (not an administrator's company-wide scope). */
  own: boolean;
  limit: number;
}

const hit = (id: string, title: string, detail: string, date: string | null, file: string | null) =>
  `json_build_object('id', ${id}, 'title', ${title}, 'detail', ${detail}, 'date', ${
    date === null ? 'null' : isoText(date)
  }, 'fileId', ${file === null ? 'null' : `${file}.id`}, 'fileName', ${file === null ? 'null' : `${file}.name`})`;

/**
 * Tickets: the number (whole or a fragment), the id, words of title and description (full text,
 * 'simple': the portals mix three languages), a fragment of the title, words of the public
 * conversation (internal notes are the staff's and never searched). Each row is compared with its
 * stored vectors (title and description: migration 0019; the public conversation, kept on the ticket:
 * 0030), never turned into words at query time; the query is parsed once (an InitPlan).
 *
 * The hits come newest first by public activity (creation or the newest public message: an internal
 * note must neither date nor move a hit), a ticket whose number is exactly the text before them.
 * Branches, each read from an index in that order and stopped at the group's limit: the exact number
 * (the portal's number index), then the scope's open and its closed tickets (the company's index,
 * `(company, closed, public activity)`, or a contact's own: `(creator, closed, public activity)`, both
 * migration 0040, and the tickets their user follows), merged. A word most tickets have reads a few rows, not the whole
 * scope; only a text few tickets have reads every ticket of the scope.
 */
function ticketsGroup(s: Shape, scopeOf: TicketScope): SQL {
  const q = value<string>('q');
  const words = sql`(select plainto_tsquery('simple', ${q}))`;
  const conds: SQL[] = [
    contains(sql.raw('t.ticket_number')),
    sql`t.search_vector @@ ${words}`,
    // The public conversation's words, kept on the ticket (migration 0030).
    sql`t.conversation_vector @@ ${words}`,
  ];
  if (s.number) conds.push(sql`t.ext_id = ${value<number>('number')}`);
  if (!s.short) conds.push(contains(sql.raw('t.title')));
  const scope = ticketScopeWhere(scopeOf, { portalIndexed: false });
  const limit = s.limit + 1;
  const columns = sql.raw('t.id, t.ext_id, t.title, t.ticket_number, t.status_step_id, t.public_activity_at');
  // Each walk is an index range of open or closed tickets, in order; everything else, the rest of the
  // scope included, is one CASE, which the planner prices at one row in two (its default for an
  // expression it cannot read): that is what the searches people make find. Priced as what it is (text
  // matches of one row in two hundred each, the scope's own conditions), the walk looked like a read of
  // the whole scope, and the planner chose to read and sort the whole scope instead of walking the
  // index and stopping at the limit. A prepared statement's generic plan never sees the words, so the
  // estimate must not depend on them.
  const match = sql`case when ${scope} and (${sql.join(conds, sql` or `)}) then true else false end`;
  const newest = sql`order by t.public_activity_at desc, t.ext_id desc limit ${limit}`;
  // An administrator's walks are the company's (tickets_public_company_idx). A contact's scope is the
  // tickets they created and those their user follows: their own walks (tickets_public_creator_idx,
  // migration 0040) and the followed ones, instead of every ticket of the company filtered down to
  // theirs (a text few tickets have read the whole company: 400 tickets for the bench contact's 200).
  // The CASE keeps the whole scope's condition in every branch, so a branch can only narrow it.
  const own = scopeOf.creatorContactId !== null;
  const walk = (closed: boolean) =>
    sql`(select ${columns}, false as exact from tickets t
      where ${own ? sql`t.creator_contact_id = ${scopeOf.creatorContactId}` : sql`t.company_id = ${scopeOf.companyId}`}
        and t.closed = ${sql.raw(String(closed))} and ${match}
      ${newest})`;
  const followed = own
    ? sql` union all (select ${columns}, false as exact from ticket_followers fo join tickets t on t.id = fo.ticket_id
          where fo.user_id = ${scopeOf.followerUserId ?? -1} and ${match}
          ${newest})`
    : sql``;
  // A ticket both branches found (its number is the text) is kept once, as exact; the step's name is
  // looked up for the rows kept only (a join before the limit was planned as a nested loop over every
  // step of the installation).
  return sql`select ${sql.raw(hit('h.ext_id', 'h.title', "nullif(concat_ws(' · ', nullif(h.ticket_number, ''), (select ss.name from status_steps ss where ss.id = h.status_step_id)), '')", 'h.public_activity_at', null))} as j
    from (select * from (select distinct on (u.id) * from (
          (select ${columns}, true as exact from tickets t
            where t.portal_id = ${scopeOf.portalId} and lower(t.ticket_number) = lower(${q}) and ${scope}
            order by t.public_activity_at desc, t.ext_id desc limit ${limit})
          union all ${walk(false)}
          union all ${walk(true)}${followed}
        ) u order by u.id, u.exact desc) d
      order by d.exact desc, d.public_activity_at desc, d.ext_id desc limit ${limit}) h
    order by h.exact desc, h.public_activity_at desc, h.ext_id desc`;
}

function groupSql(kind: SearchKind, s: Shape): SQL {
  const limit = s.limit + 1;
  // The scopes of modules/tickets/core/visibility.ts, with placeholders for their values.
  const t = {
    portalId: value<number>('portalId'),
    companyId: value<number>('companyId'),
    contactId: value<number>('contactId'),
  };
  // Each group is read through its scope's own index (the company's, the contact's), never the portal's.
  const byScope = { portalIndexed: false };
  switch (kind) {
    case 'tickets':
      return ticketsGroup(s, {
        portalId: t.portalId,
        companyId: t.companyId,
        creatorContactId: s.own ? value<number>('creatorContactId') : null,
        followerUserId: s.own ? value<number>('followerUserId') : null,
        withReports: false,
      });
    case 'wiki':
      return sql`select ${sql.raw(hit('we.ext_id', 'we.name', 'wf.name', null, null))} as j
        from wiki_elements we join wiki_folders wf on wf.id = we.folder_id
        where ${companyScopeWhere(t, 'we', byScope)} and ${contains(sql.raw('we.name'))}
        order by lower(we.name), we.ext_id limit ${limit}`;
    case 'invoices':
      return sql`select ${sql.raw(hit('i.ext_id', 'i.document_number', 'null', 'i.invoice_date', 'f'))} as j
        from invoices i join files f on f.id = i.file_id
        where ${companyScopeWhere(t, 'i', byScope)} and ${contains(sql.raw('i.document_number'))}
        order by i.invoice_date desc, i.ext_id desc limit ${limit}`;
    case 'estimates':
      return sql`select ${sql.raw(hit('e.ext_id', 'e.estimate_number', 'e.estimate_name', 'e.estimate_creation_date', 'f'))} as j
        from estimates e join files f on f.id = e.file_id
        where ${companyScopeWhere(t, 'e', byScope)} and (${contains(sql.raw('e.estimate_number'))} or ${contains(sql.raw('e.estimate_name'))})
        order by e.estimate_creation_date desc, e.ext_id desc limit ${limit}`;
    case 'documents':
      return sql`select ${sql.raw(hit('d.ext_id', 'd.document_name', 'null', 'd.create_date', 'f'))} as j
        from documents d join files f on f.id = d.file_id
        where ${contactScopeWhere(t, 'd', byScope)} and ${contains(sql.raw('d.document_name'))}
        order by d.create_date desc, d.ext_id desc limit ${limit}`;
    case 'activityContracts':
      return sql`select ${sql.raw(hit('ac.ext_id', 'ac.name', 'null', 'ac.start', null))} as j
        from activity_contracts ac
        where ${companyScopeWhere(t, 'ac', byScope)} and ${contains(sql.raw('ac.name'))}
        order by ac.start desc, ac.ext_id desc limit ${limit}`;
    case 'serviceContracts':
      return sql`select ${sql.raw(hit('sc.ext_id', 'sc.name', 'null', 'sc.active_from', null))} as j
        from service_contracts sc
        where ${companyScopeWhere(t, 'sc', byScope)} and ${contains(sql.raw('sc.name'))}
        order by sc.active_from desc, sc.ext_id desc limit ${limit}`;
  }
}

const shapeOf = (s: SearchTerms, order: readonly SearchKind[]): Shape => ({
  kinds: order.filter((k) => s.kinds.has(k)),
  short: isShort(s.q),
  number: isNumber(s.q),
  own: s.ticketScope.creatorContactId !== null,
  limit: s.limit,
});

const shapeKey = (s: Shape) =>
  `search:${s.kinds.join(',')}:${s.short ? 'short' : 'long'}:${s.number ? 'number' : 'text'}:${s.own ? 'own' : 'all'}:${s.limit}`;

function shapeSql(s: Shape): SQL {
  const fields = s.kinds.map(
    (k) =>
      sql`${sql.raw(`'${k}'`)}::text, (select coalesce(json_agg(g.j), '[]'::json) from (${groupSql(k, s)}) g)`,
  );
  return sql`select json_build_object(${sql.join(fields, sql`, `)}) as r`;
}

function valuesOf(t: TenantContext, s: SearchTerms): SearchValues {
  return {
    q: s.q,
    number: isNumber(s.q) ? Number(s.q) : 0,
    portalId: t.portalId,
    companyId: t.companyId,
    contactId: t.contactId,
    creatorContactId: s.ticketScope.creatorContactId ?? 0,
    // A contact without a user (none in practice) follows nothing.
    followerUserId: s.ticketScope.followerUserId ?? -1,
  };
}

const dialect = new PgDialect();

/**
 * The one statement of a search with its values bound (null: no kind to search), as the API sends it;
 * for the plan tests and the bench.
 */
export function searchQuery(t: TenantContext, s: SearchTerms, order: readonly SearchKind[]): Query | null {
  const shape = shapeOf(s, order);
  if (shape.kinds.length === 0) return null;
  const q = dialect.sqlToQuery(shapeSql(shape));
  return { sql: q.sql, params: fillPlaceholders(q.params, { ...valuesOf(t, s) }) };
}

/** Each visible kind's hits (at most limit + 1), in one statement. */
export async function searchAll(
  db: Queryable,
  t: TenantContext,
  s: SearchTerms,
  order: readonly SearchKind[],
): Promise<Partial<Record<SearchKind, RawHit[]>>> {
  const shape = shapeOf(s, order);
  if (shape.kinds.length === 0) return {};
  const rows = await queryShaped<{ r: Record<string, RawHit[]> | string }>(
    db,
    shapeKey(shape),
    () => shapeSql(shape),
    { ...valuesOf(t, s) },
  );
  const r = rows[0]?.r ?? {};
  return (typeof r === 'string' ? JSON.parse(r) : r) as Partial<Record<SearchKind, RawHit[]>>;
}
