/**
 * A ticket's service-level clock (issue 28 item 13): its due times for the first public answer and for
 * the close, from the portal's policy (business hours, holidays, targets per priority) and the ticket's
 * public conversation. Recomputed from scratch, in the writer's transaction, whenever one of those
 * changes: the ticket's creation, its priority, a public message (the first answer from staff; a staff
 * answer starts a pause, the customer's next message ends it). Recomputing rather than adjusting makes
 * the result independent of the order of the writes and of who wrote them.
 *
 * The clock pauses exactly while `waiting_on_customer` (migration 0008) holds: from a public message of
 * staff to the customer's next public message. While paused, `resolution_due_at` is the due time as if
 * the clock had resumed at the pause's start; the customer's answer moves it by the pause's business
 * minutes.
 */
import { sql } from 'drizzle-orm';
import { ticketPriorities } from '@sportello/contracts';
import { queryRows, type Queryable } from '../../../platform/sql-json';
import { addBusinessMinutes, businessMinutesBetween, type BusinessCalendar, type Span } from './sla';

type Targets = Record<
  (typeof ticketPriorities)[number],
  { firstResponse: number | null; resolution: number | null }
>;

export interface SlaPolicyRow {
  enabled: boolean;
  hours: [string, string][][];
  holidays: string[];
  targets: Targets;
  timeZone: string;
}

export interface ClockInput {
  createdOn: Date;
  /** 0 low … 3 urgent. */
  priority: number;
  closed: boolean;
  /** Breach events already told: bit 1 first response, bit 2 resolution. */
  breached: number;
  /** The public messages, oldest first; `staff`: written by staff (an agent). */
  messages: ReadonlyArray<{ at: Date; staff: boolean }>;
}

export interface Clock {
  firstResponseDueAt: Date | null;
  firstRespondedAt: Date | null;
  resolutionDueAt: Date | null;
  pausedMinutes: number;
  nextDueAt: Date | null;
  soonAt: Date | null;
  sweepAt: Date | null;
}

/** "Soon": under one business hour left, or under a quarter of the target. */
export function soonMargin(targetMinutes: number): number {
  return Math.min(targetMinutes, Math.max(60, Math.ceil(targetMinutes / 4)));
}

/** The clock of a ticket under a policy (null: the portal has none, or it is off). */
export function computeClock(policy: SlaPolicyRow | null, t: ClockInput): Clock {
  const staffAnswers = t.messages.filter((m) => m.staff && m.at >= t.createdOn);
  const firstRespondedAt = staffAnswers[0]?.at ?? null;
  const none: Clock = {
    firstResponseDueAt: null,
    firstRespondedAt,
    resolutionDueAt: null,
    pausedMinutes: 0,
    nextDueAt: null,
    soonAt: null,
    sweepAt: null,
  };
  if (!policy?.enabled) return none;
  const target = policy.targets[ticketPriorities[t.priority] ?? 'normal'];
  if (!target) return none;
  const cal: BusinessCalendar = { timeZone: policy.timeZone, hours: policy.hours, holidays: policy.holidays };

  // The pauses that ended: from a staff message to the customer's next one.
  const pauses: Span[] = [];
  let pausedSince: number | null = null;
  for (const m of t.messages) {
    if (m.staff && pausedSince === null) pausedSince = m.at.getTime();
    else if (!m.staff && pausedSince !== null) {
      pauses.push({ start: pausedSince, end: m.at.getTime() });
      pausedSince = null;
    }
  }
  const pausedMinutes = Math.round(
    pauses.reduce((sum, p) => sum + businessMinutesBetween(cal, new Date(p.start), new Date(p.end)), 0),
  );
  const firstResponseDueAt =
    target.firstResponse === null ? null : addBusinessMinutes(cal, t.createdOn, target.firstResponse);
  const resolutionDueAt =
    target.resolution === null ? null : addBusinessMinutes(cal, t.createdOn, target.resolution, pauses);

  let nextDueAt: Date | null = null;
  let soonAt: Date | null = null;
  let bit = 0;
  if (!t.closed) {
    const pending =
      firstRespondedAt === null && target.firstResponse !== null
        ? { minutes: target.firstResponse, due: firstResponseDueAt, bit: 1 }
        : target.resolution !== null
          ? { minutes: target.resolution, due: resolutionDueAt, bit: 2 }
          : null;
    if (pending?.due) {
      nextDueAt = pending.due;
      soonAt = addBusinessMinutes(cal, t.createdOn, pending.minutes - soonMargin(pending.minutes), pauses);
      bit = pending.bit;
    }
  }
  // The sweep looks again only at a pending target whose breach it has not told, and not during a pause.
  const sweepAt = nextDueAt && pausedSince === null && (t.breached & bit) === 0 ? nextDueAt : null;
  return { firstResponseDueAt, firstRespondedAt, resolutionDueAt, pausedMinutes, nextDueAt, soonAt, sweepAt };
}

interface ClockRow {
  created_on: number;
  priority: number;
  closed: boolean;
  sla_breached: number;
  policy: Omit<SlaPolicyRow, 'timeZone'> | string | null;
  time_zone: string;
  messages: { at: number; staff: boolean }[] | string;
}

const ms = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * Recomputes and stores the clock of a ticket (by its row id): the one place every writer calls after a
 * change the clock depends on, in the writer's transaction.
 */
export async function refreshSlaClock(tx: Queryable, ticketId: number): Promise<void> {
  const [row] = await queryRows<ClockRow>(
    tx,
    sql`select extract(epoch from t.created_on) * 1000 as created_on, t.priority, t.closed, t.sla_breached,
        p.time_zone,
        (select json_build_object('enabled', s.enabled, 'hours', s.hours, 'holidays', s.holidays,
           'targets', s.targets) from sla_policies s where s.portal_id = t.portal_id) as policy,
        coalesce((select json_agg(json_build_object('at', extract(epoch from c.creation_date) * 1000,
             'staff', c.sender_agent_id is not null or c.sender_staff_id is not null)
           order by c.creation_date, c.id)
           from ticket_comments c where c.ticket_id = t.id and not c.internal), '[]') as messages
      from tickets t join portals p on p.id = t.portal_id where t.id = ${ticketId}::int`,
  );
  if (!row) return;
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  const policy = row.policy === null ? null : { ...json(row.policy), timeZone: row.time_zone };
  const clock = computeClock(policy, {
    createdOn: new Date(Number(row.created_on)),
    priority: Number(row.priority),
    closed: row.closed === true,
    breached: Number(row.sla_breached),
    messages: json(row.messages).map((m) => ({ at: new Date(Number(m.at)), staff: m.staff })),
  });
  await queryRows(
    tx,
    sql`update tickets set
        first_response_due_at = ${ms(clock.firstResponseDueAt)}::timestamptz,
        first_responded_at = ${ms(clock.firstRespondedAt)}::timestamptz,
        resolution_due_at = ${ms(clock.resolutionDueAt)}::timestamptz,
        sla_paused_minutes = ${clock.pausedMinutes}::int,
        sla_next_due_at = ${ms(clock.nextDueAt)}::timestamptz,
        sla_soon_at = ${ms(clock.soonAt)}::timestamptz,
        sla_sweep_at = ${ms(clock.sweepAt)}::timestamptz
      where id = ${ticketId}::int`,
  );
}
