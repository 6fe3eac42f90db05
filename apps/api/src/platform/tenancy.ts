import { permissionFlags, type FlagRule, type PermissionFlag } from '@sportello/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  companies,
  companyListVersions,
  contacts,
  portals,
  sessions,
  userContacts,
  users,
} from '../db/schema';
import { findSession, liveSession, liveSessionParams, type SessionUser } from './auth';
import type { Clock } from './clock';
import { forbidden } from './errors';
import { preparedPerDb } from './prepared';

export { permissionFlags, type PermissionFlag };

/** The contact columns of the ten flags, for selects (one list: contracts/permissions.ts). */
export const permissionColumns = Object.fromEntries(permissionFlags.map((f) => [f, contacts[f]])) as {
  [F in PermissionFlag]: (typeof contacts)[F];
};

/** The flags of a row read with `permissionColumns` (a left join's null is false). */
/**
 * A flag rule of a route contract (one flag, or a list of which any suffices) against a contact's flags:
 * the access guard reads it so, and so does every reader that asks whether a contact may see a kind.
 */
export function flagAllows(flags: Record<PermissionFlag, boolean>, rule: FlagRule | undefined): boolean {
  if (rule === undefined) return true;
  return typeof rule === 'string' ? flags[rule] : rule.some((f) => flags[f]);
}

export const flagsOf = (r: { [F in PermissionFlag]: boolean | null }): Record<PermissionFlag, boolean> =>
  Object.fromEntries(permissionFlags.map((f) => [f, r[f] === true])) as Record<PermissionFlag, boolean>;

/** Who is asking, inside which portal and company: every portal query is scoped by this. */
export interface TenantContext {
  userId: number;
  portalId: number;
  portalKey: string;
  timeZone: string;
  companyId: number;
  companyName: string;
  /** Internal contact id (joins) and the back office's id (answers). */
  contactId: number;
  contactExtId: number;
  flags: Record<PermissionFlag, boolean>;
  /**
   * The company's list counter as this request saw it, read before any list statement: a list cached
   * under this number is at least as new as the data it was read with.
   */
  listVersion: number;
  /** The session of this request when it is known (file links handed out are bound to it). */
  sessionId?: number;
  /** A staff admin's "see as contact" view (platform/view-session.ts): its links are bound to it. */
  viewSessionId?: number;
}

const tenantFields = {
  portalId: portals.id,
  portalKey: portals.key,
  timeZone: portals.timeZone,
  companyId: companies.id,
  companyName: companies.companyName,
  contactId: contacts.id,
  contactExtId: contacts.extId,
  ...permissionColumns,
};
type TenantRow = { [K in keyof typeof tenantFields]: (typeof tenantFields)[K]['_']['data'] };

function toTenant(userId: number, r: TenantRow, listVersion: number): TenantContext {
  const flags = flagsOf(r);
  return {
    userId,
    portalId: r.portalId,
    portalKey: r.portalKey,
    timeZone: r.timeZone,
    companyId: r.companyId,
    companyName: r.companyName,
    contactId: r.contactId,
    contactExtId: r.contactExtId,
    flags,
    listVersion,
  };
}

export const notYourContact = () => forbidden('You do not hold this contact', 'not_your_contact');
/** A contact id from the path: digits only, a safe integer; null otherwise. */
export const extIdOf = (v: number | string) => {
  const ext = typeof v === 'number' ? v : /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(ext) ? ext : null;
};

/**
 * Resolves `{company}/{contactid}` for the signed-in user in one query, or refuses with 403: a contact
 * the user does not hold looks the same whether it exists or not.
 */
export async function resolveTenant(
  db: Db,
  userId: number,
  portalKey: string,
  contactExtId: number | string,
): Promise<TenantContext> {
  const ext = extIdOf(contactExtId);
  if (ext === null) throw notYourContact();
  const rows = await db
    .select({ ...tenantFields, listVersion: companyListVersions.version })
    .from(contacts)
    .innerJoin(portals, eq(portals.id, contacts.portalId))
    .innerJoin(companies, eq(companies.id, contacts.companyId))
    .innerJoin(userContacts, and(eq(userContacts.contactId, contacts.id), eq(userContacts.userId, userId)))
    .leftJoin(companyListVersions, eq(companyListVersions.companyId, companies.id))
    .where(and(eq(portals.key, portalKey.toLowerCase()), eq(contacts.extId, ext)))
    .limit(1);
  const r = rows[0];
  if (!r) throw notYourContact();
  return toTenant(userId, r, r.listVersion ?? 0);
}

/**
 * The session and the tenant of a `/api/{company}/{contactid}/…` request in ONE statement (the hot path
 * of every list and detail). The left joins reach at most one row: (portal key), (portal, contact ext
 * id) and (user, contact) are unique. Prepared once per connection: the server plans this seven-table
 * join once instead of on every request.
 */
const sessionTenantQuery = preparedPerDb((db) =>
  db
    .select({
      sessionId: sessions.id,
      userId: users.id,
      userName: users.userName,
      holds: userContacts.contactId,
      listVersion: companyListVersions.version,
      ...tenantFields,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(portals, eq(portals.key, sql.placeholder('portalKey')))
    .leftJoin(contacts, and(eq(contacts.portalId, portals.id), eq(contacts.extId, sql.placeholder('ext'))))
    .leftJoin(companies, eq(companies.id, contacts.companyId))
    .leftJoin(userContacts, and(eq(userContacts.contactId, contacts.id), eq(userContacts.userId, users.id)))
    .leftJoin(companyListVersions, eq(companyListVersions.companyId, companies.id))
    .where(liveSession)
    .limit(1)
    .prepare('session_tenant'),
);

/** undefined when the token is not a live session (401); `tenant: null` when the user does not hold the contact (403). */
export async function resolveSessionTenant(
  db: Db,
  clock: Clock,
  token: string,
  portalKey: string,
  contactExtId: string,
): Promise<{ user: SessionUser; tenant: TenantContext | null } | undefined> {
  const ext = extIdOf(contactExtId);
  if (ext === null) {
    const user = await findSession(db, clock, token);
    return user && { user, tenant: null };
  }
  const rows = await sessionTenantQuery(db).execute({
    ...liveSessionParams(token, clock),
    portalKey: portalKey.toLowerCase(),
    ext,
  });
  const r = rows[0];
  if (!r) return undefined;
  const user: SessionUser = { sessionId: r.sessionId, userId: r.userId, userName: r.userName };
  if (r.holds === null) return { user, tenant: null };
  // With `holds` set every left-joined row exists (user_contacts → contacts → portal, company).
  return {
    user,
    tenant: { ...toTenant(r.userId, r as TenantRow, r.listVersion ?? 0), sessionId: r.sessionId },
  };
}

export function requireFlag(ctx: TenantContext, flag: PermissionFlag): void {
  if (!ctx.flags[flag]) throw forbidden(`This contact lacks the ${flag} permission`, 'missing_permission');
}
