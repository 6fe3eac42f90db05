/**
 * "See as this contact" sessions (issue 14 item 1; opened by modules/admin/people). A staff admin's
 * token that the customer guards accept as the one contact it was opened for, for READING only:
 * the access hook refuses every other method with 403 `read_only_session`, whatever the route, so a
 * customer route added later is covered without a word of its own.
 *
 * The token has its own shape (`view.` + random), so the guards look in `view_sessions` only for
 * such tokens and the ordinary sessions' hot path is untouched. The session is no user's: it resolves
 * to user id 0 (no user row has it), so nothing per-user (read marks, notifications, preferences) is
 * read or written as someone else. It ends at its expiry, or when the staff admin loses the admin role
 * or the contact is deleted (the join finds nothing).
 */
import {
  authRoutes,
  peopleErrorCodes,
  permissionFlags,
  type Access,
  type PermissionFlag,
} from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { invalidSession, newToken, rememberUser, sha256, type SessionUser } from './auth';
import type { AppContext } from './context';
import { forbidden } from './errors';
import { queryRows, type Queryable } from './sql-json';
import { extIdOf, flagAllows, flagsOf, notYourContact, type TenantContext } from './tenancy';

const PREFIX = 'view.';
export const isViewToken = (token: string | undefined): token is string =>
  token !== undefined && token.startsWith(PREFIX);
export const newViewToken = () => PREFIX + newToken();

/** The customer guard kinds a view token stands in for. */
const CUSTOMER_GUARDS = new Set<string>(['user', 'portal', 'tenant', 'contact']);
export const isCustomerGuard = (a: Access) => CUSTOMER_GUARDS.has(a.guard);

/** Methods a read-only session may use. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
export function refuseWrites(method: string): void {
  if (!READS.has(method.toUpperCase()))
    throw forbidden(
      'This is a read-only view of the portal: nothing can be changed with it',
      peopleErrorCodes.readOnlySession,
    );
}

/** The contact a live view session shows, and who looks. */
export interface ViewAs {
  viewSessionId: number;
  staffUserId: number;
  viewer: string;
  expiresAt: Date;
  tenant: TenantContext;
}

const flagSql = (f: PermissionFlag) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export async function findViewSession(db: Queryable, token: string, now: Date): Promise<ViewAs | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select v.id, v.staff_user_id, s.display_name, v.expires_at,
        p.id as portal_id, p.key as portal_key, p.time_zone, co.id as company_id, co.company_name,
        k.id as contact_id, k.ext_id as contact_ext, coalesce(lv.version, 0) as list_version,
        ${sql.raw(permissionFlags.map((f) => `k.${flagSql(f)} as "${f}"`).join(', '))}
      from view_sessions v
      join staff_users s on s.id = v.staff_user_id and s.status = 'active'
      join contacts k on k.id = v.contact_id
      join staff_memberships m on m.staff_user_id = v.staff_user_id and m.portal_id = k.portal_id
        and m.role = 'admin'
      join portals p on p.id = k.portal_id
      join companies co on co.id = k.company_id
      left join company_list_versions lv on lv.company_id = co.id
      where v.token_hash = ${sha256(token)} and v.expires_at > ${now.toISOString()}::timestamptz`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const expires = r.expires_at instanceof Date ? r.expires_at : new Date(String(r.expires_at));
  return {
    viewSessionId: Number(r.id),
    staffUserId: Number(r.staff_user_id),
    viewer: String(r.display_name),
    expiresAt: expires,
    tenant: {
      userId: 0,
      portalId: Number(r.portal_id),
      portalKey: String(r.portal_key),
      timeZone: String(r.time_zone),
      companyId: Number(r.company_id),
      companyName: String(r.company_name),
      contactId: Number(r.contact_id),
      contactExtId: Number(r.contact_ext),
      flags: flagsOf(r as Record<PermissionFlag, boolean | null>),
      listVersion: Number(r.list_version),
      // File links handed to the view are bound to it: they end with the view (files.routes.ts).
      viewSessionId: Number(r.id),
    },
  };
}

/** A SessionUser of a view session: no user, the view named. */
export type ViewSessionUser = SessionUser & { viewAs: ViewAs };
export const viewAsOf = (u: SessionUser): ViewAs | undefined => (u as Partial<ViewSessionUser>).viewAs;

/**
 * What a customer guard resolves to for a view token: the contact of the session, and only when the
 * path names that contact (and its portal); the contract's flag applies as for the contact itself.
 */
export async function resolveViewAccess(
  req: FastifyRequest,
  ctx: AppContext,
  access: Access,
  token: string,
): Promise<unknown> {
  const v = await findViewSession(ctx.database.db, token, ctx.clock.now());
  if (!v) throw invalidSession();
  const user: ViewSessionUser = { userId: 0, userName: v.viewer, sessionId: 0, viewAs: v };
  // A handler asking for the user (requireUser) gets this one, never a lookup in `sessions`.
  rememberUser(req, user);
  if (access.guard === 'user') {
    // The user routes are a person's own account (profile, password, sessions…): a view of the
    // portal has none. It answers the contact it shows on the app's start (`GET /api/Users/me`) only.
    if (req.routeOptions.url !== authRoutes.me.path)
      throw forbidden('A view of the portal has no account of its own', peopleErrorCodes.readOnlySession);
    return user;
  }
  const params = (req.params ?? {}) as Record<string, unknown>;
  const company = typeof params.company === 'string' ? params.company.toLowerCase() : undefined;
  if (access.guard === 'portal') {
    if (company !== v.tenant.portalKey)
      throw forbidden('You hold no contact of this portal', 'not_your_portal');
    return { user, portalId: v.tenant.portalId, portalKey: v.tenant.portalKey, timeZone: v.tenant.timeZone };
  }
  // tenant (`:company/:contactid`) and contact (`/api/users/:contactid`, `?company=` optional).
  const ext = extIdOf(String(params.contactid ?? ''));
  const q = (req.query ?? {}) as Record<string, unknown>;
  const named =
    company ?? (typeof q.company === 'string' && q.company !== '' ? q.company.toLowerCase() : undefined);
  if (ext !== v.tenant.contactExtId || (named !== undefined && named !== v.tenant.portalKey))
    throw notYourContact();
  const flag = 'flag' in access ? access.flag : undefined;
  if (!flagAllows(v.tenant.flags, flag))
    throw forbidden(
      `This contact lacks the ${typeof flag === 'string' ? flag : (flag ?? []).join(' or ')} permission`,
      'missing_permission',
    );
  return v.tenant;
}
