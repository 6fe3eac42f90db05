/**
 * The desk's administration of people: the lists (keyset pages by name) and "see as this contact".
 * Changes to companies, contacts and users are the single-entity service's (entities.service.ts).
 */
import {
  VIEW_AS_CODE_TTL_S,
  VIEW_AS_TTL_MIN,
  entityErrorCodes,
  peopleErrorCodes,
  type PeopleCompanyPage,
  type PeopleContactPage,
  type PeopleUser,
  type ViewAsSession,
} from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import { newToken, sha256 } from '../../../platform/auth';
import type { AppContext } from '../../../platform/context';
import { badRequest, notFound } from '../../../platform/errors';
import { queryRows } from '../../../platform/sql-json';
import { newViewToken } from '../../../platform/view-session';
import { insertAudit } from '../entities/entities.queries';
import {
  companyRowId,
  contactOf,
  contactUsers,
  listCompanies,
  listContacts,
  type ListFilter,
  type Seek,
} from './people.queries';

/** The staff admin and the portal of the route. */
export interface AdminPortal {
  staffUserId: number;
  portalId: number;
  portalKey: string;
}

interface ListQuery {
  q?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

const encodeCursor = (s: Seek) => Buffer.from(JSON.stringify([s.name, s.extId])).toString('base64url');
function decodeCursor(cursor: string): Seek {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      typeof v[0] === 'string' &&
      v[0].length <= 300 &&
      Number.isSafeInteger(v[1]) &&
      (v[1] as number) >= 0
    )
      return { name: v[0], extId: v[1] as number };
  } catch {
    // falls through
  }
  throw badRequest('This cursor was not handed out by this list', peopleErrorCodes.invalidCursor);
}

function filterOf(q: ListQuery): ListFilter {
  return {
    ...(q.q ? { q: q.q } : {}),
    ...(q.cursor ? { after: decodeCursor(q.cursor) } : {}),
    take: q.limit + 1,
  };
}

/** The page and the cursor after it (a row more than the page was read to know). */
function paged<T extends { sortName: string }>(rows: T[], limit: number, idOf: (r: T) => number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    page,
    nextCursor: rows.length > limit && last ? encodeCursor({ name: last.sortName, extId: idOf(last) }) : null,
  };
}

const missing = (what: string, id: number) =>
  notFound(`No ${what} with id ${id} in this portal`, entityErrorCodes.entityNotFound);

export async function companies(ctx: AppContext, a: AdminPortal, q: ListQuery): Promise<PeopleCompanyPage> {
  const rows = await listCompanies(ctx.database.db, a.portalId, filterOf(q));
  const { page, nextCursor } = paged(rows, q.limit, (r) => r.id);
  return { items: page.map(({ sortName: _s, ...c }) => c), nextCursor };
}

async function contactPage(
  ctx: AppContext,
  a: AdminPortal,
  company: number | null,
  q: ListQuery,
): Promise<PeopleContactPage> {
  const rows = await listContacts(ctx.database.db, a.portalId, company, filterOf(q));
  const { page, nextCursor } = paged(rows, q.limit, (r) => r.contactId);
  return { items: page.map(({ sortName: _s, ...c }) => c), nextCursor };
}

export async function companyContacts(
  ctx: AppContext,
  a: AdminPortal,
  companyExtId: number,
  q: ListQuery,
): Promise<PeopleContactPage> {
  const row = await companyRowId(ctx.database.db, a.portalId, companyExtId);
  if (row === undefined) throw missing('company', companyExtId);
  return contactPage(ctx, a, row, q);
}

export const contacts = (ctx: AppContext, a: AdminPortal, q: ListQuery) => contactPage(ctx, a, null, q);

export async function usersOfContact(
  ctx: AppContext,
  a: AdminPortal,
  contactExtId: number,
): Promise<{ items: PeopleUser[] }> {
  const c = await contactOf(ctx.database.db, a.portalId, contactExtId);
  if (!c) throw missing('contact', contactExtId);
  return { items: await contactUsers(ctx.database.db, c.rowId, ctx.clock.now()) };
}

/**
 * Opens a "see as this contact" session: a one-time code (the desk hands it to the new tab, which
 * exchanges it), the session row and its audit-log row in one transaction.
 */
export async function openViewAs(
  ctx: AppContext,
  a: AdminPortal,
  contactExtId: number,
): Promise<{ code: string; expiresAt: string }> {
  const now = ctx.clock.now();
  const code = newToken();
  const codeExpiresAt = new Date(now.getTime() + VIEW_AS_CODE_TTL_S * 1000);
  const expiresAt = new Date(now.getTime() + VIEW_AS_TTL_MIN * 60_000);
  await ctx.database.db.transaction(async (tx) => {
    const c = await contactOf(tx, a.portalId, contactExtId);
    if (!c) throw missing('contact', contactExtId);
    await queryRows(
      tx,
      sql`insert into view_sessions (code_hash, code_expires_at, staff_user_id, contact_id, created_at, expires_at)
        values (${sha256(code)}, ${codeExpiresAt.toISOString()}::timestamptz, ${a.staffUserId}::int,
          ${c.rowId}::int, ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz)`,
    );
    await insertAudit(tx, {
      portalId: a.portalId,
      occurredAt: now,
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'contact',
      entityId: String(contactExtId),
      action: 'viewed_as',
      before: null,
      after: { contactId: contactExtId, referentName: c.referentName, until: expiresAt.toISOString() },
    });
  });
  return { code, expiresAt: codeExpiresAt.toISOString() };
}

/** Exchanges a code once, within its time, for the session's token (only its hash is kept). */
export async function exchangeViewCode(ctx: AppContext, code: string): Promise<ViewAsSession> {
  const now = ctx.clock.now();
  const token = newViewToken();
  const rows = await queryRows<Record<string, unknown>>(
    ctx.database.db,
    sql`with v as (
        update view_sessions set code_hash = null, token_hash = ${sha256(token)}
        where code_hash = ${sha256(code)} and code_expires_at > ${now.toISOString()}::timestamptz
          and expires_at > ${now.toISOString()}::timestamptz
        returning staff_user_id, contact_id, expires_at)
      select to_char(v.expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as expires_at,
        p.key, k.ext_id, k.referent_name, s.display_name
      from v join contacts k on k.id = v.contact_id join portals p on p.id = k.portal_id
        join staff_users s on s.id = v.staff_user_id`,
  );
  const r = rows[0];
  if (!r) throw notFound('This view link is unknown, used or expired', peopleErrorCodes.viewCodeInvalid);
  return {
    token,
    expiresAt: String(r.expires_at),
    company: String(r.key),
    contactId: Number(r.ext_id),
    referentName: String(r.referent_name),
    viewer: String(r.display_name),
  };
}
