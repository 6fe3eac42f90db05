/**
 * The desk's bell (issue 28 item 2): the caller's own notices in the portal of the path. They are
 * written by the tickets core (tickets/core/staff-bell.ts) in the transaction of each change.
 */
import {
  staffErrorCodes,
  type StaffMarkReadRequest,
  type StaffNotificationCount,
  type StaffNotificationList,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { badRequest } from '../../platform/errors';
import { countUnreadNotices, listNotices, markNoticesRead, type BellOwner } from './bell.queries';
import type { StaffPortalAccess } from './staff.access';

const ownerOf = (a: StaffPortalAccess): BellOwner => ({
  staffUserId: a.staffUserId,
  portalId: a.portal.portalId,
});

export async function bellList(
  ctx: AppContext,
  a: StaffPortalAccess,
  q: { cursor?: string | undefined; limit: number },
): Promise<StaffNotificationList> {
  const before = q.cursor === undefined ? null : Number(q.cursor);
  if (before !== null && !Number.isSafeInteger(before))
    throw badRequest('The cursor is not one this server gave', staffErrorCodes.invalidCursor);
  const db = ctx.database.db;
  const [rows, unread] = await Promise.all([
    listNotices(db, ownerOf(a), before, q.limit),
    countUnreadNotices(db, ownerOf(a)),
  ]);
  const page = rows.slice(0, q.limit);
  const next = rows.length > q.limit ? page[page.length - 1]!.rowId : null;
  return {
    items: page.map(({ rowId: _rowId, ...n }) => n),
    unread,
    nextCursor: next === null ? null : String(next),
  };
}

export async function bellCount(ctx: AppContext, a: StaffPortalAccess): Promise<StaffNotificationCount> {
  return { unread: await countUnreadNotices(ctx.database.db, ownerOf(a)) };
}

export async function bellMarkRead(
  ctx: AppContext,
  a: StaffPortalAccess,
  body: StaffMarkReadRequest,
): Promise<StaffNotificationCount> {
  const keys = 'all' in body ? null : body.ids;
  await markNoticesRead(ctx.database.db, ownerOf(a), keys, ctx.clock.now());
  return bellCount(ctx, a);
}
