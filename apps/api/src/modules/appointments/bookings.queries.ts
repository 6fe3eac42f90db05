/** The staff desk's view of the bookings: a portal's (or one link's) list, and one booking by id. */
import { sql, type SQL } from 'drizzle-orm';
import { CATALOG_LIST_MAX, type Booking } from '@sportello/contracts';
import { queryRows, type Queryable } from '../../platform/sql-json';

const num = (v: unknown) => Number(v);
const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

const bookingSelect = sql`select a.id, l.event_key, l.title, ag.ext_id as agent_ext, ag.display_name,
    a.starts_at, a.ends_at, a.first_name, a.last_name, a.email, a.phone, a.company_name, a.notes,
    a.cancelled_at, a.cancel_key
  from appointments a join appointment_links l on l.id = a.link_id join agents ag on ag.id = a.agent_id`;

const bookingOf = (r: Record<string, unknown>): Booking & { cancelKey: string } => ({
  id: num(r.id),
  eventKey: String(r.event_key),
  title: String(r.title),
  agentId: num(r.agent_ext),
  agentName: String(r.display_name),
  start: iso(r.starts_at),
  end: iso(r.ends_at),
  firstName: String(r.first_name),
  lastName: String(r.last_name),
  email: (r.email as string | null) ?? null,
  phone: String(r.phone),
  companyName: String(r.company_name),
  notes: String(r.notes),
  status: r.cancelled_at === null ? 'booked' : 'cancelled',
  cancelledAt: r.cancelled_at === null ? null : iso(r.cancelled_at),
  cancelKey: String(r.cancel_key),
});

/**
 * The portal's bookings (or one link's) by start, upcoming ones from `from` (index
 * appointments_portal_start_idx / appointments_link_start_idx, migration 0018).
 */
export async function listBookings(
  db: Queryable,
  portalId: number,
  q: { eventKey?: string | undefined; from: Date | null },
): Promise<Booking[]> {
  const where: SQL[] = [sql`a.portal_id = ${portalId}::int`];
  if (q.eventKey !== undefined)
    where.push(
      sql`a.link_id = (select id from appointment_links where portal_id = ${portalId}::int and event_key = ${q.eventKey})`,
    );
  if (q.from) where.push(sql`a.starts_at >= ${q.from.toISOString()}::timestamptz`);
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${bookingSelect} where ${sql.join(where, sql` and `)}
      order by a.starts_at, a.id limit ${CATALOG_LIST_MAX}`,
  );
  return rows.map((r) => {
    const { cancelKey: _k, ...b } = bookingOf(r);
    return b;
  });
}

/** One booking of the portal with its cancellation key (the appointments module cancels by it). */
export async function readBooking(
  db: Queryable,
  portalId: number,
  id: number,
): Promise<(Booking & { cancelKey: string }) | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${bookingSelect} where a.portal_id = ${portalId}::int and a.id = ${id}::int`,
  );
  return rows[0] && bookingOf(rows[0]);
}
