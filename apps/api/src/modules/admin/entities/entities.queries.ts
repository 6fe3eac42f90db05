/**
 * SQL of the changes one by one: each entity read as the API shows it (the import format's fields, the
 * back office's ids), which is also its audit image and its event data; the checks of references; the
 * portal's next free id; deletes; the audit log.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  permissionFlags,
  ticketPriorities,
  type AuditActorType,
  type CompanyEntity,
  type ContactEntity,
  type DocumentEntity,
  type ReportEntity,
  type EstimateEntity,
  type InvoiceEntity,
  type PublicFileEntity,
  type TicketEntity,
  type UserEntity,
} from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import { newToken, sha256 } from '../../../platform/auth';
import { queryRows, type Queryable } from '../../../platform/sql-json';

export const num = (v: unknown) => Number(v);
export const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
export const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** An entity image with the internal id of its row (which never leaves the server). */
export type Stored<T> = T & { rowId: number; stepRowId?: number };

/** Locks the portal row: creates that pick the next free id and deletes that check use serialise. */
export async function lockPortal(tx: Tx, portalId: number): Promise<void> {
  await queryRows(tx, sql`select 1 from portals where id = ${portalId}::int for update`);
}

export { nextExtId } from '../../../platform/portal-sequences';

// ---- companies -----------------------------------------------------------------------------------

export async function readCompany(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<CompanyEntity> | undefined> {
  const rows = await queryRows<{ row_id: number; ext_id: unknown; company_name: string }>(
    db,
    sql`select id as row_id, ext_id, company_name from companies
      where portal_id = ${portalId}::int and ext_id = ${extId}::bigint ${lock ? sql`for update` : sql``}`,
  );
  const r = rows[0];
  return r && { rowId: num(r.row_id), id: num(r.ext_id), companyName: r.company_name };
}

/** Whether anything of the company still exists (a delete would take it along). */
export async function companyInUse(tx: Tx, companyId: number): Promise<string | undefined> {
  const tables = [
    'contacts',
    'tickets',
    'invoices',
    'estimates',
    'documents',
    'activity_reports',
    'activity_contracts',
    'service_contracts',
    'recurring_advances',
    'wiki_folders',
    'wiki_elements',
  ];
  const rows = await queryRows<{ t: string }>(
    tx,
    sql.raw(
      tables
        .map((t) => `(select '${t}' as t from ${t} where company_id = ${Number(companyId)} limit 1)`)
        .join(' union all '),
    ),
  );
  return rows[0]?.t;
}

export async function deleteCompanyRow(tx: Tx, rowId: number): Promise<void> {
  await queryRows(tx, sql`delete from companies where id = ${rowId}::int`);
}

// ---- contacts ------------------------------------------------------------------------------------

const flagColumns = permissionFlags.map((f) => `c.${f.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`)}`);

export async function readContact(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<ContactEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select c.id as row_id, c.ext_id, co.ext_id as company_ext, c.referent_name, c.email, c.phone,
        ${sql.raw(flagColumns.map((col, i) => `${col} as f${i}`).join(', '))}
      from contacts c join companies co on co.id = c.company_id
      where c.portal_id = ${portalId}::int and c.ext_id = ${extId}::bigint
      ${lock ? sql`for update of c` : sql``}`,
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    rowId: num(r.row_id),
    contactId: num(r.ext_id),
    companyId: num(r.company_ext),
    referentName: String(r.referent_name),
    email: (r.email as string | null) ?? null,
    phone: (r.phone as string | null) ?? null,
    permissions: Object.fromEntries(
      permissionFlags.map((f, i) => [f, r[`f${i}`] === true || r[`f${i}`] === 't']),
    ) as ContactEntity['permissions'],
  };
}

/** What a contact's delete would take along besides its links to users. */
export async function contactInUse(tx: Tx, contactId: number): Promise<string | undefined> {
  const rows = await queryRows<{ t: string }>(
    tx,
    sql`(select 'documents' as t from documents where contact_id = ${contactId}::int limit 1)
      union all (select 'signature requests' from signature_requests where contact_id = ${contactId}::int limit 1)
      union all (select 'ticket comments' from ticket_comments where sender_contact_id = ${contactId}::int limit 1)`,
  );
  return rows[0]?.t;
}

/**
 * Deletes a contact. Its users lose it; a user left without any contact of this portal loses the
 * portal, so their sessions there end now (sessions are per user: every session of such a user ends).
 */
export async function deleteContactRow(tx: Tx, rowId: number, now: Date): Promise<void> {
  await queryRows(
    tx,
    sql`with gone as (delete from user_contacts where contact_id = ${rowId}::int returning user_id)
      update sessions set revoked_at = ${now.toISOString()}::timestamptz
      where revoked_at is null and user_id in (select user_id from gone)`,
  );
  await queryRows(tx, sql`delete from contacts where id = ${rowId}::int`);
}

// ---- tickets -------------------------------------------------------------------------------------

export async function readTicket(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<TicketEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select t.id as row_id, t.status_step_id as step_row, t.ext_id, co.ext_id as company_ext, t.title, t.description, t.ticket_number,
        t.internal_annual_progressive, t.created_on, tt.ext_id as type_ext, st.ext_id as step_ext,
        t.next_planned_activity_info, cc.ext_id as creator_ext, ag.ext_id as group_ext,
        au.ext_id as agent_ext, we.ext_id as wiki_ext, t.priority, t.due_at,
        (select coalesce(json_agg(tg.name order by lower(tg.name), tg.id), '[]'::json)
          from ticket_tag_links tl join ticket_tags tg on tg.id = tl.tag_id where tl.ticket_id = t.id) as tag_names
      from tickets t
      join companies co on co.id = t.company_id
      join ticket_types tt on tt.id = t.type_id
      join status_steps st on st.id = t.status_step_id
      left join contacts cc on cc.id = t.creator_contact_id
      left join assignee_groups ag on ag.id = t.assigned_group_id
      left join agents au on au.id = t.assigned_user_id
      left join wiki_elements we on we.id = t.wiki_element_id
      where t.portal_id = ${portalId}::int and t.ext_id = ${extId}::bigint
      ${lock ? sql`for update of t` : sql``}`,
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    rowId: num(r.row_id),
    stepRowId: num(r.step_row),
    id: num(r.ext_id),
    companyId: num(r.company_ext),
    title: String(r.title),
    description: String(r.description),
    ticketNumber: String(r.ticket_number),
    internalAnnualProgressive: num(r.internal_annual_progressive),
    createdOn: iso(r.created_on),
    taskTypeId: num(r.type_ext),
    statusStepId: num(r.step_ext),
    nextPlannedActivityInfo: (r.next_planned_activity_info as string | null) ?? null,
    creatorContactId: numOrNull(r.creator_ext),
    assignedGroupId: numOrNull(r.group_ext),
    assignedUserId: numOrNull(r.agent_ext),
    wikiElementId: numOrNull(r.wiki_ext),
    priority: ticketPriorities[num(r.priority)] ?? 'normal',
    dueAt: r.due_at === null || r.due_at === undefined ? null : iso(r.due_at),
    tags: (typeof r.tag_names === 'string' ? JSON.parse(r.tag_names) : r.tag_names) as string[],
  };
}

export async function deleteTicketRow(tx: Tx, rowId: number): Promise<void> {
  await queryRows(tx, sql`delete from tickets where id = ${rowId}::int`);
}

// ---- references ----------------------------------------------------------------------------------

// ---- invoices and estimates ---------------------------------------------------------------------

const fileOf = (r: Record<string, unknown>) => ({
  id: num(r.file_id),
  name: String(r.file_name),
  contentType: String(r.content_type),
  size: num(r.size),
});

export async function readInvoice(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<InvoiceEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select i.id as row_id, i.ext_id, co.ext_id as company_ext, i.document_number, i.total, i.invoice_date,
        i.due_date, i.paid_date, f.id as file_id, f.name as file_name, f.content_type, f.size
      from invoices i join companies co on co.id = i.company_id join files f on f.id = i.file_id
      where i.portal_id = ${portalId}::int and i.ext_id = ${extId}::bigint
      ${lock ? sql`for update of i` : sql``}`,
  );
  const r = rows[0];
  return (
    r && {
      rowId: num(r.row_id),
      id: num(r.ext_id),
      companyId: num(r.company_ext),
      documentNumber: String(r.document_number),
      total: num(r.total),
      invoiceDate: iso(r.invoice_date),
      dueDate: r.due_date == null ? null : iso(r.due_date),
      paidDate: r.paid_date == null ? null : iso(r.paid_date),
      file: fileOf(r),
    }
  );
}

export async function readEstimate(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<EstimateEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.id as row_id, e.ext_id, co.ext_id as company_ext, e.estimate_name, e.estimate_number,
        e.revision_number, e.total, e.estimate_creation_date,
        f.id as file_id, f.name as file_name, f.content_type, f.size
      from estimates e join companies co on co.id = e.company_id join files f on f.id = e.file_id
      where e.portal_id = ${portalId}::int and e.ext_id = ${extId}::bigint
      ${lock ? sql`for update of e` : sql``}`,
  );
  const r = rows[0];
  return (
    r && {
      rowId: num(r.row_id),
      id: num(r.ext_id),
      companyId: num(r.company_ext),
      estimateName: String(r.estimate_name),
      estimateNumber: String(r.estimate_number),
      revisionNumber: num(r.revision_number),
      total: num(r.total),
      estimateCreationDate: iso(r.estimate_creation_date),
      file: fileOf(r),
    }
  );
}

export async function readDocument(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<DocumentEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select d.id as row_id, d.ext_id, co.ext_id as company_ext, c.ext_id as contact_ext, d.document_name,
        d.create_date, f.id as file_id, f.name as file_name, f.content_type, f.size
      from documents d join companies co on co.id = d.company_id join contacts c on c.id = d.contact_id
      join files f on f.id = d.file_id
      where d.portal_id = ${portalId}::int and d.ext_id = ${extId}::bigint
      ${lock ? sql`for update of d` : sql``}`,
  );
  const r = rows[0];
  return (
    r && {
      rowId: num(r.row_id),
      id: num(r.ext_id),
      companyId: num(r.company_ext),
      contactId: num(r.contact_ext),
      documentName: String(r.document_name),
      createDate: iso(r.create_date),
      file: fileOf(r),
    }
  );
}

export async function readReport(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<ReportEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select r.id as row_id, r.ext_id, co.ext_id as company_ext, r.name, r.date_time, t.ext_id as ticket_ext,
        f.id as file_id, f.name as file_name, f.content_type, f.size
      from activity_reports r join companies co on co.id = r.company_id join files f on f.id = r.file_id
      left join tickets t on t.id = r.ticket_id
      where r.portal_id = ${portalId}::int and r.ext_id = ${extId}::bigint
      ${lock ? sql`for update of r` : sql``}`,
  );
  const r = rows[0];
  return (
    r && {
      rowId: num(r.row_id),
      id: num(r.ext_id),
      companyId: num(r.company_ext),
      name: String(r.name),
      dateTime: iso(r.date_time),
      taskId: numOrNull(r.ticket_ext),
      file: fileOf(r),
    }
  );
}

const publicFileSelect = sql`select pf.id as row_id, pf.ext_id, pf.file_name,
    f.id as file_id, f.name as file_name_stored, f.content_type, f.size
  from public_files pf join files f on f.id = pf.file_id`;

const publicFileOf = (r: Record<string, unknown>): Stored<PublicFileEntity> => ({
  rowId: num(r.row_id),
  id: num(r.ext_id),
  fileName: String(r.file_name),
  file: fileOf({ ...r, file_name: r.file_name_stored }),
});

export async function readPublicFile(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<PublicFileEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${publicFileSelect} where pf.portal_id = ${portalId}::int and pf.ext_id = ${extId}::bigint
      ${lock ? sql`for update of pf` : sql``}`,
  );
  return rows[0] && publicFileOf(rows[0]);
}

/** The portal's public files by name, as the customers' list orders them (at most `limit`). */
export async function listPublicFileEntities(
  db: Queryable,
  portalId: number,
  limit: number,
): Promise<PublicFileEntity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${publicFileSelect} where pf.portal_id = ${portalId}::int
      order by lower(pf.file_name), pf.ext_id limit ${limit}::int`,
  );
  return rows.map((r) => {
    const { rowId: _r, ...e } = publicFileOf(r);
    return e;
  });
}

/** Deletes a row of a company's file-carrying list (the file row stays for the sweeper's rules). */
export async function deleteRow(
  tx: Tx,
  table:
    | 'invoices'
    | 'estimates'
    | 'documents'
    | 'activity_reports'
    | 'activity_contracts'
    | 'service_contracts'
    | 'recurring_advances'
    | 'public_files'
    | 'appointment_links'
    | 'task_links'
    | 'tags'
    | 'wiki_folders'
    | 'wiki_elements',
  rowId: number,
): Promise<void> {
  await queryRows(tx, sql`delete from ${sql.raw(table)} where id = ${rowId}::int`);
}

// ---- users ---------------------------------------------------------------------------------------

/**
 * A user as one portal sees it, found by name (case-insensitive) among the users holding a contact of
 * the portal: a user of other portals only is not there.
 */
export async function readUser(
  db: Queryable,
  portalId: number,
  userName: string,
  now: Date,
): Promise<(Stored<UserEntity> & { portalLanguage: string; portalName: string }) | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select u.id as row_id, u.user_name, u.email, u.password_hash is not null as active, u.language,
        p.name as portal_name, p.default_language,
        exists (select 1 from user_tokens t where t.user_id = u.id and t.purpose = 'invite'
          and t.used_at is null and t.expires_at > ${now.toISOString()}::timestamptz) as pending,
        array_agg(c.ext_id order by c.ext_id) as contacts
      from users u
      join user_contacts uc on uc.user_id = u.id
      join contacts c on c.id = uc.contact_id and c.portal_id = ${portalId}::int
      join portals p on p.id = c.portal_id
      where lower(u.user_name) = lower(${userName})
      group by u.id, p.id`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const list = Array.isArray(r.contacts)
    ? r.contacts
    : String(r.contacts).replace(/[{}]/g, '').split(',').filter(Boolean);
  return {
    rowId: num(r.row_id),
    userName: String(r.user_name),
    email: (r.email as string | null) ?? null,
    contactIds: list.map(num),
    status: r.active === true || r.active === 't' ? 'active' : 'invited',
    invitationPending: r.pending === true || r.pending === 't',
    portalName: String(r.portal_name),
    portalLanguage: String((r.language as string | null) ?? r.default_language),
  };
}

/** Whether any user (of any portal) has this name, case-insensitively. */
export async function userNameTaken(db: Queryable, userName: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select 1 from users where lower(user_name) = lower(${userName})`);
  return rows.length > 0;
}

/** The contact ids (back office's) among `ids` that the portal lacks. */
export async function missingContacts(db: Queryable, portalId: number, ids: number[]): Promise<number[]> {
  const rows = await queryRows<{ ext_id: unknown }>(
    db,
    sql`select ext_id from contacts where portal_id = ${portalId}::int
      and ext_id = any(${`{${ids.map(Number).join(',')}}`}::bigint[])`,
  );
  const have = new Set(rows.map((r) => num(r.ext_id)));
  return ids.filter((id) => !have.has(id));
}

/** Marks open links of the user used (all purposes, or one); answers how many were open. */
export async function retireLinks(
  tx: Tx,
  userId: number,
  now: Date,
  purpose: 'invite' | 'recovery',
): Promise<number> {
  const rows = await queryRows(
    tx,
    sql`update user_tokens set used_at = ${now.toISOString()}::timestamptz
      where user_id = ${userId}::int and purpose = ${purpose} and used_at is null returning 1`,
  );
  return rows.length;
}

/** A new single-use link; only its SHA-256 is stored. Answers the token for the e-mail. */
export async function insertLink(
  tx: Tx,
  userId: number,
  purpose: 'invite' | 'recovery',
  now: Date,
  ttlMs: number,
): Promise<string> {
  const token = newToken();
  await queryRows(
    tx,
    sql`insert into user_tokens (token_hash, user_id, purpose, expires_at, created_at)
      values (${sha256(token)}, ${userId}::int, ${purpose}, ${new Date(now.getTime() + ttlMs).toISOString()}::timestamptz,
        ${now.toISOString()}::timestamptz)`,
  );
  return token;
}

/**
 * Takes the user out of the portal (its links to the portal's contacts) and ends every session of the
 * user now: a token issued before must not keep working anywhere.
 */
export async function removeUserFromPortal(tx: Tx, userId: number, portalId: number, now: Date) {
  await queryRows(
    tx,
    sql`delete from user_contacts uc using contacts c
      where c.id = uc.contact_id and c.portal_id = ${portalId}::int and uc.user_id = ${userId}::int`,
  );
  await queryRows(
    tx,
    sql`update sessions set revoked_at = ${now.toISOString()}::timestamptz
      where user_id = ${userId}::int and revoked_at is null`,
  );
}

export interface TicketRefs {
  companyId: number;
  taskTypeId: number;
  statusStepId: number;
  assignedGroupId: number | null;
  assignedUserId: number | null;
  creatorContactId: number | null;
  wikiElementId: number | null;
}

/**
 * The internal ids of every reference of a ticket, in one statement (null where the portal lacks it;
 * the creator contact and the wiki element must belong to the ticket's company).
 */
export async function ticketRefIds(
  db: Queryable,
  portalId: number,
  r: TicketRefs,
  /** An expression to evaluate in the same statement (the change's author, `changeActorSetting`). */
  also: SQL = sql`null`,
): Promise<Record<keyof TicketRefs, number | null>> {
  const p = sql`${portalId}::int`;
  const one = (table: string, ext: number | null) =>
    sql`(select id from ${sql.raw(table)} where portal_id = ${p} and ext_id = ${ext}::bigint)`;
  const ofCompany = (table: string, ext: number | null) =>
    sql`(select x.id from ${sql.raw(table)} x join companies co on co.id = x.company_id
      where x.portal_id = ${p} and x.ext_id = ${ext}::bigint and co.ext_id = ${r.companyId}::bigint)`;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${one('companies', r.companyId)} as company, ${one('ticket_types', r.taskTypeId)} as type,
      ${one('status_steps', r.statusStepId)} as step, ${one('assignee_groups', r.assignedGroupId)} as grp,
      ${one('agents', r.assignedUserId)} as agent, ${ofCompany('contacts', r.creatorContactId)} as contact,
      ${ofCompany('wiki_elements', r.wikiElementId)} as wiki, ${also} as also`,
  );
  const x = rows[0]!;
  return {
    companyId: numOrNull(x.company),
    taskTypeId: numOrNull(x.type),
    statusStepId: numOrNull(x.step),
    assignedGroupId: numOrNull(x.grp),
    assignedUserId: numOrNull(x.agent),
    creatorContactId: numOrNull(x.contact),
    wikiElementId: numOrNull(x.wiki),
  };
}

/**
 * The fields of a ticket that `updateTicketFields` writes by row id: the back office's everyday changes
 * (step, assignee, group, type, next planned activity, title), each with its column and, for a
 * reference, the table its ext id names. None of them is checked against the ticket's company, so a
 * change of these alone needs no other field; the rest (company, creator, wiki element, number,
 * creation date, description) go through the import's writer, which checks them together.
 */
export const TICKET_ROW_FIELDS = {
  title: { column: 'title', refs: null },
  taskTypeId: { column: 'type_id', refs: 'ticket_types' },
  statusStepId: { column: 'status_step_id', refs: 'status_steps' },
  assignedGroupId: { column: 'assigned_group_id', refs: 'assignee_groups' },
  assignedUserId: { column: 'assigned_user_id', refs: 'agents' },
  nextPlannedActivityInfo: { column: 'next_planned_activity_info', refs: null },
} as const satisfies Partial<Record<keyof TicketEntity, { column: string; refs: string | null }>>;
export type TicketRowField = keyof typeof TICKET_ROW_FIELDS;

/**
 * Writes the given fields of one ticket by its row id in one statement that also resolves the ext
 * ids it names and evaluates `also` (the change's author, read by the timeline's trigger) first.
 * Only the columns given are set, so the triggers on other columns stay quiet. Answers false, having
 * written nothing, when a reference names nothing in the portal (the caller says which).
 */
export async function updateTicketFields(
  tx: Tx,
  portalId: number,
  rowId: number,
  changes: Partial<Pick<TicketEntity, TicketRowField>>,
  also: SQL,
): Promise<boolean> {
  const refs: SQL[] = [sql`${also} as also`];
  const sets: SQL[] = [];
  const found: SQL[] = [];
  for (const [field, value] of Object.entries(changes) as [TicketRowField, string | number | null][]) {
    const { column, refs: table } = TICKET_ROW_FIELDS[field];
    const col = sql.raw(column);
    if (table === null || value === null) {
      sets.push(sql`${col} = ${value}`);
      continue;
    }
    refs.push(
      sql`(select id from ${sql.raw(table)} where portal_id = ${portalId}::int and ext_id = ${value}::bigint) as ${col}`,
    );
    sets.push(sql`${col} = r.${col}`);
    found.push(sql` and r.${col} is not null`);
  }
  const rows = await queryRows(
    tx,
    sql`with r as materialized (select ${sql.join(refs, sql`, `)})
      update tickets t set ${sql.join(sets, sql`, `)} from r
      where t.id = ${rowId}::int${sql.join(found)}
      returning t.id`,
  );
  return rows.length === 1;
}

// ---- audit log -----------------------------------------------------------------------------------

// The audit row's writer is the platform's (any module's admin change writes one).
export { auditInsert, insertAudit, type AuditRow } from '../../../platform/audit';

export interface AuditFilter {
  portalId: number;
  actorType?: AuditActorType;
  staffUserId?: number;
  apiKeyId?: number;
  entity?: string;
  entityId?: string;
  action?: string;
  from?: string;
  to?: string;
  /** Rows with a smaller id (keyset, newest first). */
  before?: number;
}

export interface AuditListRow {
  id: unknown;
  occurred_at: unknown;
  actor_type: AuditActorType;
  api_key_id: number | null;
  staff_user_id: number | null;
  actor_name: string;
  entity: string;
  entity_id: string;
  action: string;
  before: unknown;
  after: unknown;
}

/**
 * One page of the log, newest first. Only the filters given are in the statement (a few dozen texts
 * at most, each prepared once), so each can use its index: (portal, entity, entity id, id), the
 * actor's (actor, id), or (portal, id) walked backwards.
 */
export function auditPage(db: Queryable, f: AuditFilter, limit: number): Promise<AuditListRow[]> {
  const where: SQL[] = [sql`portal_id = ${f.portalId}::int`];
  if (f.before !== undefined) where.push(sql`id < ${f.before}::bigint`);
  if (f.actorType !== undefined) where.push(sql`actor_type = ${f.actorType}::text`);
  if (f.staffUserId !== undefined) where.push(sql`staff_user_id = ${f.staffUserId}::int`);
  if (f.apiKeyId !== undefined) where.push(sql`api_key_id = ${f.apiKeyId}::int`);
  if (f.entity !== undefined) where.push(sql`entity = ${f.entity}::text`);
  if (f.entityId !== undefined) where.push(sql`entity_id = ${f.entityId}::text`);
  if (f.action !== undefined) where.push(sql`action = ${f.action}::text`);
  if (f.from !== undefined) where.push(sql`occurred_at >= ${f.from}::timestamptz`);
  if (f.to !== undefined) where.push(sql`occurred_at < ${f.to}::timestamptz`);
  return queryRows<AuditListRow>(
    db,
    sql`select id, occurred_at, actor_type, api_key_id, staff_user_id, actor_name, entity, entity_id,
        action, before, after
      from audit_log where ${sql.join(where, sql` and `)}
      order by id desc
      limit ${limit}::int`,
  );
}
