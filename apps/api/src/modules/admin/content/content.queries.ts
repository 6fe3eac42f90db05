/**
 * Reads of the desk's content section and of signature requests as an entity: pickers, a company's
 * documents by kind and signature requests, in keyset pages on indexed orders.
 */
import { sql, type SQL } from 'drizzle-orm';
import type {
  ContentContact,
  ContentItem,
  ContentKind,
  SignatureRequestEntity,
  SignatureStatus,
} from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import { likeEscape, queryRows, tsParam, type Queryable } from '../../../platform/sql-json';

const num = (v: unknown) => Number(v);
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export async function findCompanies(db: Queryable, portalId: number, q: string | undefined) {
  const term = q?.trim() ?? '';
  const byId = /^\d{1,15}$/.test(term) ? sql` or ext_id = ${Number(term)}::bigint` : sql``;
  const where = term ? sql`and (company_name ilike ${`%${likeEscape(term)}%`}${byId})` : sql``;
  const rows = await queryRows<{ ext_id: number; company_name: string }>(
    db,
    sql`select ext_id, company_name from companies where portal_id = ${portalId}::int ${where}
      order by company_name, ext_id limit 20`,
  );
  return rows.map((r) => ({ id: num(r.ext_id), companyName: r.company_name }));
}

/** The company's row id, or undefined when the portal has no company with this id. */
export async function companyRow(db: Queryable, portalId: number, extId: number) {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from companies where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  return rows[0] ? num(rows[0].id) : undefined;
}

export async function companyContacts(db: Queryable, companyRowId: number): Promise<ContentContact[]> {
  const rows = await queryRows<{
    ext_id: number;
    referent_name: string;
    email: string | null;
    phone: string | null;
  }>(
    db,
    sql`select ext_id, referent_name, email, phone from contacts where company_id = ${companyRowId}::int
      order by referent_name, ext_id limit 500`,
  );
  return rows.map((r) => ({
    contactId: num(r.ext_id),
    referentName: r.referent_name,
    email: r.email,
    hasPhone: !!r.phone?.trim(),
  }));
}

/** Per kind: its table, title, date and extra columns (all tables are keyed by (company_id, ext_id)). */
const KIND_SQL: Record<
  ContentKind,
  { from: SQL; title: SQL; date: SQL; total: SQL; contact: SQL; task: SQL }
> = {
  invoice: {
    from: sql`invoices x`,
    title: sql`x.document_number`,
    date: sql`x.invoice_date`,
    total: sql`x.total`,
    contact: sql`null::bigint`,
    task: sql`null::bigint`,
  },
  estimate: {
    from: sql`estimates x`,
    title: sql`x.estimate_name`,
    date: sql`x.estimate_creation_date`,
    total: sql`x.total`,
    contact: sql`null::bigint`,
    task: sql`null::bigint`,
  },
  document: {
    from: sql`documents x`,
    title: sql`x.document_name`,
    date: sql`x.create_date`,
    total: sql`null::numeric`,
    contact: sql`(select c.ext_id from contacts c where c.id = x.contact_id)`,
    task: sql`null::bigint`,
  },
  report: {
    from: sql`activity_reports x`,
    title: sql`x.name`,
    date: sql`x.date_time`,
    total: sql`null::numeric`,
    contact: sql`null::bigint`,
    task: sql`(select t.ext_id from tickets t where t.id = x.ticket_id)`,
  },
};

export async function companyItems(
  db: Queryable,
  companyRowId: number,
  kind: ContentKind,
  cursor: string | undefined,
  limit: number,
): Promise<{ items: ContentItem[]; nextCursor: string | null }> {
  const k = KIND_SQL[kind];
  const after = cursor ? sql`and x.ext_id < ${cursor}::bigint` : sql``;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select x.ext_id, ${k.title} as title, ${k.date} as date, ${k.total} as total,
        ${k.contact} as contact_ext, ${k.task} as task_ext,
        f.id as file_id, f.name as file_name, f.content_type, f.size
      from ${k.from} join files f on f.id = x.file_id
      where x.company_id = ${companyRowId}::int ${after}
      order by x.ext_id desc limit ${limit + 1}`,
  );
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map((r) => ({
    kind,
    id: num(r.ext_id),
    title: String(r.title),
    date: iso(r.date)!,
    total: r.total === null || r.total === undefined ? null : num(r.total),
    contactId: r.contact_ext === null || r.contact_ext === undefined ? null : num(r.contact_ext),
    taskId: r.task_ext === null || r.task_ext === undefined ? null : num(r.task_ext),
    file: {
      id: num(r.file_id),
      name: String(r.file_name),
      contentType: String(r.content_type),
      size: num(r.size),
    },
  }));
  return { items, nextCursor: more ? String(items.at(-1)!.id) : null };
}

// ---- signature requests ------------------------------------------------------------------------------

export interface StoredSignature extends Omit<SignatureRequestEntity, 'link'> {
  rowId: number;
  signedSha256: string | null;
}

export function statusOf(
  r: {
    signedAt: string | null;
    cancelledAt: string | null;
    expiresAt: string | null;
    openedAt: string | null;
  },
  now: Date,
): SignatureStatus {
  if (r.signedAt) return 'signed';
  if (r.cancelledAt) return 'cancelled';
  if (r.expiresAt && new Date(r.expiresAt).getTime() <= now.getTime()) return 'expired';
  return r.openedAt ? 'opened' : 'pending';
}

/** The SQL of each status, the same rules as statusOf. */
function statusWhere(status: SignatureStatus, now: Date): SQL {
  const open = sql`r.signed_at is null and r.cancelled_at is null and (r.expires_at is null or r.expires_at > ${tsParam(now)})`;
  switch (status) {
    case 'signed':
      return sql`r.signed_at is not null`;
    case 'cancelled':
      return sql`r.signed_at is null and r.cancelled_at is not null`;
    case 'expired':
      return sql`r.signed_at is null and r.cancelled_at is null and r.expires_at <= ${tsParam(now)}`;
    case 'opened':
      return sql`${open} and r.opened_at is not null`;
    case 'pending':
      return sql`${open} and r.opened_at is null`;
  }
}

const signatureSelect = sql`select r.id as row_id, r.document_key, r.document_name, r.require_otp,
    r.created_at, r.opened_at, r.signed_at, r.cancelled_at, r.expires_at,
    c.ext_id as contact_ext, c.referent_name, co.ext_id as company_ext,
    f.id as file_id, f.name as file_name, f.content_type, f.size,
    sf.id as sf_id, sf.name as sf_name, sf.content_type as sf_type, sf.size as sf_size, sf.sha256 as sf_sha
  from signature_requests r join contacts c on c.id = r.contact_id join companies co on co.id = c.company_id
  join files f on f.id = r.file_id left join files sf on sf.id = r.signed_file_id`;

function signatureOf(r: Record<string, unknown>, now: Date): StoredSignature {
  const dates = {
    createdAt: iso(r.created_at),
    openedAt: iso(r.opened_at),
    signedAt: iso(r.signed_at),
    cancelledAt: iso(r.cancelled_at),
    expiresAt: iso(r.expires_at),
  };
  return {
    rowId: num(r.row_id),
    documentKey: String(r.document_key),
    companyId: num(r.company_ext),
    contactId: num(r.contact_ext),
    contactName: String(r.referent_name),
    documentName: String(r.document_name),
    method: r.require_otp ? 'sms_code' : 'acceptance',
    status: statusOf(dates, now),
    ...dates,
    file: {
      id: num(r.file_id),
      name: String(r.file_name),
      contentType: String(r.content_type),
      size: num(r.size),
    },
    signedFile:
      r.sf_id === null || r.sf_id === undefined
        ? null
        : { id: num(r.sf_id), name: String(r.sf_name), contentType: String(r.sf_type), size: num(r.sf_size) },
    signedSha256: (r.sf_sha as string | null) ?? null,
  };
}

export async function readSignature(
  db: Queryable,
  portalId: number,
  documentKey: string,
  now: Date,
  lock = false,
): Promise<StoredSignature | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${signatureSelect} where r.portal_id = ${portalId}::int and r.document_key = ${documentKey}
      ${lock ? sql`for update of r` : sql``}`,
  );
  return rows[0] && signatureOf(rows[0], now);
}

export async function listSignatures(
  db: Queryable,
  portalId: number,
  q: { status?: SignatureStatus; companyId?: number; contactId?: number; cursor?: string; limit: number },
  now: Date,
): Promise<{ items: StoredSignature[]; nextCursor: string | null }> {
  const filters: SQL[] = [sql`r.portal_id = ${portalId}::int`];
  if (q.cursor) filters.push(sql`r.id < ${q.cursor}::int`);
  if (q.status) filters.push(statusWhere(q.status, now));
  if (q.companyId !== undefined) filters.push(sql`co.ext_id = ${q.companyId}::bigint`);
  if (q.contactId !== undefined) filters.push(sql`c.ext_id = ${q.contactId}::bigint`);
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${signatureSelect} where ${sql.join(filters, sql` and `)} order by r.id desc limit ${q.limit + 1}`,
  );
  const more = rows.length > q.limit;
  const items = rows.slice(0, q.limit).map((r) => signatureOf(r, now));
  return { items, nextCursor: more ? String(items.at(-1)!.rowId) : null };
}

export async function signatureTimeline(db: Queryable, requestRowId: number) {
  const rows = await queryRows<{ event: string; at: string; details: unknown }>(
    db,
    sql`select event, at, details from signature_events where request_id = ${requestRowId}::int
      order by at, id`,
  );
  return rows.map((r) => {
    const d = (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, unknown>;
    const detail = typeof d?.to === 'string' ? d.to : typeof d?.users === 'number' ? String(d.users) : null;
    return { event: r.event, at: iso(r.at)!, detail };
  });
}

/** The contact a request is for: row ids and the phone (SMS). */
export async function contactForSignature(tx: Tx, portalId: number, contactExt: number) {
  const rows = await queryRows<{ id: number; company_id: number; phone: string | null; lang: string }>(
    tx,
    sql`select c.id, c.company_id, c.phone, p.default_language as lang
      from contacts c join portals p on p.id = c.portal_id
      where c.portal_id = ${portalId}::int and c.ext_id = ${contactExt}::bigint`,
  );
  const r = rows[0];
  return (
    r && {
      id: num(r.id),
      companyId: num(r.company_id),
      phone: r.phone?.trim() || null,
      /** The portal's language: the SMS has no user to take one from. */
      language: r.lang,
    }
  );
}

/** How many users of the contact were notified of the request by e-mail (the trigger of 0013). */
export async function notifiedUsers(tx: Tx, contactRowId: number, documentKey: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from notifications
      where contact_id = ${contactRowId}::int and kind = 'signatureRequest' and ref_key = ${documentKey}`,
  );
  return num(rows[0]?.n ?? 0);
}

/** A line of the request's timeline (signature_events, the signing module's audit trail). */
export async function insertEvent(
  tx: Tx,
  requestId: number,
  e: { event: string; at: Date; ip: null; userAgent: null; details: Record<string, unknown> },
): Promise<void> {
  await tx.execute(sql`insert into signature_events (request_id, event, at, details)
    values (${requestId}::int, ${e.event}, ${tsParam(e.at)}, ${JSON.stringify(e.details)}::jsonb)`);
}

/** A `files` row for bytes recorded in the store in this transaction (FileStore.record). */
export async function insertStoredFile(
  tx: Tx,
  portalId: number,
  blob: { sha256: string; size: number },
  name: string,
  contentType: string,
  now: Date,
): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`insert into files (portal_id, sha256, name, content_type, size, created_at, attached_at)
      values (${portalId}::int, ${blob.sha256}, ${name}, ${contentType}, ${blob.size}, ${tsParam(now)}, ${tsParam(now)})
      returning id`,
  );
  return num(rows[0]!.id);
}
