import {
  INBOX_COUNT_CAP,
  type Attachment,
  staffErrorCodes,
  inboxAnswerSchema,
  type InboxAnswer,
  type InboxItem,
  STAFF_SEARCH_GROUP_MAX,
  staffSearchAnswerSchema,
  type StaffSearchAnswer,
  type StaffTicketDetail,
  type InboxSort,
  type inboxQuerySchema,
} from '@sportello/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import { badRequest, notFound } from '../../platform/errors';
import { markStaffRead } from '../tickets/core';
import { deskCachesOf } from './desk-cache';
import type { StaffPortalAccess } from './staff.access';
import {
  countInbox,
  findPeople,
  getStaffTicket,
  keyFits,
  listInbox,
  PRIORITY_NAMES,
  sortKeyOf,
  type InboxScope,
  type SortKey,
  type RawStaffAttachment,
  type RawStaffDetail,
} from './inbox.queries';

type InboxQuery = z.output<typeof inboxQuerySchema>;

export const scopeOf = (a: StaffPortalAccess, now?: Date): InboxScope => ({
  portalId: a.portal.portalId,
  staffUserId: a.staffUserId,
  agentId: a.portal.agentId,
  now,
});

/** The cursor is the last row's key in the page's order, with the order's name: opaque to the client. */
export function encodeCursor(sort: InboxSort, key: SortKey): string {
  return Buffer.from(JSON.stringify([sort, ...key])).toString('base64url');
}

export function decodeCursor(cursor: string, sort: InboxSort): SortKey {
  const bad = () => badRequest('The cursor is not one this server gave', staffErrorCodes.invalidCursor);
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(v)) throw bad();
  // A cursor of an earlier version: [lastActivityAt, extId], the order of last activity.
  const [name, ...key] = typeof v[0] === 'string' && v.length === 2 ? ['activity', ...v] : (v as unknown[]);
  if (name !== sort || !keyFits(sort, key)) throw bad();
  return key;
}

/** Tickets per view for this staff user (kept until tickets change: desk-cache.ts). */
export const countViews = (ctx: AppContext, scope: InboxScope) =>
  deskCachesOf(ctx.database).counts.get(`views:${scope.portalId}:${scope.staffUserId}`, () =>
    countInbox(ctx.database.db, scope),
  );

/**
 * A page of the inbox as the JSON text of its answer (kept until tickets or read marks change:
 * desk-cache.ts). The text is kept rather than the page, so a kept page costs no serialising: it is
 * checked against the route's answer schema once, when read.
 */
export function inbox(ctx: AppContext, a: StaffPortalAccess, q: InboxQuery): Promise<string> {
  // The parsed query: its keys in the schema's order, so equal queries make equal keys.
  const key = `page:${a.portal.portalId}:${a.staffUserId}:${JSON.stringify(q)}`;
  return deskCachesOf(ctx.database).pages.get(key, async () =>
    JSON.stringify(inboxAnswerSchema.parse(await readInbox(ctx, a, q))),
  );
}

async function readInbox(ctx: AppContext, a: StaffPortalAccess, q: InboxQuery): Promise<InboxAnswer> {
  const range = parseDateRange({ from: q.from, to: q.to }, a.portal.timeZone);
  const scope = scopeOf(a, ctx.clock.now());
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
        rating: q.rating,
        priority: q.priority === undefined ? undefined : PRIORITY_NAMES.indexOf(q.priority),
        tagId: q.tag,
        due: q.due,
        now: ctx.clock.now(),
        sort: q.sort,
        from: range.from,
        toExclusive: range.toExclusive,
        q: q.q === '' ? undefined : q.q,
        after: q.cursor ? decodeCursor(q.cursor, q.sort) : undefined,
      },
      q.limit,
    ),
    countViews(ctx, scope),
  ]);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page as unknown as InboxItem[],
    counts,
    countCap: INBOX_COUNT_CAP,
    nextCursor: rows.length > q.limit && last ? encodeCursor(q.sort, sortKeyOf(q.sort, last)) : null,
  };
}

/**
 * The desk's search as one types: tickets as the inbox's search finds them (open ones first, then
 * closed: each view's first page, read from its index), and the contacts and companies it names. Kept
 * as the inbox's pages are (desk-cache.ts): a text asked for again — the same letters typed anew, a
 * second agent's, the box reopened — is answered without the database.
 */
export function quickSearch(ctx: AppContext, a: StaffPortalAccess, q: string): Promise<string> {
  const key = `search:${a.portal.portalId}:${a.staffUserId}:${q}`;
  return deskCachesOf(ctx.database).pages.get(key, async () =>
    JSON.stringify(staffSearchAnswerSchema.parse(await readQuickSearch(ctx, a, q))),
  );
}

async function readQuickSearch(ctx: AppContext, a: StaffPortalAccess, q: string): Promise<StaffSearchAnswer> {
  const scope = scopeOf(a);
  const db = ctx.database.db;
  const n = STAFF_SEARCH_GROUP_MAX;
  const f = { from: null, toExclusive: null, q };
  const open = await listInbox(db, scope, 'open', f, n);
  const closed = open.length >= n ? [] : await listInbox(db, scope, 'closed', f, n - open.length);
  const people = await findPeople(db, scope.portalId, q, n);
  return {
    tickets: [...open, ...closed].slice(0, n) as unknown as InboxItem[],
    contacts: people.contacts as StaffSearchAnswer['contacts'],
    companies: people.companies as StaffSearchAnswer['companies'],
  };
}

/** Staff links are unbound (the files route binds contact sessions only) and live one hour. */
const STAFF_LINK_TTL_S = 3600;

export function staffSigner(ctx: AppContext): (a: RawStaffAttachment) => Attachment {
  const now = ctx.clock.now();
  return (a) => ({
    id: a.id,
    name: a.name,
    url: ctx.signer.sign(a.fileId, a.name, now, { ttlSeconds: STAFF_LINK_TTL_S }),
  });
}

/** The raw detail as the contract's answer: file references become signed URLs. */
export function mapStaffDetail(ctx: AppContext, r: RawStaffDetail): StaffTicketDetail {
  const sign = staffSigner(ctx);
  return {
    ...(r as unknown as StaffTicketDetail),
    attachments: r.attachments.map(sign),
    openingEmail: r.openingEmail && {
      senderUnverified: r.openingEmail.senderUnverified,
      originalEmail: r.openingEmail.originalEmail && sign(r.openingEmail.originalEmail).url,
    },
    comments: r.comments.map((c) => ({
      ...c,
      attachments: c.attachments.map(sign),
      originalEmail: c.originalEmail && sign(c.originalEmail).url,
    })),
  };
}

/** The ticket with its whole conversation; opening it marks it read for this staff user. */
export async function staffTicket(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  opts: { markRead?: boolean } = {},
): Promise<StaffTicketDetail> {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const found = await getStaffTicket(db, scopeOf(a), ticketExtId, now);
  if (!found) throw notFound('No such ticket in this portal', 'ticket_not_found');
  if (opts.markRead === false) return mapStaffDetail(ctx, found.item);
  await markStaffRead(db, a.staffUserId, found.internalId, now);
  // Opening is a write behind a GET (staff.routes.ts clears kept answers after other methods only): the
  // agent's next inbox page must not wait for the NOTIFY of the read mark to show it read.
  deskCachesOf(ctx.database).clear();
  return { ...mapStaffDetail(ctx, found.item), unread: false };
}
