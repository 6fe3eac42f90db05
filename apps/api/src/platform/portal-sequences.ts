/** The portal's own numbering of rows it creates, continuing after the back office's ids. */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from './sql-json';

export type SeqColumn = 'ticket_seq' | 'comment_seq' | 'attachment_seq' | 'document_seq' | 'agent_seq';
const SEQ_TABLE: Record<SeqColumn, string> = {
  ticket_seq: 'tickets',
  comment_seq: 'ticket_comments',
  attachment_seq: 'ticket_attachments',
  document_seq: 'documents',
  agent_seq: 'agents',
};

/**
 * Reserves `count` back-office ids of a portal's sequence and answers the first. The sequence never
 * goes below the largest imported id, so portal-created rows follow the back office's. The update
 * locks the portal row until the transaction ends, which also serialises the annual numbering.
 */
export async function reserveExtIds(
  tx: Queryable,
  portalId: number,
  column: SeqColumn,
  count = 1,
): Promise<number> {
  const col = sql.raw(column);
  const table = sql.raw(SEQ_TABLE[column]);
  const rows = await queryRows<{ last: number }>(
    tx,
    sql`update portals set ${col} = greatest(${col},
        (select coalesce(max(ext_id), 0) from ${table} where portal_id = ${portalId})) + ${count}
      where id = ${portalId} returning ${col} as last`,
  );
  const last = Number(rows[0]!.last);
  return last - count + 1;
}
