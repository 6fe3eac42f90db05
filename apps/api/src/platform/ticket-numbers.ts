/**
 * The number a ticket the portal opens gets (`<year>/<progressive>`, the progressive counted per year
 * in the portal's zone and continuing the back office's): a customer's new ticket (tickets module) and
 * a ticket an agent opens on the desk for a customer (admin entities) are numbered alike, and in the
 * back office's own format, so a list never shows two kinds of number side by side. Tickets of the back
 * office keep the number it sends.
 */
import { sql } from 'drizzle-orm';
import { queryRows, tsParam, type Queryable } from './sql-json';
import { yearBounds } from '@sportello/contracts/time-zone';

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

/** The one way a ticket number is written: `2026/0012` for the year's 12th ticket. */
export function ticketNumberOf(year: number, progressive: number): string {
  return `${year}/${String(progressive).padStart(4, '0')}`;
}

/** The number of a ticket the portal opens at `now`: `2026/0012` and its progressive, 12. */
export async function portalTicketNumber(
  tx: Queryable,
  portalId: number,
  now: Date,
  timeZone: string,
): Promise<{ ticketNumber: string; internalAnnualProgressive: number }> {
  const { year, start, end } = yearBounds(now, timeZone);
  const progressive = await nextAnnualProgressive(tx, portalId, start, end);
  return {
    ticketNumber: ticketNumberOf(year, progressive),
    internalAnnualProgressive: progressive,
  };
}
