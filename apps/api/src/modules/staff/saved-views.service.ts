/**
 * The inbox's saved views (issue 28 item 5): an agent's view, filters and order under a name, with
 * its count beside it as the fixed views have theirs. A view is its owner's; a portal admin shares
 * one with every member of the portal (and may then rename or delete it). At most SAVED_VIEWS_MAX
 * personal views per agent and portal and SAVED_VIEWS_MAX shared per portal, so the counts of one
 * list are a bounded number of capped reads of the inbox's own indexes, in one statement, kept with
 * the fixed views' counts until tickets change (desk-cache.ts).
 */
import {
  INBOX_COUNT_CAP,
  SAVED_VIEWS_MAX,
  savedViewQuerySchema,
  staffErrorCodes,
  type SavedView,
  type SavedViewCreate,
  type SavedViewList,
  type SavedViewUpdate,
} from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import { AppError, notFound } from '../../platform/errors';
import { queryRows, tsParam, type Queryable } from '../../platform/sql-json';
import { deskCachesOf } from './desk-cache';
import { filteredCountSql, PRIORITY_NAMES, type InboxFilters } from './inbox.queries';
import { scopeOf } from './inbox.service';
import type { StaffPortalAccess } from './staff.access';

type Query = z.output<typeof savedViewQuerySchema>;

interface Row {
  id: number;
  name: string;
  query: unknown;
  shared: boolean;
  mine: boolean;
  owner: string;
}

const viewNotFound = () => notFound('No such view in this portal', staffErrorCodes.viewNotFound);
const tooMany = (what: string) =>
  new AppError(409, staffErrorCodes.tooManyViews, `${what} ${SAVED_VIEWS_MAX} views at most`);

/** A stored query as the schema reads it now (a view saved before a filter was dropped keeps the rest). */
function queryOf(raw: unknown): Query {
  const parsed = savedViewQuerySchema.safeParse(raw);
  return parsed.success ? parsed.data : savedViewQuerySchema.parse({});
}

/** The caller's views and the portal's shared ones: theirs first, then shared, by name. */
async function readViews(db: Queryable, a: StaffPortalAccess, id?: number): Promise<Row[]> {
  return queryRows<Row>(
    db,
    sql`select v.id, v.name, v.query, v.shared, v.owner_staff_user_id = ${a.staffUserId}::int as mine,
        u.display_name as owner
      from staff_saved_views v join staff_users u on u.id = v.owner_staff_user_id
      where v.portal_id = ${a.portal.portalId}::int
        and (v.owner_staff_user_id = ${a.staffUserId}::int or v.shared)
        ${id === undefined ? sql`` : sql`and v.id = ${id}::int`}
      order by (v.owner_staff_user_id = ${a.staffUserId}::int) desc, lower(v.name), v.id`,
  );
}

function filtersOf(q: Query, a: StaffPortalAccess, now: Date): InboxFilters {
  const range = parseDateRange({ from: q.from, to: q.to }, a.portal.timeZone);
  return {
    companyExt: q.company,
    contactExt: q.contact,
    typeExt: q.type,
    stepExt: q.step,
    groupExt: q.group,
    assigneeExt: q.assignee,
    rating: q.rating,
    priority: q.priority === undefined ? undefined : PRIORITY_NAMES.indexOf(q.priority),
    tagId: q.tag,
    due: q.due,
    now,
    from: range.from,
    toExclusive: range.toExclusive,
  };
}

/** The counts of the views, in one statement (each a capped read), kept until tickets change. */
async function countsOf(ctx: AppContext, a: StaffPortalAccess, views: Row[]): Promise<number[]> {
  if (views.length === 0) return [];
  const queries = views.map((v) => queryOf(v.query));
  const key = `saved:${a.portal.portalId}:${a.staffUserId}:${JSON.stringify(queries)}`;
  return deskCachesOf(ctx.database).counts.get(key, async () => {
    const now = ctx.clock.now();
    const scope = scopeOf(a);
    const cols = queries.map((q) => filteredCountSql(scope, q.view, filtersOf(q, a, now)));
    const rows = await queryRows<{ c: number[] | string }>(
      ctx.database.db,
      sql`select json_build_array(${sql.join(cols, sql`, `)}) as c`,
    );
    const c = rows[0]!.c;
    return (typeof c === 'string' ? (JSON.parse(c) as number[]) : c).map(Number);
  });
}

async function answer(ctx: AppContext, a: StaffPortalAccess, rows: Row[]): Promise<SavedView[]> {
  const counts = await countsOf(ctx, a, rows);
  return rows.map((r, i) => ({
    id: Number(r.id),
    name: r.name,
    query: queryOf(r.query),
    shared: r.shared,
    mine: r.mine,
    owner: r.owner,
    count: counts[i] ?? 0,
  }));
}

export async function listSavedViews(ctx: AppContext, a: StaffPortalAccess): Promise<SavedViewList> {
  const rows = await readViews(ctx.database.db, a);
  return { items: await answer(ctx, a, rows), countCap: INBOX_COUNT_CAP };
}

async function oneView(ctx: AppContext, a: StaffPortalAccess, id: number): Promise<SavedView> {
  const rows = await readViews(ctx.database.db, a, id);
  if (rows.length === 0) throw viewNotFound();
  return (await answer(ctx, a, rows))[0]!;
}

export async function createSavedView(
  ctx: AppContext,
  a: StaffPortalAccess,
  body: SavedViewCreate,
): Promise<SavedView> {
  const query = savedViewQuerySchema.parse(body.query);
  const id = await ctx.database.db.transaction(async (tx) => {
    // One agent's views are counted under a lock of their membership row, so two saves at once
    // cannot both pass the bound.
    await tx.execute(
      sql`select 1 from staff_memberships where staff_user_id = ${a.staffUserId}::int
        and portal_id = ${a.portal.portalId}::int for update`,
    );
    const [n] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from staff_saved_views
        where portal_id = ${a.portal.portalId}::int and owner_staff_user_id = ${a.staffUserId}::int
          and not shared`,
    );
    if (Number(n!.n) >= SAVED_VIEWS_MAX) throw tooMany('An agent keeps');
    const [row] = await queryRows<{ id: number }>(
      tx,
      sql`insert into staff_saved_views (portal_id, owner_staff_user_id, name, query, created_at, updated_at)
        values (${a.portal.portalId}::int, ${a.staffUserId}::int, ${body.name.trim()},
          ${JSON.stringify(query)}::jsonb, ${tsParam(ctx.clock.now())}, ${tsParam(ctx.clock.now())})
        returning id`,
    );
    return Number(row!.id);
  });
  return oneView(ctx, a, id);
}

/** The views the caller may change: their own, and (a portal admin) the portal's shared ones. */
const changeable = (a: StaffPortalAccess) =>
  a.portal.role === 'admin'
    ? sql`(owner_staff_user_id = ${a.staffUserId}::int or shared)`
    : sql`owner_staff_user_id = ${a.staffUserId}::int`;

export async function updateSavedView(
  ctx: AppContext,
  a: StaffPortalAccess,
  id: number,
  body: SavedViewUpdate,
): Promise<SavedView> {
  const query = body.query === undefined ? null : JSON.stringify(savedViewQuerySchema.parse(body.query));
  const rows = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`update staff_saved_views set name = coalesce(${body.name?.trim() ?? null}, name),
        query = coalesce(${query}::jsonb, query), updated_at = ${tsParam(ctx.clock.now())}
      where id = ${id}::int and portal_id = ${a.portal.portalId}::int and ${changeable(a)}
      returning id`,
  );
  if (rows.length === 0) throw viewNotFound();
  return oneView(ctx, a, id);
}

export async function deleteSavedView(ctx: AppContext, a: StaffPortalAccess, id: number): Promise<void> {
  const rows = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`delete from staff_saved_views
      where id = ${id}::int and portal_id = ${a.portal.portalId}::int and ${changeable(a)} returning id`,
  );
  if (rows.length === 0) throw viewNotFound();
}

/** A portal admin shares one of their views (or a shared one) with the portal, or stops sharing it. */
export async function shareSavedView(
  ctx: AppContext,
  a: StaffPortalAccess,
  id: number,
  shared: boolean,
): Promise<SavedView> {
  await ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from portals where id = ${a.portal.portalId}::int for update`);
    if (shared) {
      const [n] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from staff_saved_views
          where portal_id = ${a.portal.portalId}::int and shared and id <> ${id}::int`,
      );
      if (Number(n!.n) >= SAVED_VIEWS_MAX) throw tooMany('A portal shares');
    }
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`update staff_saved_views set shared = ${shared}, updated_at = ${tsParam(ctx.clock.now())}
        where id = ${id}::int and portal_id = ${a.portal.portalId}::int and ${changeable(a)} returning id`,
    );
    if (rows.length === 0) throw viewNotFound();
  });
  return oneView(ctx, a, id);
}
