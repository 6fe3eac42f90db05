/**
 * A ticket's service-level clock (issue 28 item 13): its due times for the first public answer and for
 * the close, from the portal's policy (business hours, holidays, targets per priority), its company's
 * own targets where it has some, and the ticket's public conversation. Recomputed from scratch, in the
 * writer's transaction, whenever one of those changes: the ticket's creation, its priority, its company,
 * a public message (the first answer from staff; a staff answer starts a pause, the customer's next
 * message ends it). Recomputing rather than adjusting makes
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

type Priority = (typeof ticketPriorities)[number];
type Targets = Record<Priority, { firstResponse: number | null; resolution: number | null }>;

/** A company's own targets (migration 0063): only the priorities and targets it has. */
export type CompanyTargets = Partial<Record<Priority, { firstResponse?: number; resolution?: number }>>;

/**
 * The targets a company's tickets are held to: each target the company has of its own, else the
 * portal's. A company sold a faster first answer on urgent tickets keeps the portal's resolution.
 */
export function targetsFor(portal: Targets, company: CompanyTargets | null): Targets {
  if (!company) return portal;
  const out = { ...portal };
  for (const p of ticketPriorities) {
    const own = company[p];
    if (own) out[p] = { ...portal[p], ...own };
  }
  return out;
}

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

export type SlaTarget = 'first_response' | 'resolution';

/**
 * Bits of `sla_breached`: a target's breach told (its event and notices written), and its "about to
 * breach" notice told. A told bit is never cleared: one event per breach, whatever happens after.
 */
export const SLA_BITS: Record<SlaTarget, { breach: number; soon: number }> = {
  first_response: { breach: 1, soon: 4 },
  resolution: { breach: 2, soon: 8 },
};

/**
 * Bit 16 of `sla_breached`: the sweep's next look at the ticket tells nothing already past, it only marks
 * it told. Set where a clock is (re)computed by the sweep rather than by a change of the ticket: an
 * imported ticket, a policy change. A new policy, or the back office's history, does not make the desk
 * hear of breaches that were over before the clock existed.
 */
export const SLA_QUIET = 16;

/** A target whose clock runs: the sweep watches its "soon" instant and its due time. */
export interface Watched {
  target: SlaTarget;
  dueAt: Date;
  soonAt: Date;
}

export interface Clock {
  firstResponseDueAt: Date | null;
  firstRespondedAt: Date | null;
  resolutionDueAt: Date | null;
  pausedMinutes: number;
  nextDueAt: Date | null;
  soonAt: Date | null;
  /** The running targets (none when closed, paused for the resolution, or without a policy). */
  watched: Watched[];
  sweepAt: Date | null;
}

/**
 * When the sweep must next look: the earliest instant, over the running targets, of what is not told
 * yet (the "soon" notice, then the breach). Null when all is told or nothing runs.
 */
export function sweepAtOf(watched: readonly Watched[], breached: number): Date | null {
  let at: Date | null = null;
  for (const w of watched) {
    const bits = SLA_BITS[w.target];
    if ((breached & bits.breach) !== 0) continue;
    const next = (breached & bits.soon) !== 0 ? w.dueAt : w.soonAt;
    if (at === null || next < at) at = next;
  }
  return at;
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
    watched: [],
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

  const soonOf = (minutes: number) =>
    addBusinessMinutes(cal, t.createdOn, minutes - soonMargin(minutes), pauses);
  // The first response runs until staff answer in public; the resolution until the close, except
  // while the ticket waits for the customer.
  const watched: Watched[] = [];
  if (!t.closed && firstRespondedAt === null && target.firstResponse !== null && firstResponseDueAt)
    watched.push({
      target: 'first_response',
      dueAt: firstResponseDueAt,
      soonAt: soonOf(target.firstResponse) ?? firstResponseDueAt,
    });
  if (!t.closed && pausedSince === null && target.resolution !== null && resolutionDueAt)
    watched.push({
      target: 'resolution',
      dueAt: resolutionDueAt,
      soonAt: soonOf(target.resolution) ?? resolutionDueAt,
    });

  // The badge and "Breaching soon" show the pending target: the first response until it is met.
  let nextDueAt: Date | null = null;
  let soonAt: Date | null = null;
  if (!t.closed) {
    const pending =
      firstRespondedAt === null && target.firstResponse !== null
        ? { minutes: target.firstResponse, due: firstResponseDueAt }
        : target.resolution !== null
          ? { minutes: target.resolution, due: resolutionDueAt }
          : null;
    if (pending?.due) {
      nextDueAt = pending.due;
      soonAt = soonOf(pending.minutes);
    }
  }
  return {
    firstResponseDueAt,
    firstRespondedAt,
    resolutionDueAt,
    pausedMinutes,
    nextDueAt,
    soonAt,
    watched,
    // A quiet look still owed stays due (a change of the ticket before the sweep's look must not put
    // it off until a breach it would then swallow).
    sweepAt:
      (t.breached & SLA_QUIET) !== 0 && watched.length > 0 ? t.createdOn : sweepAtOf(watched, t.breached),
  };
}

interface ClockRow {
  created_on: number;
  priority: number;
  closed: boolean;
  sla_breached: number;
  policy: Omit<SlaPolicyRow, 'timeZone'> | string | null;
  company_targets: CompanyTargets | string | null;
  time_zone: string;
  messages: { at: number; staff: boolean }[] | string;
}

const ms = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * Recomputes and stores the clock of a ticket (by its row id): the one place every writer calls after a
 * change the clock depends on, in the writer's transaction. Answers the clock and the told bits (null:
 * no such ticket).
 */
export async function refreshSlaClock(
  tx: Queryable,
  ticketId: number,
): Promise<{ clock: Clock; breached: number } | null> {
  const [row] = await queryRows<ClockRow>(
    tx,
    sql`select extract(epoch from t.created_on) * 1000 as created_on, t.priority, t.closed, t.sla_breached,
        p.time_zone,
        (select json_build_object('enabled', s.enabled, 'hours', s.hours, 'holidays', s.holidays,
           'targets', s.targets) from sla_policies s where s.portal_id = t.portal_id) as policy,
        (select c.targets from sla_company_targets c where c.company_id = t.company_id) as company_targets,
        coalesce((select json_agg(json_build_object('at', extract(epoch from c.creation_date) * 1000,
             'staff', c.sender_agent_id is not null or c.sender_staff_id is not null)
           order by c.creation_date, c.id)
           from ticket_comments c where c.ticket_id = t.id and not c.internal), '[]') as messages
      from tickets t join portals p on p.id = t.portal_id where t.id = ${ticketId}::int`,
  );
  if (!row) return null;
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  const stored = row.policy === null ? null : json(row.policy);
  const company = row.company_targets === null ? null : json(row.company_targets);
  const policy =
    stored === null
      ? null
      : { ...stored, targets: targetsFor(stored.targets, company), timeZone: row.time_zone };
  const breached = Number(row.sla_breached);
  const clock = computeClock(policy, {
    createdOn: new Date(Number(row.created_on)),
    priority: Number(row.priority),
    closed: row.closed === true,
    breached,
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
  return { clock, breached };
}
