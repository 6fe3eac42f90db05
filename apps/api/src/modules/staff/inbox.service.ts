import {
  INBOX_COUNT_CAP,
  staffErrorCodes,
  type InboxAnswer,
  type InboxItem,
  type StaffTicketDetail,
  type inboxQuerySchema,
} from '@sportello/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import { badRequest, notFound } from '../../platform/errors';
import type { StaffPortalAccess } from './staff.access';
import { countInbox, getStaffTicket, listInbox, markRead, type InboxScope } from './inbox.queries';

type InboxQuery = z.output<typeof inboxQuerySchema>;

const scopeOf = (a: StaffPortalAccess): InboxScope => ({
  portalId: a.portal.portalId,
  staffUserId: a.staffUserId,
  agentId: a.portal.agentId,
});

/** The cursor is the last row's sort key, opaque to the client. */
export function encodeCursor(lastActivityAt: string, extId: number): string {
  return Buffer.from(JSON.stringify([lastActivityAt, extId])).toString('base64url');
}

export function decodeCursor(cursor: string): { lastActivityAt: Date; extId: number } {
  const bad = () => badRequest('The cursor is not one this server gave', staffErrorCodes.invalidCursor);
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || !Number.isSafeInteger(v[1]))
    throw bad();
  const at = new Date(v[0]);
  if (Number.isNaN(at.getTime())) throw bad();
  return { lastActivityAt: at, extId: v[1] as number };
}

export async function inbox(ctx: AppContext, a: StaffPortalAccess, q: InboxQuery): Promise<InboxAnswer> {
  const range = parseDateRange({ from: q.from, to: q.to }, a.portal.timeZone);
  const scope = scopeOf(a);
  const db = ctx.database.db;
  const [rows, counts] = await Promise.all([
    listInbox(
      db,
      scope,
      q.view,
      {
        companyExt: q.company,
        contactExt: q.contact,
        typeExt: q.type,
        stepExt: q.step,
        groupExt: q.group,
        assigneeExt: q.assignee,
        from: range.from,
        toExclusive: range.toExclusive,
        q: q.q === '' ? undefined : q.q,
        after: q.cursor ? decodeCursor(q.cursor) : undefined,
      },
      q.limit,
    ),
    countInbox(db, scope),
  ]);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page as unknown as InboxItem[],
    counts,
    countCap: INBOX_COUNT_CAP,
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.lastActivityAt, last.id) : null,
  };
}

/** The ticket with its whole conversation; opening it marks it read for this staff user. */
export async function staffTicket(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
): Promise<StaffTicketDetail> {
  const db = ctx.database.db;
  const found = await getStaffTicket(db, scopeOf(a), ticketExtId);
  if (!found) throw notFound('No such ticket in this portal', 'ticket_not_found');
  await markRead(db, a.staffUserId, found.internalId, ctx.clock.now());
  return { ...(found.item as unknown as StaffTicketDetail), unread: false };
}
