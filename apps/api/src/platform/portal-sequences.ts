/**
 * The portal's own numbering of rows it creates, continuing after the back office's ids. Ids travel
 * as JSON numbers, exact up to 2^53 − 1 (`EXT_ID_MAX`): a client may give any id up to that, so the
 * next one after the largest may not exist; numbering then takes the lowest free ids instead, and
 * never writes an id an answer could not carry.
 */
import { EXT_ID_MAX } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import { conflict } from './errors';
import { queryRows, type Queryable } from './sql-json';

export type SeqColumn = 'ticket_seq' | 'comment_seq' | 'attachment_seq' | 'document_seq' | 'agent_seq';
const SEQ_TABLE: Record<SeqColumn, ExtIdTable> = {
  ticket_seq: 'tickets',
  comment_seq: 'ticket_comments',
  attachment_seq: 'ticket_attachments',
  document_seq: 'documents',
  agent_seq: 'agents',
};

/** The tables whose rows carry a back-office id (`ext_id`, unique per portal). */
export type ExtIdTable =
  | 'tickets'
  | 'ticket_comments'
  | 'ticket_attachments'
  | 'documents'
  | 'agents'
  | 'companies'
  | 'contacts'
  | 'invoices'
  | 'estimates'
  | 'activity_reports'
  | 'activity_contracts'
  | 'service_contracts'
  | 'recurring_advances'
  | 'public_files'
  | 'tags'
  | 'wiki_folders'
  | 'wiki_elements'
  | 'ticket_types'
  | 'status_steps'
  | 'assignee_groups';

/**
 * The first of the lowest `count` consecutive ids (1 … EXT_ID_MAX) no row of the portal in `table`
 * holds: for when the ids after the largest are used up. Reads the portal's ids in order, once.
 */
async function lowestFreeRun(tx: Queryable, table: ExtIdTable, portalId: number, count: number) {
  const t = sql.raw(table);
  const rows = await queryRows<{ first: unknown }>(
    tx,
    sql`select coalesce(
        (select 1 where not exists (select 1 from ${t}
          where portal_id = ${portalId}::int and ext_id between 1 and ${count}::bigint)),
        (select ext_id + 1 from (
            select ext_id, lead(ext_id) over (order by ext_id) as next from ${t}
            where portal_id = ${portalId}::int and ext_id >= 1) g
          where coalesce(next, ${EXT_ID_MAX + 1}::bigint) - ext_id > ${count}::bigint
          order by ext_id limit 1)) as first`,
  );
  const first = rows[0]?.first;
  if (first === null || first === undefined)
    throw conflict(`No free id is left in ${table}: give one`, 'conflict');
  return Number(first);
}

/**
 * The next id after the largest the portal holds in `table` (for a create that names none), or the
 * lowest free one once the largest is EXT_ID_MAX. The caller holds the portal's lock.
 */
export async function nextExtId(tx: Queryable, table: ExtIdTable, portalId: number): Promise<number> {
  const rows = await queryRows<{ top: unknown }>(
    tx,
    sql`select coalesce(max(ext_id), 0) as top from ${sql.raw(table)} where portal_id = ${portalId}::int`,
  );
  const top = Number(rows[0]!.top);
  return top < EXT_ID_MAX ? top + 1 : lowestFreeRun(tx, table, portalId, 1);
}

/**
 * Reserves `count` back-office ids of a portal's sequence and answers the first. The sequence never
 * goes below the largest imported id, so portal-created rows follow the back office's. The update
 * locks the portal row until the transaction ends, which also serialises the annual numbering. When
 * the sequence would pass EXT_ID_MAX, the lowest free ids are taken and the sequence stays.
 */
export async function reserveExtIds(
  tx: Queryable,
  portalId: number,
  column: SeqColumn,
  count = 1,
): Promise<number> {
  const col = sql.raw(column);
  const table = SEQ_TABLE[column];
  const next = sql`greatest(${col},
    (select coalesce(max(ext_id), 0) from ${sql.raw(table)} where portal_id = ${portalId})) + ${count}`;
  const rows = await queryRows<{ last: number }>(
    tx,
    sql`update portals set ${col} = ${next}
      where id = ${portalId} and ${next} <= ${EXT_ID_MAX}::bigint returning ${col} as last`,
  );
  if (rows[0]) return Number(rows[0].last) - count + 1;
  await queryRows(tx, sql`select 1 from portals where id = ${portalId}::int for update`);
  return lowestFreeRun(tx, table, portalId, count);
}
