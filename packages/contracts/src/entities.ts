/**
 * Changes one by one (issue 12 item 4, issue 14): create, read, update and delete single entities of
 * the import format, by the back office's ids, through the integration API (a portal key: `read` for
 * GETs, `write` for changes) or the staff desk's admin API (a staff user with the admin role). One
 * service serves both; every change emits its event and writes an audit-log row in its transaction.
 *
 * Bodies use the import format's field names and rules (fixture-format.md): a create takes the
 * import's object, an update (PATCH) any of its fields, merged over the stored entity and checked as
 * a whole. A reference the body names that the portal does not hold is 422 `unknown_reference`; an id
 * in the path the portal does not hold is 404 `entity_not_found`.
 */
import { z } from 'zod';
import {
  importCompanySchema,
  importContactSchema,
  importActivityReportSchema,
  importDateSchema,
  importDocumentFileSchema,
  importEstimateSchema,
  importIdSchema,
  importInvoiceSchema,
  importPublicFileSchema,
  importTicketSchema,
  importUserSchema,
} from './admin';
import {
  cursorText,
  dateTimeInput,
  errorSchema,
  EXT_ID_MAX,
  extIdParam,
  isoDateTime,
  rowIdParam,
  rowIdSchema,
} from './common';
import {
  activityContractCreateSchema,
  activityContractEntitySchema,
  activityContractUpdateSchema,
  appointmentLinkCreateSchema,
  appointmentLinkEntitySchema,
  appointmentLinkUpdateSchema,
  catalogParams,
  companyPickQuerySchema,
  companyPickSchema,
  serviceContractCreateSchema,
  serviceContractEntitySchema,
  serviceContractUpdateSchema,
  subscriptionCreateSchema,
  subscriptionEntitySchema,
  subscriptionUpdateSchema,
  tagCreateSchema,
  tagEntitySchema,
  tagUpdateSchema,
  taskLinkCreateSchema,
  taskLinkEntitySchema,
  taskLinkUpdateSchema,
  wikiElementCreateSchema,
  wikiElementEntitySchema,
  wikiElementUpdateSchema,
  wikiFolderCreateSchema,
  wikiFolderEntitySchema,
  wikiFolderUpdateSchema,
} from './entities-catalog';
import { entityFileInputSchema, entityFileSchema } from './entity-files';
import { staffPortalParamsSchema, staffTicketParamsSchema } from './staff';
import { ticketPriorities } from './staff-views';
import { MAX_ATTACHMENTS, TICKET_BODY_LIMIT, TICKET_DESCRIPTION_MAX } from './tickets';
import { permissionShape } from './permissions';
import { binaryAnswer, defineRoute, type Access, type RouteContract } from './route';

export const entityErrorCodes = {
  /** 404: the id of the path is not an entity of this portal. */
  entityNotFound: 'entity_not_found',
  /** 409: a create names an id the portal already holds. */
  entityExists: 'entity_exists',
  /** 409: a delete of an entity other rows still need (a company with contacts or tickets, a tag of service contracts). */
  entityInUse: 'entity_in_use',
  /** 422: the body names a company, contact, type, step, group, agent or wiki element the portal lacks. */
  unknownReference: 'unknown_reference',
  /** 409: an invitation for a user who already set a password. */
  userAlreadyActive: 'user_already_active',
  /** 409: a password-reset link for a user without an e-mail address. */
  userWithoutEmail: 'user_without_email',
  /** 422: `{uploadId}` is not an unattached upload of the caller in this portal. */
  uploadNotFound: 'upload_not_found',
} as const;

// ---- entities (the import's shapes) --------------------------------------------------------------

/** Omitted on a create: the portal gives the next free id. */
const newId = importIdSchema.optional();

export const companyCreateSchema = importCompanySchema.pick({ companyName: true }).extend({ id: newId });
export const companyUpdateSchema = importCompanySchema.pick({ companyName: true }).partial();
export const companySchema = z.object({ id: z.number().int(), companyName: z.string() });
export type CompanyCreate = z.infer<typeof companyCreateSchema>;
export type CompanyUpdate = z.infer<typeof companyUpdateSchema>;
export type CompanyEntity = z.infer<typeof companySchema>;

const contactFields = importContactSchema.omit({ contactId: true, extra: true }).extend({
  /** The company of the contact (import: the company holding it). */
  companyId: importIdSchema,
});
export const contactCreateSchema = contactFields.extend({ contactId: newId });
export const contactUpdateSchema = contactFields.partial();
export const contactSchema = z.object({
  contactId: z.number().int(),
  companyId: z.number().int(),
  referentName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  permissions: z.object(permissionShape(() => z.boolean())),
});
export type ContactEntity = z.infer<typeof contactSchema>;
export type ContactCreate = z.infer<typeof contactCreateSchema>;
export type ContactUpdate = z.infer<typeof contactUpdateSchema>;

const ticketFields = importTicketSchema.omit({ id: true, comments: true, extra: true }).extend({
  companyId: importIdSchema,
  /** Default: now. */
  createdOn: importDateSchema.optional(),
});
export const ticketCreateSchema = ticketFields.extend({ id: newId });
/** Step, assignee, group, type, next planned activity… any field of the ticket; the conversation stays. */
export const ticketUpdateSchema = ticketFields.partial();
export const ticketEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  title: z.string(),
  description: z.string(),
  ticketNumber: z.string(),
  internalAnnualProgressive: z.number().int(),
  createdOn: isoDateTime,
  taskTypeId: z.number().int(),
  statusStepId: z.number().int(),
  nextPlannedActivityInfo: z.string().nullable(),
  creatorContactId: z.number().int().nullable(),
  assignedGroupId: z.number().int().nullable(),
  assignedUserId: z.number().int().nullable(),
  wikiElementId: z.number().int().nullable(),
  /** Set on the staff desk (issue 28); `normal` until an agent changes it. */
  priority: z.enum(ticketPriorities),
  /** When the ticket is due (set on the staff desk), null: no due date. */
  dueAt: isoDateTime.nullable(),
  /** The ticket's tags (the desk's ticket tags, by name). */
  tags: z.array(z.string()),
});
export type TicketEntity = z.infer<typeof ticketEntitySchema>;
export type TicketCreate = z.infer<typeof ticketCreateSchema>;
export type TicketUpdate = z.infer<typeof ticketUpdateSchema>;

// The file of an entity, as shown and as given (entity-files.ts; the catalogue's kinds use it too).
export {
  entityFileInputSchema,
  entityFileSchema,
  uploadedFileRefSchema,
  type EntityFileInput,
} from './entity-files';

/**
 * Invoices and estimates carry their PDF in `document` (see entityFileInputSchema); an update
 * without `document` keeps the file.
 */
const invoiceFields = importInvoiceSchema
  .omit({ id: true, extra: true })
  .extend({ companyId: importIdSchema, document: entityFileInputSchema });
export const invoiceCreateSchema = invoiceFields.extend({ id: newId });
export const invoiceUpdateSchema = invoiceFields.partial();
export const invoiceEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  documentNumber: z.string(),
  total: z.number(),
  invoiceDate: isoDateTime,
  dueDate: isoDateTime.nullable(),
  paidDate: isoDateTime.nullable(),
  file: entityFileSchema,
});
export type InvoiceCreate = z.infer<typeof invoiceCreateSchema>;
export type InvoiceUpdate = z.infer<typeof invoiceUpdateSchema>;
export type InvoiceEntity = z.infer<typeof invoiceEntitySchema>;

const estimateFields = importEstimateSchema
  .omit({ id: true, extra: true })
  .extend({ companyId: importIdSchema, document: entityFileInputSchema });
export const estimateCreateSchema = estimateFields.extend({ id: newId });
export const estimateUpdateSchema = estimateFields.partial();
export const estimateEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  estimateName: z.string(),
  estimateNumber: z.string(),
  revisionNumber: z.number().int(),
  total: z.number(),
  estimateCreationDate: isoDateTime,
  file: entityFileSchema,
});
export type EstimateCreate = z.infer<typeof estimateCreateSchema>;
export type EstimateUpdate = z.infer<typeof estimateUpdateSchema>;
export type EstimateEntity = z.infer<typeof estimateEntitySchema>;

/** A contact's document (`file`: inline bytes as in the import; kept when an update leaves it out). */
const documentFields = importDocumentFileSchema
  .omit({ id: true, extra: true })
  .extend({ companyId: importIdSchema, file: entityFileInputSchema });
export const documentCreateSchema = documentFields.extend({ id: newId });
export const documentUpdateSchema = documentFields.partial();
export const documentEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  contactId: z.number().int(),
  documentName: z.string(),
  createDate: isoDateTime,
  file: entityFileSchema,
});
export type DocumentCreate = z.infer<typeof documentCreateSchema>;
export type DocumentUpdate = z.infer<typeof documentUpdateSchema>;
export type DocumentEntity = z.infer<typeof documentEntitySchema>;

/** An activity report (its PDF inline), optionally tied to a ticket of its company (`taskId`). */
const reportFields = importActivityReportSchema
  .omit({ id: true, extra: true })
  .extend({ companyId: importIdSchema, document: entityFileInputSchema });
export const reportCreateSchema = reportFields.extend({ id: newId });
export const reportUpdateSchema = reportFields.partial();
export const reportEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  dateTime: isoDateTime,
  taskId: z.number().int().nullable(),
  file: entityFileSchema,
});
export type ReportCreate = z.infer<typeof reportCreateSchema>;
export type ReportUpdate = z.infer<typeof reportUpdateSchema>;
export type ReportEntity = z.infer<typeof reportEntitySchema>;

/**
 * A public file of the portal (every contact of the portal sees it under Public files), with its bytes
 * as `file` (see entityFileInputSchema); an update without `file` keeps the stored one.
 */
const publicFileFields = importPublicFileSchema
  .omit({ id: true, extra: true })
  .extend({ file: entityFileInputSchema });
export const publicFileCreateSchema = publicFileFields.extend({ id: newId });
export const publicFileUpdateSchema = publicFileFields.partial();
export const publicFileEntitySchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  file: entityFileSchema,
});
export type PublicFileCreate = z.infer<typeof publicFileCreateSchema>;
export type PublicFileUpdate = z.infer<typeof publicFileUpdateSchema>;
export type PublicFileEntity = z.infer<typeof publicFileEntitySchema>;

/**
 * Invite a person to contacts of the portal: a user (global name, case-insensitive) without a password
 * is created and e-mailed an invitation link (7 days).
 */
export const userInviteSchema = z.strictObject({
  userName: importUserSchema.shape.userName,
  email: importUserSchema.shape.email,
  contactIds: z.array(importIdSchema).min(1).max(100),
});
export type UserInvite = z.infer<typeof userInviteSchema>;
/** A user as a portal sees it: only its contacts of this portal. */
export const userEntitySchema = z.object({
  userName: z.string(),
  email: z.string().nullable(),
  /** The user's contacts in this portal. */
  contactIds: z.array(z.number().int()),
  /** invited: no password yet; active: has one. */
  status: z.enum(['invited', 'active']),
  /** An invitation link not used, revoked or expired. */
  invitationPending: z.boolean(),
});
export type UserEntity = z.infer<typeof userEntitySchema>;

/** The kinds of entity the audit log and the events name. */
export const entityKinds = [
  'company',
  'contact',
  'ticket',
  'user',
  'invoice',
  'estimate',
  'document',
  'report',
  'public_file',
  'activity_contract',
  'service_contract',
  'subscription',
  'appointment_link',
  'task_link',
  'tag',
  'appointment',
  'wiki_folder',
  'wiki_element',
  'signature_request',
  // The desk's access administration (admin-access.ts).
  'staff_member',
  'api_key',
  // The portal's own settings (admin-settings.ts) and ticket setup (admin-ticket-setup.ts).
  'portal',
  'ticket_type',
  'status_step',
  'assignee_group',
  // Webhook endpoints of the integration API (integration.ts), wherever they are changed from.
  'webhook_endpoint',
  // The portal's support mailbox (email.ts), never its password.
  'mailbox',
] as const;
export const entityKindSchema = z.enum(entityKinds);
export type EntityKind = z.infer<typeof entityKindSchema>;
export const entityActions = [
  'created',
  'updated',
  'deleted',
  'invited',
  'invitation_revoked',
  'deactivated',
  'password_reset_sent',
  'cancelled',
  /** A staff admin opened a read-only session as the contact (admin-people.ts). */
  'viewed_as',
  'role_changed',
  'removed',
  'rotated',
  'revoked',
  /** A webhook endpoint's kept events queued again (`after`: the cursor; `queued`: how many). */
  'replayed',
  /** A group's members set from the ticket setup (admin-ticket-setup.ts). */
  'members_changed',
] as const;
export const entityActionSchema = z.enum(entityActions);
export type EntityAction = z.infer<typeof entityActionSchema>;

// ---- audit log -----------------------------------------------------------------------------------

export const AUDIT_PAGE_MAX = 200;

/** Who the audit log names: an API key, the installation key (PORTAL_ADMIN_KEY) or a staff user. */
export const auditActorTypes = ['api_key', 'staff', 'admin_key'] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

export const auditQuerySchema = z.object({
  actorType: z.enum(auditActorTypes).optional(),
  /** The staff user (id of `GET /api/staff/me`) or the API key (id of the key list). */
  staffUserId: rowIdParam.optional(),
  apiKeyId: rowIdParam.optional(),
  entity: entityKindSchema.optional(),
  entityId: z.string().trim().min(1).max(100).optional(),
  action: entityActionSchema.optional(),
  /** ISO date-times, `from` included, `to` excluded. */
  from: dateTimeInput.optional(),
  to: dateTimeInput.optional(),
  /** The `nextCursor` of the previous page. */
  cursor: cursorText(BigInt(EXT_ID_MAX)).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;
export const auditExportQuerySchema = auditQuerySchema.omit({ cursor: true, limit: true });

export const auditEntrySchema = z.object({
  id: z.number().int(),
  occurredAt: isoDateTime,
  actor: z.object({
    type: z.enum(auditActorTypes),
    /** The key's or the staff user's id; null once it was deleted, and for the installation key. */
    id: z.number().int().nullable(),
    /** The key's name or the staff user's e-mail at the time (the installation key: `PORTAL_ADMIN_KEY`). */
    name: z.string(),
  }),
  entity: z.string(),
  entityId: z.string(),
  action: z.string(),
  /** The entity as the API showed it before and after (null: did not exist), secrets removed. */
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

// ---- routes (see route.ts) -----------------------------------------------------------------------

const companyParam = z.object({ id: extIdParam });
const contactParam = z.object({ contactid: extIdParam });
const invoiceParam = z.object({ invoiceid: extIdParam });
const estimateParam = z.object({
  estimateid: extIdParam,
});
const documentParam = z.object({
  documentid: extIdParam,
});
const reportParam = z.object({ reportid: extIdParam });
const publicFileParam = z.object({
  publicfileid: extIdParam,
});
const userParam = z.object({ username: z.string().trim().min(1).max(200) });
const ticketParam = z.object({ ticketid: extIdParam });

const changeErrors = { 404: errorSchema, 409: errorSchema, 422: errorSchema };

/**
 * The entity routes under one root: `/api/integration/v1` (a key; `read` for GETs, `write` for
 * changes) or `/api/staff/portals/:company/admin` (a staff user with the admin role).
 */
function entityRoutesUnder<
  const Root extends string,
  const R extends Access,
  const W extends Access,
  P extends z.ZodObject,
>(root: Root, read: R, write: W, params: P, tag: string, idempotent: boolean) {
  const idem = idempotent
    ? ' `Idempotency-Key` header: the same key and body answer the stored result (header ' +
      '`Idempotent-Replayed: true`); the same key with another body is 422 `idempotency_key_reused`.'
    : '';
  const refs = ' A reference the portal lacks is 422 `unknown_reference` (the field is named).';
  const tags = [tag] as const;
  const crud = <
    const Path extends string,
    O extends z.ZodObject,
    C extends z.ZodType,
    U extends z.ZodType,
    A extends z.ZodType,
  >(
    what: string,
    path: Path,
    /** The root's params with the entity's id. */
    one: O,
    create: C,
    update: U,
    answer: A,
    /** keyed: the entity is named by its public key (`eventKey`), drawn by the portal when left out. */
    words: { event: string; deleteNote?: string; bodyLimit?: number; keyed?: boolean },
  ) => {
    const idName = Object.keys(one.shape).at(-1)!;
    return {
      create: defineRoute({
        method: 'POST',
        path: `${root}/${path}`,
        params,
        body: create,
        ...(words.bodyLimit ? { bodyLimit: words.bodyLimit } : {}),
        responses: { 201: answer, ...changeErrors },
        access: write,
        tags,
        summary: `Create a ${what}`,
        description:
          (words.keyed
            ? 'Without an `eventKey` the portal draws an unguessable one; 409 `entity_exists` when the key is taken. '
            : `Without an id the portal gives the next free one; 409 \`entity_exists\` when the id is taken. `) +
          `Emits \`${words.event}.created\` and writes the audit log.` +
          refs +
          idem,
      }),
      get: defineRoute({
        method: 'GET',
        path: `${root}/${path}/:${idName}` as `${Root}/${Path}/:${string}`,
        params: one,
        responses: { 200: answer, 404: errorSchema },
        access: read,
        tags,
        summary: `A ${what} as the import format describes it`,
      }),
      update: defineRoute({
        method: 'PATCH',
        path: `${root}/${path}/:${idName}` as `${Root}/${Path}/:${string}`,
        params: one,
        body: update,
        ...(words.bodyLimit ? { bodyLimit: words.bodyLimit } : {}),
        responses: { 200: answer, ...changeErrors },
        access: write,
        tags,
        summary: `Change fields of a ${what}`,
        description:
          `The fields sent replace the stored ones (\`null\` clears an optional one); the rest stay. ` +
          `Nothing is written when nothing differs. Emits \`${words.event}.updated\` and writes the audit log.` +
          refs,
      }),
      remove: defineRoute({
        method: 'DELETE',
        path: `${root}/${path}/:${idName}` as `${Root}/${Path}/:${string}`,
        params: one,
        responses: { 204: null, 404: errorSchema, 409: errorSchema },
        access: write,
        tags,
        summary: `Delete a ${what}`,
        description: `Emits \`${words.event}.deleted\` and writes the audit log.${words.deleteNote ?? ''}`,
      }),
    };
  };
  const company = crud(
    'company',
    'companies',
    params.extend(companyParam.shape),
    companyCreateSchema,
    companyUpdateSchema,
    companySchema,
    {
      event: 'company',
      deleteNote: ' 409 `entity_in_use` while it holds contacts, tickets or any other content.',
    },
  );
  const contact = crud(
    'contact',
    'contacts',
    params.extend(contactParam.shape),
    contactCreateSchema,
    contactUpdateSchema,
    contactSchema,
    {
      event: 'contact',
      deleteNote:
        ' Its users lose it and their sessions end; 409 `entity_in_use` while it has documents or signature requests.',
    },
  );
  const ticket = crud(
    'ticket',
    'tickets',
    params.extend(ticketParam.shape),
    ticketCreateSchema,
    ticketUpdateSchema,
    ticketEntitySchema,
    {
      event: 'ticket',
      deleteNote: ' With its conversation.',
    },
  );
  // Inline base64 PDFs: the schema's own bound; the key is checked before the body is read.
  const withFile = { bodyLimit: 72 * 1024 * 1024 };
  const invoice = crud(
    'invoice',
    'invoices',
    params.extend(invoiceParam.shape),
    invoiceCreateSchema,
    invoiceUpdateSchema,
    invoiceEntitySchema,
    { event: 'invoice', ...withFile },
  );
  const estimate = crud(
    'estimate',
    'estimates',
    params.extend(estimateParam.shape),
    estimateCreateSchema,
    estimateUpdateSchema,
    estimateEntitySchema,
    { event: 'estimate', ...withFile },
  );
  const document = crud(
    "contact's document",
    'documents',
    params.extend(documentParam.shape),
    documentCreateSchema,
    documentUpdateSchema,
    documentEntitySchema,
    { event: 'document', ...withFile },
  );
  const report = crud(
    'activity report',
    'reports',
    params.extend(reportParam.shape),
    reportCreateSchema,
    reportUpdateSchema,
    reportEntitySchema,
    { event: 'report', ...withFile },
  );
  const publicFile = crud(
    'public file of the portal',
    'public-files',
    params.extend(publicFileParam.shape),
    publicFileCreateSchema,
    publicFileUpdateSchema,
    publicFileEntitySchema,
    { event: 'public_file', ...withFile },
  );
  const userOne = params.extend(userParam.shape);
  const userAction = (method: 'POST' | 'DELETE', suffix: string, summary: string, description: string) =>
    defineRoute({
      method,
      path: `${root}/users/:username/${suffix}` as `${Root}/users/:username/${string}`,
      params: userOne,
      responses: { 200: userEntitySchema, 404: errorSchema, 409: errorSchema },
      access: write,
      tags,
      summary,
      description,
    });
  const users = {
    inviteUser: defineRoute({
      method: 'POST',
      path: `${root}/users`,
      params,
      body: userInviteSchema,
      responses: { 201: userEntitySchema, 409: errorSchema, 422: errorSchema },
      access: write,
      tags,
      summary: 'Invite a person by e-mail to contacts of the portal (a new user without a password)',
      description:
        'The invitation link is valid 7 days. 409 `entity_exists` when the user name is taken; 422 ' +
        '`unknown_reference` for a contact the portal lacks. Emits `user.invited`.' +
        idem,
    }),
    user: defineRoute({
      method: 'GET',
      path: `${root}/users/:username`,
      params: userOne,
      responses: { 200: userEntitySchema, 404: errorSchema },
      access: read,
      tags,
      summary: "A user holding contacts of the portal (only this portal's contacts are shown)",
    }),
    resendInvitation: userAction(
      'POST',
      'invitation',
      'Send the invitation again (a new link; earlier ones stop working)',
      '409 `user_already_active` when the user has a password. Emits `user.invited`.' + idem,
    ),
    revokeInvitation: userAction(
      'DELETE',
      'invitation',
      'Revoke the open invitation links of the user',
      'Emits `user.invitation_revoked` (nothing when none was open).',
    ),
    deactivateUser: userAction(
      'POST',
      'deactivate',
      "Remove the user from the portal's contacts; every session of the user ends at once",
      'Open invitations are revoked too. The user keeps contacts of other portals. Emits `user.deactivated`.' +
        idem,
    ),
    passwordReset: userAction(
      'POST',
      'password-reset',
      'E-mail the user a single-use link to set a new password (valid 1 hour)',
      '409 `user_without_email` when the user has no address. Earlier reset links stop working. Emits ' +
        '`user.password_reset_sent`.' +
        idem,
    ),
  };
  const activityContract = crud(
    'hour or unit contract',
    'activity-contracts',
    params.extend(catalogParams.activityContract.shape),
    activityContractCreateSchema,
    activityContractUpdateSchema,
    activityContractEntitySchema,
    { event: 'activity_contract', deleteNote: ' With its activities.' },
  );
  const serviceContract = crud(
    'service contract',
    'service-contracts',
    params.extend(catalogParams.serviceContract.shape),
    serviceContractCreateSchema,
    serviceContractUpdateSchema,
    serviceContractEntitySchema,
    {
      event: 'service_contract',
      deleteNote: ' With its packages, their activities and its documents.',
      ...withFile,
    },
  );
  const subscription = crud(
    'subscription (recurring advance)',
    'subscriptions',
    params.extend(catalogParams.subscription.shape),
    subscriptionCreateSchema,
    subscriptionUpdateSchema,
    subscriptionEntitySchema,
    { event: 'subscription' },
  );
  const appointmentLink = crud(
    'appointment link',
    'appointment-links',
    params.extend(catalogParams.appointmentLink.shape),
    appointmentLinkCreateSchema,
    appointmentLinkUpdateSchema,
    appointmentLinkEntitySchema,
    { event: 'appointment_link', deleteNote: ' With its bookings.', keyed: true },
  );
  const taskLink = crud(
    'task link',
    'task-links',
    params.extend(catalogParams.taskLink.shape),
    taskLinkCreateSchema,
    taskLinkUpdateSchema,
    taskLinkEntitySchema,
    { event: 'task_link', keyed: true },
  );
  // (`tag` names the routes' OpenAPI tag here.)
  const portalTag = crud(
    'tag of the portal',
    'tags',
    params.extend(catalogParams.tag.shape),
    tagCreateSchema,
    tagUpdateSchema,
    tagEntitySchema,
    {
      event: 'tag',
      deleteNote:
        ' 409 `entity_in_use` while service contracts name it (their number in the message): take it off them first.',
    },
  );
  const wikiFolder = crud(
    'wiki folder',
    'wiki-folders',
    params.extend(catalogParams.wikiFolder.shape),
    wikiFolderCreateSchema,
    wikiFolderUpdateSchema,
    wikiFolderEntitySchema,
    { event: 'wiki_folder', deleteNote: ' 409 `entity_in_use` while it holds elements.' },
  );
  const wikiElement = crud(
    'wiki element',
    'wiki-elements',
    params.extend(catalogParams.wikiElement.shape),
    wikiElementCreateSchema,
    wikiElementUpdateSchema,
    wikiElementEntitySchema,
    { event: 'wiki_element', deleteNote: ' 409 `entity_in_use` while a ticket names it.' },
  );
  /** One entry per entity kind: its create, get, update and remove (the server registers them in one loop). */
  const crudTable = {
    company,
    contact,
    ticket,
    invoice,
    estimate,
    document,
    report,
    publicFile,
    activityContract,
    serviceContract,
    subscription,
    appointmentLink,
    taskLink,
    tag: portalTag,
    wikiFolder,
    wikiElement,
  };
  return { crud: crudTable, users };
}

/** The four routes of one entity under one root. */
export interface EntityCrud {
  create: RouteContract;
  get: RouteContract;
  update: RouteContract;
  remove: RouteContract;
}
type FlatCrud<T extends Record<string, EntityCrud>> = {
  [K in keyof T & string as `create${Capitalize<K>}`]: T[K]['create'];
} & { [K in keyof T & string]: T[K]['get'] } & {
  [K in keyof T & string as `update${Capitalize<K>}`]: T[K]['update'];
} & { [K in keyof T & string as `delete${Capitalize<K>}`]: T[K]['remove'] };

/** The table as a flat area of named contracts (createCompany, company, updateCompany, deleteCompany…). */
function flatCrud<T extends Record<string, EntityCrud>>(table: T): FlatCrud<T> {
  const cap = (k: string) => k[0]!.toUpperCase() + k.slice(1);
  return Object.fromEntries(
    Object.entries(table).flatMap(([k, c]) => [
      [`create${cap(k)}`, c.create],
      [k, c.get],
      [`update${cap(k)}`, c.update],
      [`delete${cap(k)}`, c.remove],
    ]),
  ) as FlatCrud<T>;
}

const keyWith = <S extends 'read' | 'write'>(scope: S) => ({ guard: 'apiKey', scope }) as const;
const staffAdmin = { guard: 'staff', role: 'admin' } as const;

const keyRoot = entityRoutesUnder(
  '/api/integration/v1',
  keyWith('read'),
  keyWith('write'),
  z.object({}),
  'integration: entities',
  true,
);
const staffRoot = entityRoutesUnder(
  '/api/staff/portals/:company/admin',
  staffAdmin,
  staffAdmin,
  staffPortalParamsSchema,
  'staff: admin',
  false,
);

/** Per entity kind, its routes under the integration API and under the staff admin API. */
export const entityCrudRoutes = { key: keyRoot.crud, staff: staffRoot.crud };
export const entityKeyRoutes = { ...keyRoot.users, ...flatCrud(keyRoot.crud) };
export const entityStaffRoutes = { ...staffRoot.users, ...flatCrud(staffRoot.crud) };

// ---- the desk's own routes through this service (every staff member of the portal, agents too) ----

/**
 * A ticket opened from the desk on behalf of a contact (a customer who phoned): the import's fields the
 * desk offers, the contact required (the customer must find it in their lists). The portal numbers it
 * as the customer's own tickets (`T-<year>-<progressive>`) and it is dated now.
 */
export const deskTicketCreateSchema = ticketFields
  .pick({
    companyId: true,
    title: true,
    taskTypeId: true,
    statusStepId: true,
    assignedGroupId: true,
    assignedUserId: true,
    nextPlannedActivityInfo: true,
  })
  .extend({
    /** A contact of `companyId`: the customer the ticket is opened for. */
    creatorContactId: importIdSchema,
    /** HTML, sanitised as every description. */
    description: z.string().max(TICKET_DESCRIPTION_MAX).nullish(),
    /** The agent's own uploads (`POST …/uploads`), attached to the ticket in this order. */
    attachmentIds: z.array(rowIdSchema).max(MAX_ATTACHMENTS).default([]),
  });
export type DeskTicketCreate = z.infer<typeof deskTicketCreateSchema>;

/** A contact as the desk's pickers show it (agents too): no permissions, no users. */
export const deskContactSchema = z.object({
  contactId: z.number().int(),
  companyId: z.number().int(),
  referentName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});
export type DeskContact = z.infer<typeof deskContactSchema>;
export const deskContactPageSchema = z.object({
  items: z.array(deskContactSchema),
  nextCursor: z.string().nullable(),
});
export const deskContactQuerySchema = z.object({
  /** Part of a name or e-mail; digits also find the id. */
  q: z.string().trim().max(100).optional(),
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const staffAgent = { guard: 'staff' } as const;
const desk = '/api/staff/portals/:company';
const deskTags = ['staff'] as const;
const taskLinkOne = staffTicketParamsSchema.extend(catalogParams.taskLink.shape);

/**
 * What any staff member of the portal does through the entity service: open a ticket for a contact
 * (with its pickers) and share a ticket's task page. The service is the entity routes' (events, audit,
 * the import's writers and rules); the bodies are narrower than the admin's (no ids, no dates).
 */
export const deskEntityRoutes = {
  createTicket: defineRoute({
    method: 'POST',
    path: `${desk}/tickets`,
    params: staffPortalParamsSchema,
    body: deskTicketCreateSchema,
    bodyLimit: TICKET_BODY_LIMIT,
    responses: { 201: ticketEntitySchema, 422: errorSchema },
    access: staffAgent,
    tags: deskTags,
    summary: 'Open a ticket on behalf of a contact (a customer who phoned); answers the ticket',
    description:
      "The contact sees it in their lists at once. The portal numbers it as the customers' tickets. " +
      'Emits `ticket.created` (source: the staff user) and writes the audit log; the agents who are to ' +
      "hear of a new ticket are e-mailed as for a customer's (the caller excepted). 422 " +
      '`unknown_reference` names a company, contact (of another company too), type, step, group or ' +
      'agent the portal lacks.',
  }),
  companies: defineRoute({
    method: 'GET',
    path: `${desk}/companies`,
    params: staffPortalParamsSchema,
    query: companyPickQuerySchema,
    responses: { 200: companyPickSchema },
    access: staffAgent,
    tags: deskTags,
    summary: "Companies of the portal whose name starts with `q`, by name: the desk's company picker",
  }),
  companyContacts: defineRoute({
    method: 'GET',
    path: `${desk}/companies/:id/contacts`,
    params: staffPortalParamsSchema.extend(companyParam.shape),
    query: deskContactQuerySchema,
    responses: { 200: deskContactPageSchema, 404: errorSchema },
    access: staffAgent,
    tags: deskTags,
    summary: "A company's contacts by name (search by name, e-mail or id): the desk's contact picker",
  }),
  taskLinks: defineRoute({
    method: 'GET',
    path: `${desk}/tickets/:ticketid/task-links`,
    params: staffTicketParamsSchema,
    responses: { 200: z.object({ items: z.array(taskLinkEntitySchema) }), 404: errorSchema },
    access: staffAgent,
    tags: deskTags,
    summary: "The ticket's task page links (read-only pages by an unguessable key), oldest first",
  }),
  createTaskLink: defineRoute({
    method: 'POST',
    path: `${desk}/tickets/:ticketid/task-links`,
    params: staffTicketParamsSchema,
    responses: { 201: taskLinkEntitySchema, 404: errorSchema, 422: errorSchema },
    access: staffAgent,
    tags: deskTags,
    summary: 'A new task page link of the ticket, with an unguessable key',
    description:
      'The page is `/tasks/{company}/{eventKey}` (read-only, no sign-in). Emits `task_link.created` and ' +
      'writes the audit log.',
  }),
  deleteTaskLink: defineRoute({
    method: 'DELETE',
    path: `${desk}/tickets/:ticketid/task-links/:eventkey`,
    params: taskLinkOne,
    responses: { 204: null, 404: errorSchema },
    access: staffAgent,
    tags: deskTags,
    summary: 'Revoke a task page link of the ticket: the page answers as for an unknown key',
    description: 'Emits `task_link.deleted` and writes the audit log. 404 for a key of another ticket.',
  }),
};

export const auditRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/admin/audit-log',
    params: staffPortalParamsSchema,
    query: auditQuerySchema,
    responses: { 200: auditPageSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'The audit log of the portal, newest first, filtered; keyset pages with nextCursor',
  }),
  export: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/admin/audit-log.csv',
    params: staffPortalParamsSchema,
    query: auditExportQuerySchema,
    responses: {
      200: binaryAnswer('The filtered audit log as CSV (UTF-8, streamed), newest first', 'text/csv'),
    },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary:
      'The audit log as CSV; cells starting with = + - @ are prefixed with a quote (formula injection)',
  }),
};
