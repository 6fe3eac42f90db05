/**
 * The staff inbox: every ticket of every company of a portal. Each view is one range of one index of
 * migration 0008 read in (last_activity_at desc, ext_id desc) order and stopped after a page, so a page
 * costs the same at a thousand tickets and at a million:
 *
 * - open / closed:        tickets_inbox_idx          (portal_id, closed, last_activity_at, ext_id)
 * - unassigned / mine:    tickets_inbox_assignee_idx (portal_id, assigned_user_id, closed, …)
 * - groups:               tickets_inbox_group_idx    (portal_id, assigned_group_id, closed, …), one
 *                         range per group merged (the agent's few groups)
 * - waiting:              tickets_inbox_waiting_idx  partial: waiting_on_customer and not closed
 * - breaching:            tickets_inbox_sla_idx      partial: running service-level clocks, 0055
 * - company filter:       tickets_inbox_company_idx  (company_id, closed, …)
 * - rated filter:         tickets_inbox_rated_idx    partial: rated tickets (portal_id, closed, …), 0038
 * - other orders:         tickets_inbox_{created,priority,due}_idx (0049), tickets_inbox_sla_due_idx (0057)
 * The next page starts after the last row's (last_activity_at, ext_id): a keyset, no OFFSET. Joins for
 * names run on the page's rows only. Counts read at most INBOX_COUNT_CAP index entries per view.
 * Search: the first page of each way of finding a ticket (number, id, words of title and description,
 * of the conversation, a title fragment of 3+ characters), merged (searchPageSql): the portal-led GIN
 * indexes of migration 0019 (stored vectors, trigrams) for rare words, the view's index for common ones.
 */
import {
  INBOX_COUNT_CAP,
  type CommentChannelValue,
  type InboxDueFilter,
  type InboxSort,
  type InboxView,
  type Presence,
  type StaffTimelineEntry,
} from '@sportello/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { isoText, queryRows, tsParam, type Queryable } from '../../platform/sql-json';
import { timelineJson } from '../tickets/core';

export interface InboxScope {
  portalId: number;
  staffUserId: number;
  /** The caller's agent row in this portal (tickets name it as assignee); null: "mine" is empty. */
  agentId: number | null;
  /** "Now" of the breaching view (the request's clock). */
  now?: Date | undefined;
}

export interface InboxFilters {
  companyExt?: number | undefined;
  contactExt?: number | undefined;
  typeExt?: number | undefined;
  stepExt?: number | undefined;
  groupExt?: number | undefined;
  /** 0: unassigned. */
  assigneeExt?: number | undefined;
  from: Date | null;
  toExclusive: Date | null;
  /** Rated tickets: any rating, or at or below the portal's low-rating threshold. */
  rating?: 'any' | 'low' | undefined;
  /** 0 low … 3 urgent. */
  priority?: number | undefined;
  /** A ticket tag's row id. */
  tagId?: number | undefined;
  due?: InboxDueFilter | undefined;
  /** "Now" of the overdue filter. */
  now?: Date | undefined;
  q?: string | undefined;
  sort?: InboxSort | undefined;
  /** The last row's key in the page's order (`sortKeyOf`): the next page starts after it. */
  after?: SortKey | undefined;
}

/** A row's key in an order: its values, each a timestamp (ISO text, or 'infinity') or an integer. */
export type SortKey = (string | number)[];

interface Order {
  /** The key's expressions over `t`, most significant first. */
  keys: { expr: string; type: 'timestamptz' | 'bigint' | 'int' }[];
  /** Every key descending (newest, most urgent first), or every key ascending (soonest due first). */
  desc: boolean;
}

/**
 * The inbox's orders (issue 28). Each is one index's order (migrations 0008 and 0049) for the
 * open/closed views, so a page is a range read in order and stopped after it; the keyset compares
 * the whole key as a row.
 */
export const ORDERS: Record<InboxSort, Order> = {
  activity: {
    keys: [
      { expr: 't.last_activity_at', type: 'timestamptz' },
      { expr: 't.ext_id', type: 'bigint' },
    ],
    desc: true,
  },
  created: {
    keys: [
      { expr: 't.created_on', type: 'timestamptz' },
      { expr: 't.ext_id', type: 'bigint' },
    ],
    desc: true,
  },
  priority: {
    keys: [
      { expr: 't.priority', type: 'int' },
      { expr: 't.last_activity_at', type: 'timestamptz' },
      { expr: 't.ext_id', type: 'bigint' },
    ],
    desc: true,
  },
  due: {
    keys: [
      { expr: "coalesce(t.due_at, 'infinity'::timestamptz)", type: 'timestamptz' },
      { expr: 't.ext_id', type: 'bigint' },
    ],
    desc: false,
  },
  // The pending service-level target's due time (0057: tickets_inbox_sla_due_idx), clockless last.
  sla: {
    keys: [
      { expr: "coalesce(t.sla_next_due_at, 'infinity'::timestamptz)", type: 'timestamptz' },
      { expr: 't.ext_id', type: 'bigint' },
    ],
    desc: false,
  },
};

/** The ORDER BY of an order, over `t` (or over the key columns k0, k1… of a search's branches). */
function orderBy(sort: InboxSort, byColumns = false): SQL {
  const o = ORDERS[sort];
  const dir = o.desc ? 'desc' : 'asc';
  return sql.raw(`order by ${o.keys.map((k, i) => `${byColumns ? `u.k${i}` : k.expr} ${dir}`).join(', ')}`);
}

/** The rows after `key` in the order. */
function afterCondition(sort: InboxSort, key: SortKey): SQL {
  const o = ORDERS[sort];
  const left = sql.raw(`(${o.keys.map((k) => k.expr).join(', ')})`);
  const right = sql.join(
    o.keys.map((k, i) => sql`${key[i]}::${sql.raw(k.type)}`),
    sql`, `,
  );
  return o.desc ? sql`${left} < (${right})` : sql`${left} > (${right})`;
}

/** Whether a decoded cursor's values fit the order's key (types, not their meaning). */
export function keyFits(sort: InboxSort, key: unknown[]): key is SortKey {
  const o = ORDERS[sort];
  return (
    key.length === o.keys.length &&
    o.keys.every((k, i) =>
      k.type === 'timestamptz'
        ? typeof key[i] === 'string' &&
          (key[i] === 'infinity' || !Number.isNaN(new Date(key[i] as string).getTime()))
        : Number.isSafeInteger(key[i]),
    )
  );
}

/** The key of an inbox item (as answered) in an order. */
export function sortKeyOf(sort: InboxSort, item: RawInboxItem): SortKey {
  switch (sort) {
    case 'activity':
      return [item.lastActivityAt, item.id];
    case 'created':
      return [item.createdOn as string, item.id];
    case 'priority':
      return [
        PRIORITY_NAMES.indexOf(item.priority as (typeof PRIORITY_NAMES)[number]),
        item.lastActivityAt,
        item.id,
      ];
    case 'due':
      return [(item.dueAt as string | null) ?? 'infinity', item.id];
    case 'sla':
      return [(item.sla as { nextDueAt: string | null } | null)?.nextDueAt ?? 'infinity', item.id];
  }
}

export const PRIORITY_NAMES = ['low', 'normal', 'high', 'urgent'] as const;

/** The condition of a view (the table is aliased `t`). */
export function viewCondition(view: InboxView, s: InboxScope): SQL {
  switch (view) {
    case 'unassigned':
      return sql`not t.closed and t.assigned_user_id is null`;
    case 'mine':
      return s.agentId === null ? sql`false` : sql`not t.closed and t.assigned_user_id = ${s.agentId}`;
    case 'groups':
      return sql`not t.closed and t.assigned_group_id in (
        select gm.group_id from staff_group_members gm where gm.staff_user_id = ${s.staffUserId})`;
    case 'waiting':
      return sql`t.waiting_on_customer and not t.closed`;
    case 'breaching':
      // tickets_inbox_sla_idx's predicate written out, and a range of its key.
      return sql`t.sla_soon_at is not null and not t.closed and not t.waiting_on_customer
        and t.sla_soon_at <= ${tsParam(s.now ?? new Date())}`;
    case 'open':
      return sql`not t.closed`;
    case 'closed':
      return sql`t.closed`;
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Comment hits a search takes from the portal-led index before it walks the view instead: fewer are
 * joined and sorted (a rare word), more mean a common word, whose newest tickets are found sooner by
 * reading the view in order and looking at each ticket's comments.
 */
export const COMMENT_HITS_CAP = 1000;

/**
 * A ticket's number as agents say it: "118", "0118", "#118", "2026/0118", "T-2026-00118" — the
 * progressive of the portal's numbering, with the year when one is said. Null for anything else.
 */
export function ticketNumberOf(q: string): { year: string | null; progressive: number } | null {
  const m = /^(?:[a-z]{1,3}\s*[-/#]?\s*|#)?(?:(\d{4})\s*[-/.]\s*)?0*(\d{1,9})$/i.exec(q.trim());
  if (!m) return null;
  const progressive = Number(m[2]);
  return progressive > 0 ? { year: m[1] ?? null, progressive } : null;
}

/** Whether a search may name a person or a company: three characters at least, not a number. */
const mayNameSomeone = (q: string) => [...q].length >= 3 && ticketNumberOf(q) === null;

/**
 * One condition per way a search finds a ticket (number, id, words, conversation, title fragment,
 * people), and whether the branch is a requester's: its contacts name the portal by themselves.
 */
function searchMatches(q: string, words: SQL): { m: SQL; byContact?: true }[] {
  const m: SQL[] = [
    sql`lower(t.ticket_number) = ${q.toLowerCase()}`,
    sql`t.search_vector @@ ${words}`,
    // The conversation, by one of two exclusive branches (each a one-time filter on the capped hits).
    sql`(select count(*) from comment_hits) < ${COMMENT_HITS_CAP}
      and t.id in (select h.ticket_id from comment_hits h)`,
    // offset 0 keeps this a test of each ticket walked in order (not a join of every hit).
    sql`(select count(*) from comment_hits) >= ${COMMENT_HITS_CAP}
      and exists (select 1 from ticket_comments c where c.ticket_id = t.id and c.search_vector @@ ${words} offset 0)`,
  ];
  if (/^\d{1,15}$/.test(q)) m.push(sql`t.ext_id = ${Number(q)}`);
  const number = ticketNumberOf(q);
  // The year said is in the number the ticket shows (the back office's and the portal's alike).
  if (number)
    m.push(
      number.year === null
        ? sql`t.internal_annual_progressive = ${number.progressive}`
        : sql`t.internal_annual_progressive = ${number.progressive} and strpos(t.ticket_number, ${number.year}) > 0`,
    );
  if ([...q].length >= 3) m.push(sql`t.title ilike ${`%${escapeLike(q)}%`}`);
  const branches: { m: SQL; byContact?: true }[] = m.map((c) => ({ m: c }));
  if (mayNameSomeone(q)) {
    // The requester by name or e-mail, the company by name (people_hits, company_hits: capped reads
    // of the portal's own contacts and companies).
    branches.push({ m: sql`t.creator_contact_id in (select h.id from people_hits h)`, byContact: true });
    branches.push({ m: sql`t.company_id in (select h.id from company_hits h)` });
  }
  return branches;
}

/** Contacts and companies a search names: a fragment of a name or an e-mail, at most this many each. */
export const PEOPLE_HITS_CAP = 200;

/** The CTEs people_hits and company_hits of a search that may name someone (else empty ones). */
function peopleHitsSql(portalId: number, q: string): SQL {
  if (!mayNameSomeone(q)) return sql``;
  const pattern = `%${escapeLike(q)}%`;
  return sql`, people_hits as materialized (select x.id from contacts x where x.portal_id = ${portalId}
      and (x.referent_name ilike ${pattern} or x.email ilike ${pattern}) limit ${PEOPLE_HITS_CAP}),
    company_hits as materialized (select x.id from companies x where x.portal_id = ${portalId}
      and x.company_name ilike ${pattern} limit ${PEOPLE_HITS_CAP})`;
}

function filterConditions(s: InboxScope, f: InboxFilters): SQL[] {
  const p = s.portalId;
  const c: SQL[] = [];
  if (f.companyExt !== undefined)
    c.push(
      sql`t.company_id = (select x.id from companies x where x.portal_id = ${p} and x.ext_id = ${f.companyExt})`,
    );
  if (f.contactExt !== undefined)
    c.push(
      sql`t.creator_contact_id = (select x.id from contacts x where x.portal_id = ${p} and x.ext_id = ${f.contactExt})`,
    );
  if (f.typeExt !== undefined)
    c.push(
      sql`t.type_id = (select x.id from ticket_types x where x.portal_id = ${p} and x.ext_id = ${f.typeExt})`,
    );
  if (f.stepExt !== undefined)
    c.push(
      sql`t.status_step_id = (select x.id from status_steps x where x.portal_id = ${p} and x.ext_id = ${f.stepExt})`,
    );
  if (f.groupExt !== undefined)
    c.push(
      sql`t.assigned_group_id = (select x.id from assignee_groups x where x.portal_id = ${p} and x.ext_id = ${f.groupExt})`,
    );
  if (f.assigneeExt === 0) c.push(sql`t.assigned_user_id is null`);
  else if (f.assigneeExt !== undefined)
    c.push(
      sql`t.assigned_user_id = (select x.id from agents x where x.portal_id = ${p} and x.ext_id = ${f.assigneeExt})`,
    );
  // `is not null` written out in both, so the partial index of rated tickets is the planner's to read.
  if (f.rating === 'any') c.push(sql`t.rating is not null`);
  else if (f.rating === 'low')
    c.push(
      sql`t.rating is not null and t.rating <= (select x.low_rating_threshold from portals x where x.id = ${p})`,
    );
  if (f.priority !== undefined) c.push(sql`t.priority = ${f.priority}`);
  if (f.tagId !== undefined)
    c.push(sql`t.id in (select l.ticket_id from ticket_tag_links l where l.tag_id = ${f.tagId})`);
  // Written as the due order's key (a missing date is 'infinity'), so each is a range of the due index
  // (tickets_inbox_due_idx): `t.due_at < now` read every open ticket of the portal to find none.
  const dueKey = sql`coalesce(t.due_at, 'infinity'::timestamptz)`;
  if (f.due === 'overdue') c.push(sql`not t.closed and ${dueKey} < ${tsParam(f.now ?? new Date())}`);
  else if (f.due === 'set') c.push(sql`${dueKey} < 'infinity'::timestamptz`);
  else if (f.due === 'none') c.push(sql`${dueKey} = 'infinity'::timestamptz`);
  if (f.from) c.push(sql`t.created_on >= ${tsParam(f.from)}`);
  if (f.toExclusive) c.push(sql`t.created_on < ${tsParam(f.toExclusive)}`);
  if (f.after) c.push(afterCondition(f.sort ?? 'activity', f.after));
  return c;
}

export interface RawInboxItem {
  id: number;
  lastActivityAt: string;
  [k: string]: unknown;
}

/**
 * A ticket of the inbox as JSON. The names come from correlated sub-selects, one primary-key probe per
 * row, rather than joins: joined, the planner priced 51 probes above a scan of the portal-wide tables
 * and hashed every contact and company of the installation for each page, several times the probes'
 * cost (bench/RESULTS.md, "Figures moved out of the code").
 */
const itemJson = (staffUserId: number) => sql`json_build_object(
    'id', t.ext_id,
    'ticketNumber', t.ticket_number,
    'title', t.title,
    'company', (select json_build_object('id', co.ext_id, 'name', co.company_name)
      from companies co where co.id = t.company_id),
    'contact', (select json_build_object('id', cc.ext_id, 'referentName', cc.referent_name)
      from contacts cc where cc.id = t.creator_contact_id),
    'type', (select json_build_object('id', tt.ext_id, 'name', tt.name, 'color', tt.color)
      from ticket_types tt where tt.id = t.type_id),
    'step', (select json_build_object('id', ss.ext_id, 'name', ss.name, 'taskStatus', ss.task_status)
      from status_steps ss where ss.id = t.status_step_id),
    'group', (select json_build_object('id', ag.ext_id, 'name', ag.name)
      from assignee_groups ag where ag.id = t.assigned_group_id),
    'assignee', (select json_build_object('id', au.ext_id, 'displayName', au.display_name)
      from agents au where au.id = t.assigned_user_id),
    'createdOn', ${sql.raw(isoText('t.created_on'))},
    'lastActivityAt', ${sql.raw(isoText('t.last_activity_at'))},
    'waitingOnCustomer', t.waiting_on_customer,
    'closed', t.closed,
    'rating', t.rating,
    'priority', (array['low', 'normal', 'high', 'urgent'])[t.priority + 1],
    'dueAt', ${sql.raw(isoText('t.due_at'))},
    'sla', case when t.first_response_due_at is null and t.resolution_due_at is null then null
      else json_build_object(
        'firstResponseDueAt', ${sql.raw(isoText('t.first_response_due_at'))},
        'firstRespondedAt', ${sql.raw(isoText('t.first_responded_at'))},
        'resolutionDueAt', ${sql.raw(isoText('t.resolution_due_at'))},
        'nextDueAt', ${sql.raw(isoText('t.sla_next_due_at'))},
        'soonAt', ${sql.raw(isoText('t.sla_soon_at'))},
        'paused', t.waiting_on_customer and not t.closed) end,
    'tags', (select coalesce(json_agg(json_build_object('id', tg.id, 'name', tg.name)
        order by lower(tg.name), tg.id), '[]'::json)
      from ticket_tag_links tl join ticket_tags tg on tg.id = tl.tag_id where tl.ticket_id = t.id),
    'unread', not exists (select 1 from staff_ticket_reads r
      where r.staff_user_id = ${staffUserId} and r.ticket_id = t.id and r.read_at >= t.last_activity_at)
  )`;

const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/**
 * A search's page: the first `n` tickets of each way of finding them (each a branch the planner plans
 * on its own: a common word walks the view's index in order and stops after `n`, a rare one reads the
 * portal-led GIN index and sorts its few hits), merged and cut to `n`. Whatever the first `n` overall
 * are, each is among the first `n` of a branch that finds it.
 */
function searchPageSql(rest: SQL[], portalId: number, q: string, n: number, sort: InboxSort): SQL {
  // Compared with the stored vectors of migration 0019. Written out (not a sub-select) so that the
  // planner sees the words and prices each branch by how common they are (see listInbox).
  const words = sql`plainto_tsquery('simple', ${q})`;
  const keys = sql.raw(ORDERS[sort].keys.map((k, i) => `${k.expr} as k${i}`).join(', '));
  const branches = searchMatches(q, words).map(({ m, byContact }) => {
    // The requesters' branch keeps the portal as a filter (`+ 0`), reading each contact's tickets by
    // the contact: as an index condition the planner ANDed the portal's whole entry of the words' GIN
    // index (30,000 at a million tickets) into each contact's few, 1.2 ms a contact (bench/RESULTS.md,
    // session 18). The companies' branch keeps it: a big company's is best walked in the view's order.
    const portal = byContact ? sql`t.portal_id + 0 = ${portalId}` : sql`t.portal_id = ${portalId}`;
    return sql`(select t.id, ${keys} from tickets t where ${sql.join([portal, ...rest, m], sql` and `)}
      ${orderBy(sort)} limit ${n})`;
  });
  return sql`with comment_hits as materialized (select c.ticket_id from ticket_comments c
      where c.portal_id = ${portalId} and c.search_vector @@ ${words} limit ${COMMENT_HITS_CAP})
      ${peopleHitsSql(portalId, q)}
    select t.* from (${sql.join(branches, sql` union `)}) u join tickets t on t.id = u.id
    ${orderBy(sort, true)} limit ${n}`;
}

/** The statement of one page (limit + 1 rows, so the caller knows whether there is a next one). */
export function inboxPageSql(s: InboxScope, view: InboxView, f: InboxFilters, limit: number): SQL {
  const rest = [viewCondition(view, s), ...filterConditions(s, f)];
  const sort = f.sort ?? 'activity';
  const page = f.q
    ? searchPageSql(rest, s.portalId, f.q, limit + 1, sort)
    : sql`select * from tickets t where ${sql.join([sql`t.portal_id = ${s.portalId}`, ...rest], sql` and `)}
      ${orderBy(sort)} limit ${limit + 1}`;
  return sql`select ${itemJson(s.staffUserId)} as item
      from (${page}) t
      ${orderBy(sort)}`;
}

export async function listInbox(
  db: Queryable,
  s: InboxScope,
  view: InboxView,
  f: InboxFilters,
  limit: number,
): Promise<RawInboxItem[]> {
  const statement = inboxPageSql(s, view, f, limit);
  // A search is planned for its own words every time (an unnamed statement): a prepared statement
  // soon runs one generic plan for every text, priced for an average word, which reads and sorts
  // every hit of a word most tickets have instead of walking the view's index (97 ms instead of 2 at
  // a million tickets). The planning costs less than a millisecond.
  const rows = f.q
    ? ((await db.execute(statement)) as unknown as { rows: { item: RawInboxItem | string }[] }).rows
    : await queryRows<{ item: RawInboxItem | string }>(db, statement);
  return rows.map((r) => parse(r.item));
}

const VIEWS: InboxView[] = ['unassigned', 'mine', 'groups', 'waiting', 'breaching', 'open', 'closed'];

/** Tickets per view in the whole portal, each read stopping at INBOX_COUNT_CAP. One statement. */
export function countInboxSql(s: InboxScope): SQL {
  const cols = VIEWS.map(
    (v) => sql`(select count(*)::int from (select 1 from tickets t
      where t.portal_id = ${s.portalId} and ${viewCondition(v, s)} limit ${INBOX_COUNT_CAP}) x) as ${sql.identifier(v)}`,
  );
  return sql`select ${sql.join(cols, sql`, `)}`;
}

/**
 * The count of a saved view (issue 28 item 5) as a scalar sub-select: its view and filters as its
 * pages read them (the same conditions, so the same indexes), stopping at INBOX_COUNT_CAP.
 */
export function filteredCountSql(s: InboxScope, view: InboxView, f: InboxFilters): SQL {
  const conds = [
    sql`t.portal_id = ${s.portalId}`,
    viewCondition(view, s),
    ...filterConditions(s, { ...f, after: undefined }),
  ];
  return sql`(select count(*)::int from (select 1 from tickets t where ${sql.join(conds, sql` and `)}
    limit ${INBOX_COUNT_CAP}) x)`;
}

export async function countInbox(db: Queryable, s: InboxScope): Promise<Record<InboxView, number>> {
  const rows = await queryRows<Record<InboxView, number>>(db, countInboxSql(s));
  return rows[0]!;
}

/** A file of a ticket or comment; the service signs `fileId` into a URL. */
export interface RawStaffAttachment {
  id: number;
  name: string;
  fileId: number;
}

export interface RawStaffDetail extends RawInboxItem {
  description: string;
  nextPlannedActivityInfo: string | null;
  openedBy: string | null;
  attachments: RawStaffAttachment[];
  comments: {
    id: number;
    message: string;
    creationDate: string;
    internal: boolean;
    author: { kind: 'agent' | 'contact'; name: string };
    attachments: RawStaffAttachment[];
    channel: CommentChannelValue;
    /** The e-mail it came in, as received. */
    originalEmail: RawStaffAttachment | null;
    senderUnverified: boolean;
  }[];
  /** The e-mail that opened the ticket (an `inbound_emails` row done with no comment). */
  openingEmail: { originalEmail: RawStaffAttachment | null; senderUnverified: boolean } | null;
  timeline: StaffTimelineEntry[];
  presence: Presence[];
  rated: { rating: number; comment: string; ratedAt: string; by: string; low: boolean } | null;
}

const attachmentsJson = (where: string) => `(
  select coalesce(jsonb_agg(jsonb_build_object('id', a.ext_id, 'name', a.name, 'fileId', a.file_id)
    order by a.ext_id), '[]'::jsonb)
  from ticket_attachments a where ${where})`;

/** The comments of ticket `t` as the staff see them (notes included), oldest first. */
export const staffCommentsJson = (where: string) => `(select coalesce(jsonb_agg(jsonb_build_object(
    'id', cm.ext_id,
    'message', cm.message,
    'creationDate', ${isoText('cm.creation_date')},
    'internal', cm.internal,
    'author', case when cm.sender_staff_id is not null or cm.sender_agent_id is not null
      then jsonb_build_object('kind', 'agent', 'name', coalesce(su.display_name, sa.display_name, ''))
      else jsonb_build_object('kind', 'contact', 'name', coalesce(sc.referent_name, wu.user_name, '')) end,
    'attachments', ${attachmentsJson('a.comment_id = cm.id')},
    'channel', cm.channel,
    'originalEmail', case when cm.original_email_file_id is null then null else jsonb_build_object(
      'id', 0, 'name', oe.name, 'fileId', oe.id) end,
    'senderUnverified', exists(select 1 from inbound_emails ie where ie.comment_id = cm.id and ie.auth_failed)
  ) order by cm.creation_date, cm.ext_id), '[]'::jsonb)
  from ticket_comments cm
  left join staff_users su on su.id = cm.sender_staff_id
  left join agents sa on sa.id = cm.sender_agent_id
  left join contacts sc on sc.id = cm.sender_contact_id
  left join users wu on wu.id = cm.sender_user_id
  left join files oe on oe.id = cm.original_email_file_id
  where ${where})`;

/** Other staff users' live presence on ticket `t` (never the caller's own). */
const presenceJson = (staffUserId: number, now: Date) => sql`(select coalesce(jsonb_agg(jsonb_build_object(
    'staffUserId', u.id, 'displayName', u.display_name, 'state', pr.state,
    'until', ${sql.raw(isoText('pr.expires_at'))}) order by u.display_name, u.id), '[]'::jsonb)
  from staff_presence pr join staff_users u on u.id = pr.staff_user_id
  where pr.ticket_id = t.id and pr.staff_user_id <> ${staffUserId} and pr.expires_at > ${tsParam(now)})`;

/**
 * A ticket of the portal with every comment (internal notes included: this is the staff side), its
 * files, its whole timeline and who else has it open.
 */
export async function getStaffTicket(
  db: Queryable,
  s: InboxScope,
  ticketExtId: number,
  now: Date,
): Promise<{ internalId: number; item: RawStaffDetail } | undefined> {
  const rows = await queryRows<{ internal_id: number; item: RawStaffDetail | string }>(
    db,
    sql`select t.id as internal_id, (${itemJson(s.staffUserId)}::jsonb || jsonb_build_object(
        'description', t.description,
        'nextPlannedActivityInfo', t.next_planned_activity_info,
        'openedBy', (select ou.display_name from staff_users ou where ou.id = t.opened_by_staff_id),
        'attachments', ${sql.raw(attachmentsJson('a.ticket_id = t.id and a.comment_id is null'))},
        'comments', ${sql.raw(staffCommentsJson('cm.ticket_id = t.id'))},
        'openingEmail', (select jsonb_build_object('senderUnverified', ie.auth_failed,
            'originalEmail', case when f.id is null then null
              else jsonb_build_object('id', 0, 'name', f.name, 'fileId', f.id) end)
          from inbound_emails ie left join files f on f.id = ie.raw_file_id
          where ie.ticket_id = t.id and ie.comment_id is null and ie.status = 'done'
          order by ie.id limit 1),
        'timeline', ${sql.raw(timelineJson(false))}::jsonb,
        'presence', ${presenceJson(s.staffUserId, now)},
        'rated', (select jsonb_build_object('rating', r.rating, 'comment', r.comment,
            'ratedAt', ${sql.raw(isoText('r.updated_at'))}, 'by', coalesce(rc.referent_name, ''),
            'low', r.rating <= p.low_rating_threshold)
          from ticket_ratings r join portals p on p.id = r.portal_id
          left join contacts rc on rc.id = r.contact_id where r.ticket_id = t.id)
      )) as item
      from tickets t
      where t.portal_id = ${s.portalId} and t.ext_id = ${ticketExtId}`,
  );
  const r = rows[0];
  return r ? { internalId: r.internal_id, item: parse(r.item) } : undefined;
}

/**
 * Contacts (by a fragment of name or e-mail) and companies (of name) of the portal, a few of each, for
 * the desk's search as one types. The portal's condition is written `portal_id + 0` so the planner
 * reads the trigram indexes of migration 0014 for the fragment, not every row of a big portal.
 */
export async function findPeople(
  db: Queryable,
  portalId: number,
  q: string,
  limit: number,
): Promise<{ contacts: unknown[]; companies: unknown[] }> {
  if ([...q].length < 3) return { contacts: [], companies: [] };
  const pattern = `%${escapeLike(q)}%`;
  const rows = await queryRows<{ contacts: unknown[] | string; companies: unknown[] | string }>(
    db,
    sql`select
      (select coalesce(json_agg(x), '[]'::json) from (select json_build_object('id', c.ext_id,
          'referentName', c.referent_name, 'email', c.email,
          'company', json_build_object('id', co.ext_id, 'name', co.company_name)) as x
        from contacts c join companies co on co.id = c.company_id
        where c.portal_id + 0 = ${portalId} and (c.referent_name ilike ${pattern} or c.email ilike ${pattern})
        order by lower(c.referent_name), c.ext_id limit ${limit}) y) as contacts,
      (select coalesce(json_agg(x), '[]'::json) from (select json_build_object('id', co.ext_id,
          'name', co.company_name) as x
        from companies co where co.portal_id + 0 = ${portalId} and co.company_name ilike ${pattern}
        order by lower(co.company_name), co.ext_id limit ${limit}) y) as companies`,
  );
  const r = rows[0]!;
  return { contacts: parse(r.contacts), companies: parse(r.companies) };
}
