/**
 * Time spent on tickets (issue 28 item 11; docs/staff.md "Time spent"): an agent logs minutes, billable
 * or not, on a reply or note or alone. Each entry is one row and one `ticket.time_logged` event, in the
 * transaction of its comment when it has one. The hour banks shown beside the sums are the back
 * office's activity contracts as it last sent them: Sportello never draws them down, the back office
 * does from the events.
 */
import { sql } from 'drizzle-orm';
import {
  TIME_ENTRIES_MAX,
  staffMergeErrorCodes,
  ticketErrorCodes,
  type StaffTimeAnswer,
  type StaffTimeRequest,
  type TimeEntry,
} from '@sportello/contracts';
import type { Tx } from '../../db/client';
import type { AppContext } from '../../platform/context';
import { badRequest, notFound } from '../../platform/errors';
import { emitTimeEvent, staffSource } from '../../platform/events';
import { isoText, queryRows, type Queryable } from '../../platform/sql-json';
import { lockTicket } from '../tickets/core';
import type { StaffPortalAccess } from './staff.access';

const ticketNotFound = () => notFound('No such ticket in this portal', ticketErrorCodes.ticketNotFound);

const entryJson = `json_build_object('id', e.id, 'minutes', e.minutes, 'billable', e.billable, 'note', e.note,
  'commentId', c.ext_id, 'by', e.staff_name, 'loggedAt', ${isoText('e.logged_at')})`;

/** One entry in the caller's transaction, the ticket locked by the caller; answers its row id. */
export async function logTimeIn(
  tx: Tx,
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketId: number,
  t: { minutes: number; billable: boolean; note?: string | undefined; commentId: number | null },
): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`insert into ticket_time_entries (portal_id, ticket_id, comment_id, staff_user_id, staff_name, minutes,
        billable, note, logged_at)
      values (${a.portal.portalId}::int, ${ticketId}::int, ${t.commentId}::int, ${a.staffUserId}::int,
        ${a.displayName}, ${t.minutes}::int, ${t.billable}, ${t.note ?? ''}, ${ctx.clock.now().toISOString()}::timestamptz)
      returning id`,
  );
  const id = Number(rows[0]!.id);
  await emitTimeEvent(tx, ctx, id, staffSource(a.staffUserId, a.displayName));
  return id;
}

async function entryOf(db: Queryable, id: number): Promise<TimeEntry> {
  const rows = await queryRows<{ e: TimeEntry | string }>(
    db,
    sql`select ${sql.raw(entryJson)} as e from ticket_time_entries e
      left join ticket_comments c on c.id = e.comment_id where e.id = ${id}::int`,
  );
  const e = rows[0]!.e;
  return typeof e === 'string' ? (JSON.parse(e) as TimeEntry) : e;
}

/** `POST …/time`: time alone, or on one of the ticket's comments (by its id in the conversation). */
export async function logTime(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
  body: StaffTimeRequest,
): Promise<TimeEntry> {
  const id = await ctx.database.db.transaction(async (tx) => {
    const ticket = await lockTicket(tx, a.portal.portalId, ticketExtId, null);
    if (!ticket) throw ticketNotFound();
    let commentId: number | null = null;
    if (body.commentId !== undefined) {
      const found = await queryRows<{ id: number }>(
        tx,
        sql`select id from ticket_comments where portal_id = ${a.portal.portalId}::int
          and ext_id = ${body.commentId}::bigint and ticket_id = ${ticket.id}::int`,
      );
      if (!found[0])
        throw badRequest('The comment is not one of this ticket', staffMergeErrorCodes.commentNotOnTicket);
      commentId = Number(found[0].id);
    }
    return logTimeIn(tx, ctx, a, ticket.id, { ...body, commentId });
  });
  return entryOf(ctx.database.db, id);
}

/** The ticket's entries (newest first, at most TIME_ENTRIES_MAX), its sums, its company's hour banks. */
export async function ticketTime(
  ctx: AppContext,
  a: StaffPortalAccess,
  ticketExtId: number,
): Promise<StaffTimeAnswer> {
  const now = ctx.clock.now().toISOString();
  const rows = await queryRows<{ answer: StaffTimeAnswer | string }>(
    ctx.database.db,
    sql`select json_build_object(
        'totalMinutes', (select coalesce(sum(minutes), 0) from ticket_time_entries where ticket_id = t.id),
        'billableMinutes', (select coalesce(sum(minutes) filter (where billable), 0)
          from ticket_time_entries where ticket_id = t.id),
        'entryCount', (select count(*)::int from ticket_time_entries where ticket_id = t.id),
        'entries', coalesce((select json_agg(x.j order by x.id desc) from (
            select ${sql.raw(entryJson)} as j, e.id from ticket_time_entries e
            left join ticket_comments c on c.id = e.comment_id
            where e.ticket_id = t.id order by e.id desc limit ${TIME_ENTRIES_MAX}::int) x), '[]'::json),
        'hourBanks', coalesce((select json_agg(json_build_object('contractId', ac.ext_id, 'name', ac.name,
            'hoursMinutes', round(ac.hours_amount * 60)::int,
            'usedMinutes', u.used,
            'balanceMinutes', round(ac.hours_amount * 60)::int - u.used,
            'end', case when ac."end" is null then null else ${sql.raw(isoText('ac."end"'))} end)
            order by ac.start, ac.ext_id)
          from activity_contracts ac
          cross join lateral (select coalesce(sum(ca.duration_minutes), 0)::int as used
            from contract_activities ca where ca.activity_contract_id = ac.id) u
          where ac.company_id = t.company_id and ac.contract_type = 0 and ac.hours_amount is not null
            and ac.start <= ${now}::timestamptz
            and (ac."end" is null or ac."end" >= ${now}::timestamptz)), '[]'::json)
      ) as answer
      from tickets t where t.portal_id = ${a.portal.portalId}::int and t.ext_id = ${ticketExtId}::bigint`,
  );
  const r = rows[0];
  if (!r) throw ticketNotFound();
  const answer = typeof r.answer === 'string' ? (JSON.parse(r.answer) as StaffTimeAnswer) : r.answer;
  return {
    ...answer,
    totalMinutes: Number(answer.totalMinutes),
    billableMinutes: Number(answer.billableMinutes),
    entryCount: Number(answer.entryCount),
  };
}
