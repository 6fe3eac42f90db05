/**
 * The number a ticket the portal opens gets (`T-<year>-<progressive>`, the progressive counted per
 * year in the portal's zone): a customer's new ticket (tickets module) and a ticket an agent opens on
 * the desk for a customer (admin entities) are numbered alike. Tickets of the back office keep the
 * number it sends.
 */
import { sql } from 'drizzle-orm';
import { queryRows, tsParam, type Queryable } from './sql-json';
import { yearBounds } from './time-zone';

export async function nextAnnualProgressive(
  tx: Queryable,
  portalId: number,
  yearStart: Date,
  yearEnd: Date,
): Promise<number> {
  const rows = await queryRows<{ next: number }>(
    tx,
    sql`select coalesce(max(internal_annual_progressive), 0) + 1 as next from tickets
      where portal_id = ${portalId} and created_on >= ${tsParam(yearStart)} and created_on < ${tsParam(yearEnd)}`,
  );
  return Number(rows[0]!.next);
}

/** The number of a ticket the portal opens at `now`: `T-2026-00012` and its progressive, 12. */
export async function portalTicketNumber(
  tx: Queryable,
  portalId: number,
  now: Date,
  timeZone: string,
): Promise<{ ticketNumber: string; internalAnnualProgressive: number }> {
  const { year, start, end } = yearBounds(now, timeZone);
  const progressive = await nextAnnualProgressive(tx, portalId, start, end);
  return {
    ticketNumber: `T-${year}-${String(progressive).padStart(5, '0')}`,
    internalAnnualProgressive: progressive,
  };
}
