/**
 * Who sees which rows, in one place for every reader: the list routes, their details and the one search
 * (modules/search) all take their scope from here, so a rule changed here changes everywhere at once.
 * Whether a contact may see a kind at all is the `access.flag` of that kind's list route in the route
 * contracts (`flagAllows` of platform/tenancy.ts reads it the way the access guard does).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TenantContext } from '../../../platform/tenancy';

/** Which tickets a caller reaches: the company's, and only their own unless administrator. */
export interface TicketScope {
  portalId: number;
  companyId: number;
  /**
   * Restricts to tickets created by this (internal) contact id, or followed by `followerUserId`; null:
   * every ticket of the company.
   */
  creatorContactId: number | null;
  /** With creatorContactId: the user whose followed tickets are reached too (issue 16). */
  followerUserId: number | null;
  /** Include the latest activity report (viewContactActivityReports). */
  withReports: boolean;
}

/**
 * Administrators reach every ticket of the company; other contacts the ones they created and the ones
 * their user follows (issue 16: a follower opens the ticket from its e-mails).
 */
export function ticketScope(t: TenantContext, opts: { all?: boolean } = {}): TicketScope {
  const everyone = opts.all === true || t.flags.administrator;
  return {
    portalId: t.portalId,
    companyId: t.companyId,
    creatorContactId: everyone ? null : t.contactId,
    followerUserId: everyone ? null : t.userId,
    withReports: t.flags.viewContactActivityReports,
  };
}

/**
 * The portal's condition of a scope; `portalIndexed: false` writes it `portal_id + 0`, which keeps it
 * (defence in depth: the company and the contact are the portal's anyway) out of index choices, for a
 * reader that must go through the company's or the contact's own index. The search's plans otherwise
 * ANDed the company's few rows with every entry of the portal in a portal-led index: its full-text
 * index for tickets (0.6 of a 1.5 ms search at 1M tickets), its `(portal_id, ext_id)` index for the
 * other kinds (the portal's 1,000 invoices for the company's 20).
 */
const portalOf = (alias: string, opts: { portalIndexed?: boolean }) =>
  sql.raw(opts.portalIndexed === false ? `${alias}.portal_id + 0` : `${alias}.portal_id`);

/** The condition of a ticket scope on `tickets t`. */
export function ticketScopeWhere(s: TicketScope, opts: { portalIndexed?: boolean } = {}): SQL {
  const portal = portalOf('t', opts);
  const own =
    s.creatorContactId === null
      ? sql``
      : sql` and (t.creator_contact_id = ${s.creatorContactId} or exists (select 1 from ticket_followers tf
          where tf.ticket_id = t.id and tf.user_id = ${s.followerUserId ?? -1}::int))`;
  return sql`${portal} = ${s.portalId} and t.company_id = ${s.companyId}${own}`;
}

/** Rows of the portal whose `column` is `id`, on the table aliased `alias`. */
const ownedBy = (
  alias: string,
  portalId: number,
  column: 'company_id' | 'contact_id',
  id: number,
  opts: { portalIndexed?: boolean },
): SQL => sql`${portalOf(alias, opts)} = ${portalId} and ${sql.raw(`${alias}.${column}`)} = ${id}`;

/** Rows of the contact's company (wiki, invoices, estimates, contracts…) on the table aliased `alias`. */
export function companyScopeWhere(
  t: Pick<TenantContext, 'portalId' | 'companyId'>,
  alias: string,
  opts: { portalIndexed?: boolean } = {},
): SQL {
  return ownedBy(alias, t.portalId, 'company_id', t.companyId, opts);
}

/** Rows of the contact alone (their documents) on the table aliased `alias`. */
export function contactScopeWhere(
  t: Pick<TenantContext, 'portalId' | 'contactId'>,
  alias: string,
  opts: { portalIndexed?: boolean } = {},
): SQL {
  return ownedBy(alias, t.portalId, 'contact_id', t.contactId, opts);
}
