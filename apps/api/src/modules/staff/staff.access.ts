/**
 * The `staff` guard kind. A staff token is looked up in `staff_sessions` only, so a contact's token
 * (in `sessions`) is never a staff session, and the contact guards never look here: the two kinds of
 * session cannot stand in for each other. On a route with `:company`, the staff user must belong to
 * that portal (403 otherwise), with the admin role when the contract asks for it.
 */
import { staffErrorCodes } from '@sportello/contracts';
import type { FastifyRequest } from 'fastify';
import { registerGuard } from '../../platform/access';
import { bearerOf, invalidSession } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { forbidden, unauthorized } from '../../platform/errors';
import {
  findStaffSession,
  MEMBER_SEEN_EVERY_MS,
  touchMembership,
  type StaffMembershipRow,
} from './staff.queries';

export interface StaffAccess {
  staffUserId: number;
  sessionId: number;
  email: string;
  displayName: string;
  /** The `:company` portal of the route and the user's membership of it; null on portal-less routes. */
  portal: StaffMembershipRow | null;
}

/** A staff access whose route names a portal. */
export type StaffPortalAccess = StaffAccess & { portal: StaffMembershipRow };

declare module '../../platform/access' {
  interface GuardResults {
    staff: StaffAccess;
  }
}

async function resolveStaff(
  req: FastifyRequest,
  ctx: AppContext,
  access: { role?: 'agent' | 'admin' },
): Promise<StaffAccess> {
  const token = bearerOf(req);
  if (!token) throw unauthorized();
  const key = (req.params as Record<string, unknown> | undefined)?.company;
  const found = await findStaffSession(
    ctx.database.db,
    token,
    ctx.clock.now(),
    typeof key === 'string' ? key : null,
  );
  if (!found) throw invalidSession();
  const { membership, ...s } = found;
  let portal: StaffMembershipRow | null = null;
  if (typeof key === 'string') {
    portal = membership;
    if (!portal) throw forbidden('You are not on the staff of this portal', staffErrorCodes.notStaffOfPortal);
    if (access.role === 'admin' && portal.role !== 'admin')
      throw forbidden('This needs the admin role in this portal', staffErrorCodes.adminRequired);
    // What the portal's access list shows of the member: their use of this portal, not their sign-ins
    // anywhere (another portal's admin must not learn of those).
    const now = ctx.clock.now();
    const seen = portal.lastSeenAt?.getTime() ?? 0;
    if (seen < now.getTime() - MEMBER_SEEN_EVERY_MS)
      await touchMembership(ctx.database.db, s.staffUserId, portal.portalId, now);
  } else if (access.role === 'admin') {
    // A role is held per portal: a contract asking for one must name the portal.
    throw new Error(`staff role guard on ${req.routeOptions.url ?? req.url} without :company`);
  }
  return { ...s, portal };
}

registerGuard('staff', resolveStaff);

/** The portal of a staff route that names one (the guard made sure it is the caller's). */
export function portalOf(a: StaffAccess): StaffPortalAccess {
  if (!a.portal) throw new Error('staff route without :company');
  return a as StaffPortalAccess;
}
