/** SQL of the bell and the e-mail switches: always one user through one contact. */
import {
  NOTIFICATION_LIST_LIMIT,
  type NotificationList,
  type NotificationPreferences,
} from '@sportello/contracts';
import { eq, sql, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema';
import { isoText, queryRows, tsParam, type Queryable } from '../../platform/sql-json';

export interface Recipient {
  userId: number;
  contactId: number;
}

/** Counted up to this many; the bell shows "99+" beyond. */
const UNREAD_COUNT_CAP = 100;

const mine = (r: Recipient) => sql`n.contact_id = ${r.contactId} and n.user_id = ${r.userId}`;

/** The unread count and the latest notifications, in one statement. */
export async function listNotifications(db: Queryable, r: Recipient): Promise<NotificationList> {
  const rows = await queryRows<{ r: NotificationList | string }>(
    db,
    sql`select json_build_object(
        'unread', (select count(*) from (select 1 from notifications n
          where ${mine(r)} and n.read_at is null limit ${UNREAD_COUNT_CAP}) u),
        'items', (select coalesce(json_agg(x.j order by x.id desc), '[]'::json) from (
          select n.id, json_build_object('id', n.key, 'kind', n.kind, 'title', n.title, 'detail', n.detail,
            'refId', n.ref_ext_id, 'refKey', n.ref_key, 'createdAt', ${sql.raw(isoText('n.created_at'))},
            'read', n.read_at is not null) as j
          from notifications n where ${mine(r)}
          order by n.id desc limit ${NOTIFICATION_LIST_LIMIT}) x)
      ) as r`,
  );
  const v = rows[0]!.r;
  const list = (typeof v === 'string' ? JSON.parse(v) : v) as NotificationList;
  return { unread: Number(list.unread), items: list.items };
}

/** Marks the given notifications (keys) read, or all when `keys` is null. Others' keys match nothing. */
export async function markRead(db: Queryable, r: Recipient, keys: string[] | null, now: Date): Promise<void> {
  const which: SQL = keys === null ? sql`true` : sql`n.key = any(${sql.param(keys)}::uuid[])`;
  await db.execute(
    sql`update notifications n set read_at = ${tsParam(now)} where ${mine(r)} and n.read_at is null and ${which}`,
  );
}

const prefColumns = {
  agentReply: users.notifyAgentComments,
  statusChange: users.notifyStatusChanges,
  newDocument: users.notifyNewDocuments,
  newInvoice: users.notifyNewInvoices,
  signatureRequest: users.notifySignatureRequests,
};

export async function getPreferences(db: Queryable, userId: number): Promise<NotificationPreferences> {
  const rows = await db.select(prefColumns).from(users).where(eq(users.id, userId));
  return rows[0]!;
}

export async function setPreferences(
  db: Queryable,
  userId: number,
  p: NotificationPreferences,
): Promise<NotificationPreferences> {
  const rows = await db
    .update(users)
    .set({
      notifyAgentComments: p.agentReply,
      notifyStatusChanges: p.statusChange,
      notifyNewDocuments: p.newDocument,
      notifyNewInvoices: p.newInvoice,
      notifySignatureRequests: p.signatureRequest,
    })
    .where(eq(users.id, userId))
    .returning(prefColumns);
  return rows[0]!;
}
