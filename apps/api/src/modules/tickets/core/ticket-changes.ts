/**
 * The ticket timeline (issue 13; migration 0009): a trigger writes one `ticket_changes` row per change
 * of a ticket's step, assignee, group, type or next planned activity, in the transaction of the change,
 * whoever makes it. This module tells the trigger who is changing the ticket, and when (the app's
 * clock), through a transaction-local setting; without one the change is the system's (an import).
 * Step changes, and so closing and reopening, are public: the customer's ticket detail shows them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../../db/client';
import { isoText } from '../../../platform/sql-json';

export type ChangeActor =
  | { kind: 'staff'; id: number; name: string }
  /** A contact: the name is the contact's referent name, looked up here. */
  | { kind: 'contact'; id: number }
  /** A portal API key (the integration API): the name is the key's, looked up here. */
  | { kind: 'api_key'; id: number }
  | { kind: 'system' };

/**
 * Names the author of the ticket changes that follow in this transaction (and only this one:
 * `set_config(…, true)` ends with it). Call it inside the transaction, before the update.
 */
export async function setChangeActor(tx: Tx, actor: ChangeActor, at: Date): Promise<void> {
  await tx.execute(sql`select ${changeActorSetting(actor, at)}`);
}

/**
 * `setChangeActor` as an expression, for a caller that has a statement to run first anyway (the
 * entities' reference lookup): the setting is made by that statement, one round trip fewer.
 */
export function changeActorSetting(actor: ChangeActor, at: Date): SQL {
  const id = actor.kind === 'system' ? null : actor.id;
  const name = actor.kind === 'staff' ? actor.name : null;
  return sql`set_config('sportello.actor', json_build_object('kind', ${actor.kind}::text,
      'id', ${id}::int,
      'name', coalesce(${name}::text, (select c.referent_name from contacts c
        where ${actor.kind}::text = 'contact' and c.id = ${id}::int),
        (select k.name from api_keys k where ${actor.kind}::text = 'api_key' and k.id = ${id}::int), ''),
      'at', ${at.toISOString()}::text)::text, true)`;
}

/** Who made a change, as answers show it (alias `ch` over ticket_changes). */
const actorJson = `json_build_object(
  'kind', case ch.actor_kind when 'contact' then 'contact' when 'system' then 'system' else 'agent' end,
  'name', ch.actor_name)`;

const valueJson = (ext: string, name: string) =>
  `case when ch.${name} is null and ch.${ext} is null then null
    else json_build_object('id', ch.${ext}, 'name', coalesce(ch.${name}, '')) end`;

/**
 * SQL (text) of a ticket's timeline as a JSON array, oldest first, for a ticket alias `t`. The
 * customer's (`publicOnly`) holds the step changes only, as `{id, at, kind, fromStep, toStep, by}`; the
 * staff's every change as `{id, at, kind, public, from, to, by}`.
 */
export function timelineJson(publicOnly: boolean): string {
  const fields = publicOnly
    ? `'fromStep', ${valueJson('from_ext', 'from_name')}, 'toStep', ${valueJson('to_ext', 'to_name')}`
    : `'public', ch.public, 'from', ${valueJson('from_ext', 'from_name')},
       'to', ${valueJson('to_ext', 'to_name')}`;
  return `(select coalesce(json_agg(json_build_object('id', ch.id, 'at', ${isoText('ch.at')},
      'kind', ch.kind, ${fields}, 'by', ${actorJson}) order by ch.id), '[]'::json)
    from ticket_changes ch where ch.ticket_id = t.id${publicOnly ? ' and ch.public' : ''})`;
}
