/**
 * The breach sweep's work on one ticket (issue 28 item 13; the loop that finds the tickets is
 * modules/staff/sla-sweeper.ts). In one transaction, under the ticket's row lock: the clock is
 * recomputed from the ticket as it stands (a reply or a close that committed meanwhile wins), then
 * each running target whose due time passed is told as breached (its bit, one `ticket.sla_breached`
 * event, a `sla_breach` notice), and each whose "soon" instant passed as about to breach (its bit, a
 * `sla_soon` notice). A told bit is never cleared, so a second sweep writes nothing, and a target
 * found already past its due time (the server was down) is told as breached only. A ticket marked
 * quiet (SLA_QUIET: imported, or its portal's policy changed) has what is already past marked told
 * without telling anyone.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import type { AppContext } from '../../../platform/context';
import { emitSlaBreachEvent } from '../../../platform/events';
import { queryRows } from '../../../platform/sql-json';
import { refreshSlaClock, SLA_BITS, SLA_QUIET, sweepAtOf, type Watched } from './sla-clock';
import { writeStaffNotifications } from './staff-bell';
import { staffToHear } from './staff-notify';

export interface SweptTicket {
  breached: Watched[];
  soon: Watched[];
}

export async function sweepSlaTicket(
  tx: Tx,
  ctx: Pick<AppContext, 'config' | 'clock'>,
  ticketId: number,
  now: Date,
): Promise<SweptTicket> {
  const told: SweptTicket = { breached: [], soon: [] };
  const locked = await queryRows<{ id: number }>(
    tx,
    sql`select id from tickets where id = ${ticketId}::int for update`,
  );
  if (locked.length === 0) return told;
  const current = await refreshSlaClock(tx, ticketId);
  if (!current) return told;
  const quiet = (current.breached & SLA_QUIET) !== 0;
  let bits = current.breached & ~SLA_QUIET;
  for (const w of current.clock.watched) {
    const b = SLA_BITS[w.target];
    if ((bits & b.breach) !== 0) continue;
    if (now >= w.dueAt) {
      bits |= b.breach | b.soon;
      if (!quiet) told.breached.push(w);
    } else if (now >= w.soonAt && (bits & b.soon) === 0) {
      bits |= b.soon;
      if (!quiet) told.soon.push(w);
    }
  }
  if (bits === current.breached) return told;
  const sweepAt = sweepAtOf(current.clock.watched, bits);
  await queryRows(
    tx,
    sql`update tickets set sla_breached = ${bits}::smallint,
        sla_sweep_at = ${sweepAt === null ? null : sweepAt.toISOString()}::timestamptz
      where id = ${ticketId}::int`,
  );
  if (told.breached.length + told.soon.length === 0) return told;
  const to = await staffToHear(tx, ticketId);
  for (const w of told.breached) {
    await emitSlaBreachEvent(tx, ctx, ticketId, { target: w.target, dueAt: w.dueAt });
    await writeStaffNotifications(
      tx,
      ctx,
      {
        kind: 'sla_breach',
        ticketId,
        staffUserIds: to,
        actorName: '',
        slaTarget: w.target,
        slaDueAt: w.dueAt,
      },
      now,
    );
  }
  for (const w of told.soon)
    await writeStaffNotifications(
      tx,
      ctx,
      {
        kind: 'sla_soon',
        ticketId,
        staffUserIds: to,
        actorName: '',
        slaTarget: w.target,
        slaDueAt: w.dueAt,
      },
      now,
    );
  return told;
}
