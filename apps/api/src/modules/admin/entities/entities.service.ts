/**
 * Changes one by one (issue 12 item 4, issue 14): one service behind the integration API (an API key)
 * and the staff admin API (a staff user). A change runs in one transaction that writes only its rows
 * through the import's writers (so it writes nothing when nothing differs; a ticket's everyday fields,
 * `TICKET_ROW_FIELDS`, by one statement of its own), and, when the entity did
 * change, its event and an audit-log row with the entity before and after (the same image the API
 * answers, secrets removed). With an Idempotency-Key the answer is stored in that transaction too.
 *
 * Errors: an id in the path the portal lacks is 404 `entity_not_found`; a reference in the body it
 * lacks is 422 `unknown_reference` naming the field (never the import's 409, which means "changed
 * while importing").
 */
import { sql, type SQL } from 'drizzle-orm';
import { isDeepStrictEqual } from 'node:util';
import {
  entityErrorCodes,
  permissionFlags,
  type CompanyEntity,
  type ContactEntity,
  type EntityAction,
  type EntityKind,
  type EventType,
  type TicketEntity,
  type CompanyCreate,
  type CompanyUpdate,
  type DeskTicketCreate,
  type ContactCreate,
  type ContactUpdate,
  type TicketCreate,
  type TicketUpdate,
  type DocumentEntity,
  type ReportEntity,
  type EstimateEntity,
  type EntityFileInput,
  type FileRef,
  type ImportDocument,
  type InvoiceEntity,
  type PublicFileEntity,
  type UserEntity,
  type UserInvite,
} from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import type { AppContext } from '../../../platform/context';
import { AppError, conflict, notFound } from '../../../platform/errors';
import { payloadTooLarge } from '../../../platform/files';
import {
  apiKeySource,
  emitDataEvent,
  emitTicketEvent,
  staffSource,
  type CompanionWrite,
  type EventSource,
} from '../../../platform/events';
import { sanitizeHtml } from '../../../platform/html';
import { invitationEmail, recoveryEmail } from '../../../platform/account-mail';
import { enqueueEmail, kickOutbox } from '../../../platform/outbox';
import { withIdempotency, type Answer } from '../../../platform/idempotency';
import { reserveExtIds } from '../../../platform/portal-sequences';
import {
  type ChangeActor,
  changeActorSetting,
  completeDeskTicketIn,
  noticeAssignment,
  refreshSlaClock,
  queueStaffNotices,
} from '../../tickets/core';
import { portalTicketNumber } from '../../../platform/ticket-numbers';
import { ImportFiles } from '../import.files';
import { writeEstimates, writeInvoices } from '../writers/billing';
import { writeDocuments, writePublicFiles } from '../writers/documents';
import { writeActivityReports } from '../writers/reports';
import { writeCompanies, writeContacts } from '../writers/companies';
import { PortalScope, type PortalItem } from '../writers/support';
import { claimUpload } from './uploads.queries';
import { queryRows } from '../../../platform/sql-json';
import { writeTicketRows } from '../writers/tickets';
import { prepareUsers, writeUsers } from '../writers/users';
import {
  companyInUse,
  contactInUse,
  deleteCompanyRow,
  deleteContactRow,
  deleteRow,
  deleteTicketRow,
  readDocument,
  readPublicFile,
  readReport,
  readEstimate,
  readInvoice,
  auditInsert,
  insertLink,
  missingContacts,
  readUser,
  removeUserFromPortal,
  retireLinks,
  userNameTaken,
  lockPortal,
  nextExtId,
  readCompany,
  readContact,
  readTicket,
  ticketRefIds,
  TICKET_ROW_FIELDS,
  updateTicketFields,
  type Stored,
  type TicketRowField,
} from './entities.queries';

/** Who makes a change, and in which portal (the key's, or the staff route's). */
export type Actor = { portalId: number; portalKey: string; timeZone: string } & (
  | { type: 'api_key'; apiKeyId: number }
  /** `name`: the staff user's display name (events and the ticket timeline show it). */
  | { type: 'staff'; staffUserId: number; name: string }
);

/** What a POST of the integration API may carry: the Idempotency-Key and the route it was sent to. */
export interface Idem {
  key: string | undefined;
  route: string;
}

export const sourceOf = (a: Actor): EventSource =>
  a.type === 'api_key' ? apiKeySource(a.apiKeyId) : staffSource(a.staffUserId, a.name);

/** Keys whose values never enter the audit log, whatever entity carries them. */
const SECRET_KEY = /pass(word)?|secret|token|hash|base64|otp|cancel_?key/i;

/** A copy with every value under a secret-looking key replaced. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) ? '[redacted]' : redact(v),
      ]),
    );
  }
  return value;
}

/** The image without the internal row id. */
export function publicOf<T>(s: Stored<T> | undefined | null): T | null {
  if (!s) return null;
  const { rowId: _rowId, stepRowId: _stepRowId, ...rest } = s;
  return rest as T;
}

export const missing = (what: string, id: number | string) =>
  notFound(`No ${what} with id ${id} in this portal`, entityErrorCodes.entityNotFound);

export const unknownReference = (field: string, id: number, extra = '') =>
  new AppError(
    422,
    entityErrorCodes.unknownReference,
    `${field}: the portal has no ${field.replace(/Ids?$/, '')} ${id}${extra}`,
    [{ path: field, message: `unknown id ${id}` }],
  );

export const uploadNotFound = (field: string, id: number) =>
  new AppError(
    422,
    entityErrorCodes.uploadNotFound,
    `${field}.uploadId: ${id} is not an unattached upload of yours in this portal`,
    [{ path: `${field}.uploadId`, message: 'not an unattached upload of the caller' }],
  );

/**
 * Records a change that happened: the audit row and the event, both in the change's transaction.
 * Nothing when before and after are equal (a write of the same values changes nothing).
 */
export async function record(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  c: {
    entity: EntityKind;
    entityId: number | string;
    action: EntityAction;
    before: unknown;
    after: unknown;
    /**
     * Emits the event (default: `{<entity>: after ?? before, previous: before}`), handing its emitter
     * the audit row's insert to run in the event's statement.
     */
    emit?: (audit: CompanionWrite) => Promise<unknown>;
  },
): Promise<boolean> {
  if (c.action === 'updated' && isDeepStrictEqual(c.before, c.after)) return false;
  const audit: CompanionWrite = {
    sql: auditInsert({
      portalId: actor.portalId,
      occurredAt: ctx.clock.now(),
      actorType: actor.type,
      apiKeyId: actor.type === 'api_key' ? actor.apiKeyId : null,
      staffUserId: actor.type === 'staff' ? actor.staffUserId : null,
      entity: c.entity,
      entityId: String(c.entityId),
      action: c.action,
      before: redact(c.before),
      after: redact(c.after),
    }),
    written: false,
  };
  if (c.emit) await c.emit(audit);
  else {
    const data: Record<string, unknown> = { [c.entity]: c.after ?? c.before };
    if (c.action === 'updated') data.previous = c.before;
    await emitDataEvent(
      tx,
      ctx,
      `${c.entity}.${c.action}` as EventType,
      actor.portalId,
      sourceOf(actor),
      data,
      audit,
    );
  }
  // An emitter that did not take the audit row (none does today) leaves it to be written alone.
  if (!audit.written) await tx.execute(audit.sql);
  return true;
}

/** One transaction for a change; a key's POST with an Idempotency-Key stores its answer in it. */
export async function inTransaction<T>(
  ctx: AppContext,
  actor: Actor,
  idem: Idem | undefined,
  request: unknown,
  run: (tx: Tx) => Promise<{ status: number; body: T }>,
): Promise<Answer<T>> {
  return ctx.database.db.transaction((tx) =>
    actor.type === 'api_key' && idem
      ? withIdempotency(
          tx,
          { apiKeyId: actor.apiKeyId, key: idem.key, route: idem.route, request, now: ctx.clock.now() },
          () => run(tx),
        )
      : run(tx).then((a) => ({ ...a, replayed: false })),
  );
}

/** The writers' scope for one entity: no files, HTML already sanitised (before the transaction). */
function scopeOf(ctx: AppContext, tx: Tx, actor: Actor, clean: (html: string | null | undefined) => string) {
  return new PortalScope(tx, actor.portalId, actor.timeZone, new ImportFiles(), clean, ctx.clock.now());
}
export const noHtml = () => '';

// ---- companies -----------------------------------------------------------------------------------

export async function getCompany(ctx: AppContext, actor: Actor, id: number): Promise<CompanyEntity> {
  const c = await readCompany(ctx.database.db, actor.portalId, id);
  if (!c) throw missing('company', id);
  return publicOf(c)!;
}

export function createCompany(
  ctx: AppContext,
  actor: Actor,
  body: CompanyCreate,
  idem?: Idem,
): Promise<Answer<CompanyEntity>> {
  return inTransaction(ctx, actor, idem, body, async (tx) => {
    await lockPortal(tx, actor.portalId);
    const id = body.id ?? (await nextExtId(tx, 'companies', actor.portalId));
    if (await readCompany(tx, actor.portalId, id))
      throw conflict(`A company with id ${id} exists`, entityErrorCodes.entityExists);
    await writeCompanies(scopeOf(ctx, tx, actor, noHtml), [{ id, companyName: body.companyName }]);
    const after = publicOf(await readCompany(tx, actor.portalId, id))!;
    await record(ctx, tx, actor, { entity: 'company', entityId: id, action: 'created', before: null, after });
    return { status: 201, body: after };
  });
}

export async function updateCompany(
  ctx: AppContext,
  actor: Actor,
  id: number,
  patch: CompanyUpdate,
): Promise<CompanyEntity> {
  const a = await inTransaction(ctx, actor, undefined, patch, async (tx) => {
    const stored = await readCompany(tx, actor.portalId, id, true);
    if (!stored) throw missing('company', id);
    const before = publicOf(stored)!;
    await writeCompanies(scopeOf(ctx, tx, actor, noHtml), [{ ...before, ...patch }]);
    const after = publicOf(await readCompany(tx, actor.portalId, id))!;
    await record(ctx, tx, actor, { entity: 'company', entityId: id, action: 'updated', before, after });
    return { status: 200, body: after };
  });
  return a.body;
}

export async function deleteCompany(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await inTransaction(ctx, actor, undefined, null, async (tx) => {
    await lockPortal(tx, actor.portalId);
    const stored = await readCompany(tx, actor.portalId, id, true);
    if (!stored) throw missing('company', id);
    const holds = await companyInUse(tx, stored.rowId);
    if (holds)
      throw conflict(
        `Company ${id} still holds ${holds.replace('_', ' ')}: delete them first`,
        entityErrorCodes.entityInUse,
      );
    const before = publicOf(stored)!;
    await record(ctx, tx, actor, { entity: 'company', entityId: id, action: 'deleted', before, after: null });
    await deleteCompanyRow(tx, stored.rowId);
    return { status: 204, body: null };
  });
}

// ---- contacts ------------------------------------------------------------------------------------

type ContactFields = Omit<ContactEntity, 'contactId'>;

/** The import's contact from the API's fields (a flag left out is off, as in the import). */
function contactItem(id: number, c: ContactFields) {
  return {
    contactId: id,
    referentName: c.referentName,
    email: c.email ?? null,
    phone: c.phone ?? null,
    permissions: c.permissions,
  };
}

async function writeContact(ctx: AppContext, tx: Tx, actor: Actor, id: number, c: ContactFields) {
  const company = await readCompany(tx, actor.portalId, c.companyId);
  if (!company) throw unknownReference('companyId', c.companyId);
  await writeContacts(scopeOf(ctx, tx, actor, noHtml), [
    { companyId: company.rowId, item: contactItem(id, c) },
  ]);
}

/** The ten flags of a body (a flag left out is off, as in the import). */
const flagsOf = (p: ContactCreate['permissions']) =>
  Object.fromEntries(permissionFlags.map((f) => [f, p?.[f] === true])) as ContactEntity['permissions'];

export async function getContact(ctx: AppContext, actor: Actor, id: number): Promise<ContactEntity> {
  const c = await readContact(ctx.database.db, actor.portalId, id);
  if (!c) throw missing('contact', id);
  return publicOf(c)!;
}

export function createContact(
  ctx: AppContext,
  actor: Actor,
  body: ContactCreate,
  idem?: Idem,
): Promise<Answer<ContactEntity>> {
  return inTransaction(ctx, actor, idem, body, async (tx) => ({
    status: 201,
    body: await createContactIn(ctx, tx, actor, body),
  }));
}

/** A new contact, recorded (audit, `contact.created`), inside a transaction of the caller's. */
export async function createContactIn(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  body: ContactCreate,
): Promise<ContactEntity> {
  await lockPortal(tx, actor.portalId);
  const id = body.contactId ?? (await nextExtId(tx, 'contacts', actor.portalId));
  if (await readContact(tx, actor.portalId, id))
    throw conflict(`A contact with id ${id} exists`, entityErrorCodes.entityExists);
  await writeContact(ctx, tx, actor, id, {
    companyId: body.companyId,
    referentName: body.referentName,
    email: body.email ?? null,
    phone: body.phone ?? null,
    permissions: flagsOf(body.permissions),
  });
  const after = publicOf(await readContact(tx, actor.portalId, id))!;
  await record(ctx, tx, actor, { entity: 'contact', entityId: id, action: 'created', before: null, after });
  return after;
}

export async function updateContact(
  ctx: AppContext,
  actor: Actor,
  id: number,
  patch: ContactUpdate,
): Promise<ContactEntity> {
  const a = await inTransaction(ctx, actor, undefined, patch, async (tx) => {
    const stored = await readContact(tx, actor.portalId, id, true);
    if (!stored) throw missing('contact', id);
    const before = publicOf(stored)!;
    // Flags sent replace the stored ones one by one; the others stay.
    const permissions = { ...before.permissions };
    for (const [k, v] of Object.entries(patch.permissions ?? {}))
      if (k in permissions) permissions[k as keyof typeof permissions] = v === true;
    await writeContact(ctx, tx, actor, id, {
      companyId: patch.companyId ?? before.companyId,
      referentName: patch.referentName ?? before.referentName,
      email: patch.email === undefined ? before.email : patch.email,
      phone: patch.phone === undefined ? before.phone : patch.phone,
      permissions,
    });
    const after = publicOf(await readContact(tx, actor.portalId, id))!;
    await record(ctx, tx, actor, { entity: 'contact', entityId: id, action: 'updated', before, after });
    return { status: 200, body: after };
  });
  return a.body;
}

export async function deleteContact(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await inTransaction(ctx, actor, undefined, null, async (tx) => {
    const stored = await readContact(tx, actor.portalId, id, true);
    if (!stored) throw missing('contact', id);
    const holds = await contactInUse(tx, stored.rowId);
    if (holds)
      throw conflict(`Contact ${id} still holds ${holds}: delete them first`, entityErrorCodes.entityInUse);
    const before = publicOf(stored)!;
    await record(ctx, tx, actor, { entity: 'contact', entityId: id, action: 'deleted', before, after: null });
    await deleteContactRow(tx, stored.rowId, ctx.clock.now());
    return { status: 204, body: null };
  });
}

// ---- tickets -------------------------------------------------------------------------------------

type TicketFields = Omit<
  TicketEntity,
  'id' | 'ticketNumber' | 'internalAnnualProgressive' | 'priority' | 'dueAt' | 'tags'
> & {
  ticketNumber: string | null | undefined;
  internalAnnualProgressive: number | null | undefined;
};

/**
 * Resolves every reference of the ticket in one statement (422 naming the first unknown one) and hands
 * the ids to the writers' scope, so the writer looks none of them up again.
 */
async function resolveTicketRefs(tx: Tx, s: PortalScope, t: TicketFields, also: SQL): Promise<void> {
  const refs = {
    companyId: t.companyId,
    taskTypeId: t.taskTypeId,
    statusStepId: t.statusStepId,
    assignedGroupId: t.assignedGroupId,
    assignedUserId: t.assignedUserId,
    creatorContactId: t.creatorContactId,
    wikiElementId: t.wikiElementId,
  };
  const ids = await ticketRefIds(tx, s.portalId, refs, also);
  for (const [field, ext] of Object.entries(refs) as [keyof typeof refs, number | null][]) {
    if (ext === null) continue;
    const id = ids[field];
    if (id === null)
      throw unknownReference(
        field,
        ext,
        field === 'creatorContactId' || field === 'wikiElementId' ? ` in company ${t.companyId}` : '',
      );
    const map = {
      companyId: s.ids.companies,
      taskTypeId: s.ids.ticketTypes,
      statusStepId: s.ids.statusSteps,
      assignedGroupId: s.ids.groups,
      assignedUserId: s.ids.agents,
      creatorContactId: s.ids.contacts,
      wikiElementId: s.ids.wikiElements,
    }[field];
    map.add([{ id, extId: ext }]);
  }
}

/** The author the ticket timeline's trigger records for a change (migration 0009). */
const changeActorOf = (a: Actor): ChangeActor =>
  a.type === 'api_key'
    ? { kind: 'api_key', id: a.apiKeyId }
    : { kind: 'staff', id: a.staffUserId, name: a.name };

/** The agent row a ticket is assigned to (null: nobody). */
async function assignedAgentOf(tx: Tx, ticketRowId: number): Promise<number | null> {
  const [r] = await queryRows<{ a: number | null }>(
    tx,
    sql`select assigned_user_id as a from tickets where id = ${ticketRowId}::int`,
  );
  return r?.a == null ? null : Number(r.a);
}

/**
 * Tells the agent a ticket is now assigned to (the desk's bell and an e-mail, tickets/core/staff-bell.ts),
 * whoever assigned it: a back office's key or a staff member through the entity routes.
 */
async function ringAssignee(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  ticketRowId: number,
  previous: number | null,
) {
  const by =
    actor.type === 'staff'
      ? { staffUserId: actor.staffUserId, name: actor.name }
      : { staffUserId: null, name: '' };
  await noticeAssignment(
    tx,
    ctx,
    ticketRowId,
    await assignedAgentOf(tx, ticketRowId),
    previous,
    by,
    ctx.clock.now(),
  );
}

async function writeTicket(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  id: number,
  t: TicketFields,
  clean: (h: string | null | undefined) => string,
) {
  const s = scopeOf(ctx, tx, actor, clean);
  // The author the timeline's trigger records is set by the reference lookup's statement.
  await resolveTicketRefs(tx, s, t, changeActorSetting(changeActorOf(actor), ctx.clock.now()));
  await writeTicketRows(s, [
    {
      companyId: s.ids.companies.must(t.companyId),
      item: { ...t, id, extra: undefined },
    },
  ]);
}

const isRowField = (k: string): k is TicketRowField => k in TICKET_ROW_FIELDS;
const pick = <T, K extends keyof T>(o: T, keys: K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

/** `updateTicketFields`, naming the first unknown reference (422) as the import's writer would. */
async function writeTicketFields(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  rowId: number,
  fields: TicketFields,
  changed: TicketRowField[],
): Promise<void> {
  const also = changeActorSetting(changeActorOf(actor), ctx.clock.now());
  const write = () => updateTicketFields(tx, actor.portalId, rowId, pick(fields, changed), also);
  if (await write()) return;
  // A reference names nothing: the references' statement says which (422)…
  await resolveTicketRefs(tx, scopeOf(ctx, tx, actor, noHtml), fields, sql`null`);
  // …unless it was created after the write's snapshot; then the write sees it now.
  if (!(await write())) throw conflict('A reference of the ticket changed meanwhile; send the change again');
}

/** Sanitises a description before the transaction; the stored one is clean already. */
function cleanerFor(incoming: string | null | undefined, stored?: string) {
  const prepared = incoming ? sanitizeHtml(incoming) : '';
  return (html: string | null | undefined) =>
    !html ? '' : html === incoming ? prepared : html === stored ? stored : sanitizeHtml(html);
}

export async function getTicket(ctx: AppContext, actor: Actor, id: number): Promise<TicketEntity> {
  const t = await readTicket(ctx.database.db, actor.portalId, id);
  if (!t) throw missing('ticket', id);
  return publicOf(t)!;
}

export function createTicket(
  ctx: AppContext,
  actor: Actor,
  body: TicketCreate,
  idem?: Idem,
): Promise<Answer<TicketEntity>> {
  return writeNewTicket(ctx, actor, body, idem, false);
}

/**
 * A ticket an agent opens on the desk for a contact (`deskEntityRoutes.createTicket`): the entity
 * service's create, numbered by the portal as a customer's ticket, with the agents' e-mails of a new
 * ticket (docs/staff.md "Agent e-mails"; the author is left out).
 */
export async function createDeskTicket(
  ctx: AppContext,
  actor: Actor & { type: 'staff' },
  body: DeskTicketCreate,
): Promise<TicketEntity> {
  const a = await writeNewTicket(ctx, actor, body, undefined, true);
  kickOutbox();
  return a.body;
}

function writeNewTicket(
  ctx: AppContext,
  actor: Actor,
  body: TicketCreate,
  idem: Idem | undefined,
  fromDesk: boolean,
): Promise<Answer<TicketEntity>> {
  const clean = cleanerFor(body.description);
  return inTransaction(ctx, actor, idem, body, async (tx) => {
    const id = body.id ?? (await reserveExtIds(tx, actor.portalId, 'ticket_seq'));
    if (await readTicket(tx, actor.portalId, id))
      throw conflict(`A ticket with id ${id} exists`, entityErrorCodes.entityExists);
    const now = ctx.clock.now();
    const number = fromDesk
      ? await portalTicketNumber(tx, actor.portalId, now, actor.timeZone)
      : { ticketNumber: body.ticketNumber, internalAnnualProgressive: body.internalAnnualProgressive };
    const fields: TicketFields = {
      companyId: body.companyId,
      title: body.title,
      description: body.description ?? '',
      ...number,
      createdOn: body.createdOn ?? now.toISOString(),
      taskTypeId: body.taskTypeId,
      statusStepId: body.statusStepId,
      nextPlannedActivityInfo: body.nextPlannedActivityInfo ?? null,
      creatorContactId: body.creatorContactId ?? null,
      assignedGroupId: body.assignedGroupId ?? null,
      assignedUserId: body.assignedUserId ?? null,
      wikiElementId: body.wikiElementId ?? null,
    };
    await writeTicket(ctx, tx, actor, id, fields, clean);
    const stored = (await readTicket(tx, actor.portalId, id))!;
    await refreshSlaClock(tx, stored.rowId);
    if (fields.assignedUserId !== null) await ringAssignee(ctx, tx, actor, stored.rowId, null);
    const after = publicOf(stored)!;
    await record(ctx, tx, actor, {
      entity: 'ticket',
      entityId: id,
      action: 'created',
      before: null,
      after,
      emit: (audit) => emitTicketEvent(tx, ctx, 'ticket.created', stored.rowId, sourceOf(actor), null, audit),
    });
    if (fromDesk && actor.type === 'staff') {
      await completeDeskTicketIn(tx, ctx, {
        portalId: actor.portalId,
        ticketId: stored.rowId,
        staffUserId: actor.staffUserId,
        agentName: actor.name,
        attachmentIds: (body as DeskTicketCreate).attachmentIds,
        now,
      });
      await queueStaffNotices(tx, ctx, 'new_ticket', stored.rowId, null, now, {
        staffUserId: actor.staffUserId,
        name: actor.name,
      });
    }
    return { status: 201, body: after };
  });
}

export async function updateTicket(
  ctx: AppContext,
  actor: Actor,
  id: number,
  patch: TicketUpdate,
): Promise<TicketEntity> {
  const a = await inTransaction(ctx, actor, undefined, patch, async (tx) => {
    const stored = await readTicket(tx, actor.portalId, id, true);
    if (!stored) throw missing('ticket', id);
    const before = publicOf(stored)!;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const fields = { ...before, ...defined } as TicketFields;
    const changed = (Object.keys(defined) as (keyof TicketFields)[]).filter(
      (k) => !isDeepStrictEqual(before[k], fields[k]),
    );
    const reassigned = changed.includes('assignedUserId');
    const previousAgent = reassigned ? await assignedAgentOf(tx, stored.rowId) : null;
    let after: TicketEntity;
    if (changed.every(isRowField)) {
      // The back office's everyday change (issue 12: "an incremental ticket update p99 ≤ 20 ms"): one
      // statement by row id, setting only what changed; the answer is what was stored and what was sent.
      after = { ...before, ...pick(fields, changed) };
      if (changed.length > 0) await writeTicketFields(ctx, tx, actor, stored.rowId, fields, changed);
    } else {
      await writeTicket(ctx, tx, actor, id, fields, cleanerFor(patch.description, before.description));
      after = publicOf(await readTicket(tx, actor.portalId, id))!;
    }
    if (reassigned) await ringAssignee(ctx, tx, actor, stored.rowId, previousAgent);
    // A new step (closed or reopened), creation date or company (its own targets) moves the
    // service-level clock.
    if (changed.some((k) => k === 'statusStepId' || k === 'createdOn' || k === 'companyId'))
      await refreshSlaClock(tx, stored.rowId);
    await record(ctx, tx, actor, {
      entity: 'ticket',
      entityId: id,
      action: 'updated',
      before,
      after,
      emit: (audit) =>
        emitTicketEvent(
          tx,
          ctx,
          'ticket.updated',
          stored.rowId,
          sourceOf(actor),
          before.statusStepId === after.statusStepId ? null : (stored.stepRowId ?? null),
          audit,
        ),
    });
    return { status: 200, body: after };
  });
  // The assignee's e-mail, and the event, leave now rather than at the outbox's next round.
  kickOutbox();
  return a.body;
}

export async function deleteTicket(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await inTransaction(ctx, actor, undefined, null, async (tx) => {
    const stored = await readTicket(tx, actor.portalId, id, true);
    if (!stored) throw missing('ticket', id);
    await record(ctx, tx, actor, {
      entity: 'ticket',
      entityId: id,
      action: 'deleted',
      before: publicOf(stored),
      after: null,
      // Emitted while the row is there: the event carries the whole ticket.
      emit: (audit) => emitTicketEvent(tx, ctx, 'ticket.deleted', stored.rowId, sourceOf(actor), null, audit),
    });
    await deleteTicketRow(tx, stored.rowId);
    return { status: 204, body: null };
  });
}

// ---- users ---------------------------------------------------------------------------------------

/** As long as the import's invitations, and the portal's password-recovery links. */
const INVITE_TTL_MS = 7 * 24 * 3600_000;
const RESET_TTL_MS = 3600_000;

async function mustUser(ctx: AppContext, db: Tx | AppContext['database']['db'], actor: Actor, name: string) {
  const u = await readUser(db, actor.portalId, name, ctx.clock.now());
  if (!u) throw notFound(`No user ${name} in this portal`, entityErrorCodes.entityNotFound);
  return u;
}
const userImage = (u: Awaited<ReturnType<typeof mustUser>>): UserEntity => ({
  userName: u.userName,
  email: u.email,
  contactIds: u.contactIds,
  status: u.status,
  invitationPending: u.invitationPending,
});

const link = (ctx: AppContext, actor: Actor, token: string) =>
  `${ctx.config.publicUrl}/confirm?token=${encodeURIComponent(token)}&company=${encodeURIComponent(actor.portalKey)}`;

export async function getUser(ctx: AppContext, actor: Actor, name: string): Promise<UserEntity> {
  return userImage(await mustUser(ctx, ctx.database.db, actor, name));
}

/**
 * A new user without a password, holding the given contacts of the portal, e-mailed an invitation:
 * written by the import's user writer (which sends the invitation in the same transaction).
 */
export async function inviteUser(
  ctx: AppContext,
  actor: Actor,
  body: UserInvite,
  idem?: Idem,
): Promise<Answer<UserEntity>> {
  const answer = await inTransaction(ctx, actor, idem, body, async (tx) => ({
    status: 201,
    body: await inviteUserIn(ctx, tx, actor, body),
  }));
  kickOutbox();
  return answer;
}

/**
 * The invitation inside a transaction of the caller's: the user, their contacts, the invitation e-mail
 * queued and the change recorded (audit, `user.invited`) all commit with it; the caller kicks the outbox.
 */
export async function inviteUserIn(
  ctx: AppContext,
  tx: Tx,
  actor: Actor,
  body: UserInvite,
): Promise<UserEntity> {
  await lockPortal(tx, actor.portalId);
  if (await userNameTaken(tx, body.userName))
    throw conflict(`The user name ${body.userName} is taken`, entityErrorCodes.entityExists);
  const unknown = await missingContacts(tx, actor.portalId, body.contactIds);
  if (unknown.length > 0) throw unknownReference('contactIds', unknown[0]!);
  // An invitation has no password to hash: preparing it is one lookup, in the transaction.
  const prepared = await prepareUsers(tx, [
    {
      userName: body.userName,
      email: body.email,
      invite: true,
      contacts: body.contactIds.map((contactId) => ({ webPortalKey: actor.portalKey, contactId })),
    },
  ]);
  await writeUsers(tx, prepared, ctx.clock.now(), ctx.config.publicUrl);
  const after = userImage(await mustUser(ctx, tx, actor, body.userName));
  await record(ctx, tx, actor, {
    entity: 'user',
    entityId: after.userName,
    action: 'invited',
    before: null,
    after,
  });
  return after;
}

/** Runs an action on a user of the portal, recording it when `act` answers true. */
function userAction(
  ctx: AppContext,
  actor: Actor,
  name: string,
  action: EntityAction,
  idem: Idem | undefined,
  act: (tx: Tx, u: Awaited<ReturnType<typeof mustUser>>, now: Date) => Promise<boolean>,
): Promise<Answer<UserEntity>> {
  return inTransaction(ctx, actor, idem, { user: name.toLowerCase(), action }, async (tx) => {
    const u = await mustUser(ctx, tx, actor, name);
    const before = userImage(u);
    const now = ctx.clock.now();
    const changed = await act(tx, u, now);
    const after = (await readUser(tx, actor.portalId, name, now)) ?? null;
    const image = after && userImage(after);
    if (changed)
      await record(ctx, tx, actor, { entity: 'user', entityId: u.userName, action, before, after: image });
    return { status: 200, body: image ?? { ...before, contactIds: [], invitationPending: false } };
  });
}

export async function resendInvitation(ctx: AppContext, actor: Actor, name: string, idem?: Idem) {
  const a = await userAction(ctx, actor, name, 'invited', idem, async (tx, u, now) => {
    if (u.status === 'active')
      throw conflict(`${u.userName} has set a password already`, entityErrorCodes.userAlreadyActive);
    if (!u.email) throw conflict(`${u.userName} has no e-mail address`, entityErrorCodes.userWithoutEmail);
    await retireLinks(tx, u.rowId, now, 'invite');
    const token = await insertLink(tx, u.rowId, 'invite', now, INVITE_TTL_MS);
    await enqueueEmail(
      tx,
      invitationEmail({
        to: u.email,
        userName: u.userName,
        portalName: u.portalName,
        link: link(ctx, actor, token),
        language: u.portalLanguage,
      }),
      now,
    );
    return true;
  });
  kickOutbox();
  return a;
}

export function revokeInvitation(ctx: AppContext, actor: Actor, name: string) {
  return userAction(ctx, actor, name, 'invitation_revoked', undefined, async (tx, u, now) => {
    return (await retireLinks(tx, u.rowId, now, 'invite')) > 0;
  });
}

export function deactivateUser(ctx: AppContext, actor: Actor, name: string, idem?: Idem) {
  return userAction(ctx, actor, name, 'deactivated', idem, async (tx, u, now) => {
    await retireLinks(tx, u.rowId, now, 'invite');
    await removeUserFromPortal(tx, u.rowId, actor.portalId, now);
    return true;
  });
}

export async function sendPasswordReset(ctx: AppContext, actor: Actor, name: string, idem?: Idem) {
  const a = await userAction(ctx, actor, name, 'password_reset_sent', idem, async (tx, u, now) => {
    if (!u.email) throw conflict(`${u.userName} has no e-mail address`, entityErrorCodes.userWithoutEmail);
    await retireLinks(tx, u.rowId, now, 'recovery');
    const token = await insertLink(tx, u.rowId, 'recovery', now, RESET_TTL_MS);
    await enqueueEmail(
      tx,
      recoveryEmail({
        to: u.email,
        userName: u.userName,
        portalName: u.portalName,
        link: link(ctx, actor, token),
        language: u.portalLanguage,
      }),
      now,
    );
    return true;
  });
  kickOutbox();
  return a;
}

// ---- invoices and estimates (a company's documents with their PDF) ---------------------------------

/** A writers' scope that also knows files kept from the stored row (an update without new bytes). */
class FileScope extends PortalScope {
  readonly kept = new Map<FileRef, number>();
  override fileId(ref: FileRef): number {
    return this.kept.get(ref) ?? super.fileId(ref);
  }
}

/**
 * Reads and stages the inline bytes of `refs` before the transaction (the import's file handling:
 * hashed, stored once per content, recorded in the transaction), then runs it; bytes of a failed
 * change are discarded. A file larger than MAX_UPLOAD_MB decoded: 413, nothing stored.
 */
export async function withFiles<T>(
  ctx: AppContext,
  refs: FileRef[],
  run: (files: ImportFiles) => Promise<T>,
): Promise<T> {
  const files = new ImportFiles();
  if (refs.length > 0) {
    const max = ctx.config.MAX_UPLOAD_MB * 1024 * 1024;
    // base64: 3 bytes per 4 characters; padding and line breaks only make the estimate larger.
    for (const ref of refs)
      if (Math.floor(((ref.base64 ?? '').length * 3) / 4) > max + 3) throw payloadTooLarge(max);
    await files.load(
      {
        formatVersion: 1,
        portals: [{ publicFiles: refs.map((file) => ({ file })) }],
      } as unknown as ImportDocument,
      undefined,
    );
    await files.store(ctx.fileStore);
  }
  try {
    return await run(files);
  } catch (e) {
    await files.discard(ctx.fileStore);
    throw e;
  }
}

/**
 * What serves one entity kind through both APIs: read, create (a key's POST may carry an
 * Idempotency-Key), update and delete, by the id of the path. The routes register one per kind.
 */
export interface EntityService<Id = number, C = never, U = never, E = unknown> {
  get(ctx: AppContext, actor: Actor, id: Id): Promise<E>;
  create(ctx: AppContext, actor: Actor, body: C, idem?: Idem): Promise<Answer<E>>;
  update(ctx: AppContext, actor: Actor, id: Id, body: U): Promise<E>;
  remove(ctx: AppContext, actor: Actor, id: Id): Promise<void>;
}

/** An entity with its file (a company's, or the portal's own: a public file). */
type WithFile = { id: number; file: { id: number } };

interface DocKind<E extends WithFile, Item> {
  entity: 'invoice' | 'estimate' | 'document' | 'report' | 'public_file';
  table: 'invoices' | 'estimates' | 'documents' | 'activity_reports' | 'public_files';
  /** The portal's own (no `companyId`): a public file. */
  portalWide?: true;
  /** The body's field with the bytes (the import's name). */
  fileField: 'document' | 'file';
  /** Checks of the merged fields beyond the company (422). */
  check?: (tx: Tx, actor: Actor, fields: Record<string, unknown>) => Promise<void>;
  read: (
    db: Tx | AppContext['database']['db'],
    portalId: number,
    id: number,
    lock?: boolean,
  ) => Promise<Stored<E> | undefined>;
  /** `companyId`: the company's row (0 for a portal-wide kind). */
  write: (s: PortalScope, rows: { companyId: number; item: Item }[]) => Promise<void>;
  /** The import's item from the merged fields and the file reference. */
  item: (id: number, fields: Record<string, unknown>, document: FileRef) => Item;
}

async function getDoc<E extends WithFile, I>(
  ctx: AppContext,
  actor: Actor,
  kind: DocKind<E, I>,
  id: number,
): Promise<E> {
  const d = await kind.read(ctx.database.db, actor.portalId, id);
  if (!d) throw missing(kind.entity, id);
  return publicOf(d)!;
}

/** Create (before = null) or update of an invoice or estimate, with new bytes or the stored file. */
async function saveDoc<E extends WithFile, I>(
  ctx: AppContext,
  actor: Actor,
  kind: DocKind<E, I>,
  target: { create: true; id: number | undefined } | { create: false; id: number },
  body: Record<string, unknown> & { companyId?: number | undefined },
  idem?: Idem,
): Promise<Answer<E>> {
  const given = body[kind.fileField] as EntityFileInput | undefined;
  // `{uploadId}`: an earlier upload of this caller, claimed in the transaction (no bytes to stage).
  const uploadId = given && 'uploadId' in given ? given.uploadId : undefined;
  const incoming = given && !('uploadId' in given) ? given : undefined;
  return withFiles(ctx, incoming ? [incoming] : [], (files) =>
    inTransaction(ctx, actor, idem, body, async (tx) => {
      if (target.create) await lockPortal(tx, actor.portalId);
      const id =
        target.id ??
        (kind.table === 'documents'
          ? // The portal numbers contacts' uploads from the same sequence.
            await reserveExtIds(tx, actor.portalId, 'document_seq')
          : await nextExtId(tx, kind.table, actor.portalId));
      const stored = await kind.read(tx, actor.portalId, id, true);
      if (target.create && stored)
        throw conflict(`A ${kind.entity} with id ${id} exists`, entityErrorCodes.entityExists);
      if (!target.create && !stored) throw missing(kind.entity, id);
      const before = publicOf(stored);
      const fields: Record<string, unknown> = {
        ...(before ?? {}),
        ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
      };
      let companyRowId = 0;
      if (!kind.portalWide) {
        const companyId = fields.companyId as number;
        const company = await readCompany(tx, actor.portalId, companyId);
        if (!company) throw unknownReference('companyId', companyId);
        companyRowId = company.rowId;
      }
      await kind.check?.(tx, actor, fields);
      const s = new FileScope(tx, actor.portalId, actor.timeZone, files, noHtml, ctx.clock.now());
      let ref = incoming;
      if (ref) await files.writeRows(tx, actor.portalId, [ref], ctx.clock.now());
      else if (uploadId !== undefined) {
        const upload = await claimUpload(tx, actor, uploadId, ctx.clock.now());
        if (!upload) throw uploadNotFound(kind.fileField, uploadId);
        ref = { name: upload.name } as FileRef;
        s.kept.set(ref, upload.id);
      } else {
        ref = { name: 'kept' } as FileRef;
        s.kept.set(ref, before!.file.id);
      }
      await kind.write(s, [{ companyId: companyRowId, item: kind.item(id, fields, ref) }]);
      const after = publicOf(await kind.read(tx, actor.portalId, id))!;
      await record(ctx, tx, actor, {
        entity: kind.entity as EntityKind,
        entityId: id,
        action: target.create ? 'created' : 'updated',
        before,
        after,
      });
      return { status: target.create ? 201 : 200, body: after };
    }),
  );
}

async function deleteDoc<E extends WithFile, I>(
  ctx: AppContext,
  actor: Actor,
  kind: DocKind<E, I>,
  id: number,
): Promise<void> {
  await inTransaction(ctx, actor, undefined, null, async (tx) => {
    const stored = await kind.read(tx, actor.portalId, id, true);
    if (!stored) throw missing(kind.entity, id);
    await record(ctx, tx, actor, {
      entity: kind.entity as EntityKind,
      entityId: id,
      action: 'deleted',
      before: publicOf(stored),
      after: null,
    });
    await deleteRow(tx, kind.table, stored.rowId);
    return { status: 204, body: null };
  });
}

/** Dates of a stored image are ISO date-times; the import reads them as such. */
const invoiceKind: DocKind<InvoiceEntity, Parameters<typeof writeInvoices>[1][number]['item']> = {
  entity: 'invoice',
  table: 'invoices',
  fileField: 'document',
  read: readInvoice,
  write: writeInvoices,
  item: (id, f, document) => ({
    id,
    documentNumber: f.documentNumber as string,
    total: f.total as number,
    invoiceDate: f.invoiceDate as string,
    dueDate: f.dueDate as string | null | undefined,
    paidDate: f.paidDate as string | null | undefined,
    document,
  }),
};
const estimateKind: DocKind<EstimateEntity, Parameters<typeof writeEstimates>[1][number]['item']> = {
  entity: 'estimate',
  table: 'estimates',
  fileField: 'document',
  read: readEstimate,
  write: writeEstimates,
  item: (id, f, document) => ({
    id,
    estimateName: f.estimateName as string,
    estimateNumber: f.estimateNumber as string,
    revisionNumber: (f.revisionNumber as number | null | undefined) ?? 0,
    total: f.total as number,
    estimateCreationDate: f.estimateCreationDate as string,
    document,
  }),
};

const documentKind: DocKind<DocumentEntity, Parameters<typeof writeDocuments>[1][number]['item']> = {
  entity: 'document',
  table: 'documents',
  fileField: 'file',
  read: readDocument,
  write: writeDocuments,
  // The document belongs to a contact of its company.
  check: async (tx, actor, f) => {
    const contact = await readContact(tx, actor.portalId, f.contactId as number);
    if (!contact || contact.companyId !== f.companyId)
      throw unknownReference('contactId', f.contactId as number, ` in company ${String(f.companyId)}`);
  },
  item: (id, f, file) => ({
    id,
    contactId: f.contactId as number,
    documentName: f.documentName as string,
    createDate: f.createDate as string,
    file,
  }),
};

const reportKind: DocKind<ReportEntity, Parameters<typeof writeActivityReports>[1][number]['item']> = {
  entity: 'report',
  table: 'activity_reports',
  fileField: 'document',
  read: readReport,
  write: writeActivityReports,
  // The ticket it reports on belongs to its company.
  check: async (tx, actor, f) => {
    if (f.taskId === null || f.taskId === undefined) return;
    const ticket = await readTicket(tx, actor.portalId, f.taskId as number);
    if (!ticket || ticket.companyId !== f.companyId)
      throw unknownReference('taskId', f.taskId as number, ` in company ${String(f.companyId)}`);
  },
  item: (id, f, document) => ({
    id,
    name: f.name as string,
    dateTime: f.dateTime as string,
    taskId: (f.taskId as number | null | undefined) ?? null,
    document,
  }),
};

/** A public file of the portal (import: `publicFiles`, written by the import's `writePublicFiles`). */
const publicFileKind: DocKind<PublicFileEntity, PortalItem<'publicFiles'>> = {
  entity: 'public_file',
  table: 'public_files',
  fileField: 'file',
  portalWide: true,
  read: readPublicFile,
  write: (s, rows) =>
    writePublicFiles(
      s,
      rows.map((r) => r.item),
    ),
  item: (id, f, file) => ({ id, fileName: f.fileName as string, file }),
};

/**
 * An entity with its file, served by the shared `saveDoc`/`deleteDoc` (bodies as the contract
 * validated them: the import's fields of that kind).
 */
function docService<E extends WithFile, I>(
  kind: DocKind<E, I>,
): EntityService<number, Record<string, unknown> & { id?: number | undefined }, object, E> {
  return {
    get: (ctx, actor, id) => getDoc(ctx, actor, kind, id),
    create: (ctx, actor, body, idem) => saveDoc(ctx, actor, kind, { create: true, id: body.id }, body, idem),
    update: async (ctx, actor, id, body) =>
      (await saveDoc(ctx, actor, kind, { create: false, id }, body as Record<string, unknown>)).body,
    remove: (ctx, actor, id) => deleteDoc(ctx, actor, kind, id),
  };
}

export const invoices = docService(invoiceKind);
export const estimates = docService(estimateKind);
export const documents = docService(documentKind);
export const reports = docService(reportKind);
export const publicFiles = docService(publicFileKind);
export const companies: EntityService<number, CompanyCreate, CompanyUpdate, CompanyEntity> = {
  get: getCompany,
  create: createCompany,
  update: updateCompany,
  remove: deleteCompany,
};
export const contacts: EntityService<number, ContactCreate, ContactUpdate, ContactEntity> = {
  get: getContact,
  create: createContact,
  update: updateContact,
  remove: deleteContact,
};
export const tickets: EntityService<number, TicketCreate, TicketUpdate, TicketEntity> = {
  get: getTicket,
  create: createTicket,
  update: updateTicket,
  remove: deleteTicket,
};
