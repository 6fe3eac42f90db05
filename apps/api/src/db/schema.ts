/**
 * The one database schema. Every business row belongs to a portal; the ids the back office hands us
 * (`extId`) are unique only within their portal, so two portals may reuse the same numbers. Internal
 * `id` columns are ours and never leave the server.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();
/** A full-text vector (the searches' generated columns); read by SQL only, never selected whole. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const extId = () => bigint('ext_id', { mode: 'number' }).notNull();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const portalRef = () =>
  integer('portal_id')
    .notNull()
    .references(() => portals.id, { onDelete: 'cascade' });
const companyRef = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

/** Content-addressed bytes: one row per distinct SHA-256, the bytes live in the file store. */
export const blobs = pgTable('blobs', {
  sha256: text('sha256').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** The one row saying when the file store was last swept, claimed by one process per pass (0037). */
export const fileSweeps = pgTable('file_sweeps', {
  id: smallint('id').primaryKey(),
  lastAt: ts('last_at').notNull(),
  lastFullAt: ts('last_full_at').notNull(),
});

/**
 * A named reference to a blob, owned by a portal. Uploads record who uploaded them and when they were
 * attached, so an uploaded id can be attached once, by its uploader only.
 */
export const files = pgTable(
  'files',
  {
    id: id(),
    portalId: portalRef(),
    sha256: text('sha256')
      .notNull()
      .references(() => blobs.sha256),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    uploadedByContactId: integer('uploaded_by_contact_id').references(() => contacts.id, {
      onDelete: 'cascade',
    }),
    attachedAt: ts('attached_at'),
    /** Uploaded through the integration API by this key (it alone may attach it). */
    uploadedByApiKeyId: integer('uploaded_by_api_key_id').references((): AnyPgColumn => apiKeys.id, {
      onDelete: 'set null',
    }),
    /** Uploaded on the staff desk by this staff user (0009; staffUsers is declared below). */
    uploadedByStaffId: integer('uploaded_by_staff_id').references((): AnyPgColumn => staffUsers.id, {
      onDelete: 'cascade',
    }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('files_portal_sha_idx').on(t.portalId, t.sha256, t.name, t.contentType),
    // A contact's uploads of the last 24 hours, for the daily bound (0041).
    index('files_uploader_idx').on(t.uploadedByContactId, t.createdAt),
    index('files_sha_idx').on(t.sha256),
    index('files_pending_idx')
      .on(t.uploadedByContactId, t.createdAt)
      .where(sql`${t.attachedAt} is null`),
    index('files_unattached_created_idx')
      .on(t.createdAt)
      .where(sql`${t.attachedAt} is null and ${t.uploadedByContactId} is not null`),
    index('files_staff_pending_idx')
      .on(t.uploadedByStaffId, t.createdAt)
      .where(sql`${t.attachedAt} is null`),
    index('files_staff_unattached_created_idx')
      .on(t.createdAt)
      .where(sql`${t.attachedAt} is null and ${t.uploadedByStaffId} is not null`),
    index('files_api_key_uploader_idx')
      .on(t.uploadedByApiKeyId)
      .where(sql`${t.uploadedByApiKeyId} is not null`),
  ],
);

export const portals = pgTable('portals', {
  id: id(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  logoFileId: integer('logo_file_id'),
  baseColor: text('base_color'),
  customCss: text('custom_css').notNull().default(''),
  footerCustomHtml: text('footer_custom_html').notNull().default(''),
  disableHtmlEditor: boolean('disable_html_editor').notNull().default(false),
  enableServiceContracts: boolean('enable_service_contracts').notNull().default(false),
  privacyHtml: text('privacy_html').notNull().default(''),
  timeZone: text('time_zone').notNull().default('Europe/Rome'),
  defaultLanguage: text('default_language').notNull().default('it-IT'),
  /** Sign-in lands on the overview instead of the first section the contact may see (migration 0011). */
  overviewLanding: boolean('overview_landing').notNull().default(false),
  /** A rating at or below this tells the ticket's agents (0038); 0: never. */
  lowRatingThreshold: smallint('low_rating_threshold').notNull().default(2),
  /**
   * Who hears of a customer's ticket or reply with no assignee and no group (0058): this group's
   * members; null (and after the group's deletion) the portal's staff admins.
   */
  triageGroupId: integer('triage_group_id').references((): AnyPgColumn => assigneeGroups.id, {
    onDelete: 'set null',
  }),
  /** Last external ticket / comment id handed out; portal-created rows continue after the CRM's. */
  ticketSeq: bigint('ticket_seq', { mode: 'number' }).notNull().default(0),
  commentSeq: bigint('comment_seq', { mode: 'number' }).notNull().default(0),
  attachmentSeq: bigint('attachment_seq', { mode: 'number' }).notNull().default(0),
  documentSeq: bigint('document_seq', { mode: 'number' }).notNull().default(0),
  /** Agents the portal creates for staff users the import does not know (0009). */
  agentSeq: bigint('agent_seq', { mode: 'number' }).notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: id(),
    portalId: portalRef(),
    extId: extId(),
    name: text('name').notNull(),
    color: text('color'),
    /** The name per language (0046), when the back office gives them; `name` otherwise. */
    names: jsonb('names').$type<Partial<Record<'it-IT' | 'en-EN' | 'es-ES', string>>>(),
  },
  (t) => [uniqueIndex('ticket_types_ext_uq').on(t.portalId, t.extId)],
);

export const statusSteps = pgTable(
  'status_steps',
  {
    id: id(),
    portalId: portalRef(),
    extId: extId(),
    name: text('name').notNull(),
    /** The name per language (0046), when the back office gives them; `name` otherwise. */
    names: jsonb('names').$type<Partial<Record<'it-IT' | 'en-EN' | 'es-ES', string>>>(),
    taskStatus: integer('task_status').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    isClosing: boolean('is_closing').notNull().default(false),
  },
  (t) => [uniqueIndex('status_steps_ext_uq').on(t.portalId, t.extId)],
);

export const assigneeGroups = pgTable(
  'assignee_groups',
  { id: id(), portalId: portalRef(), extId: extId(), name: text('name').notNull() },
  (t) => [uniqueIndex('assignee_groups_ext_uq').on(t.portalId, t.extId)],
);

export const agents = pgTable(
  'agents',
  {
    id: id(),
    portalId: portalRef(),
    extId: extId(),
    displayName: text('display_name').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    email: text('email'),
    profileFileId: integer('profile_file_id').references(() => files.id),
  },
  (t) => [uniqueIndex('agents_ext_uq').on(t.portalId, t.extId)],
);

export const tags = pgTable(
  'tags',
  {
    id: id(),
    portalId: portalRef(),
    extId: extId(),
    name: text('name').notNull(),
    tagGroupName: text('tag_group_name').notNull().default(''),
  },
  (t) => [uniqueIndex('tags_ext_uq').on(t.portalId, t.extId)],
);

export const publicFiles = pgTable(
  'public_files',
  {
    id: id(),
    portalId: portalRef(),
    extId: extId(),
    fileName: text('file_name').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [uniqueIndex('public_files_ext_uq').on(t.portalId, t.extId)],
);

export const companies = pgTable(
  'companies',
  { id: id(), portalId: portalRef(), extId: extId(), companyName: text('company_name').notNull() },
  (t) => [
    uniqueIndex('companies_ext_uq').on(t.portalId, t.extId),
    // The admin screens' company picker (migration 0018): name prefix, any case, byte order.
    index('companies_portal_name_idx').on(t.portalId, sql`(lower(${t.companyName}) collate "C")`),
    // 0014: the desk's lists by name and their search.
    index('companies_admin_name_idx').on(t.portalId, sql`lower(${t.companyName})`, t.extId),
    index('companies_name_trgm_idx').using('gin', t.companyName.op('gin_trgm_ops')),
  ],
);

/**
 * A counter per company that moves forward, in the same transaction, with every change to what the
 * company's ticket lists show (statement triggers of migration 0001 on tickets, contacts, reports, wiki,
 * types, steps, files). The API keeps a list's serialised answer and reuses it while the counter stands
 * still, so every process behind a load balancer sees a write at once. No foreign key: a company's
 * cascaded delete fires the triggers of its tickets after the company row is gone.
 */
export const companyListVersions = pgTable('company_list_versions', {
  companyId: integer('company_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

export const contacts = pgTable(
  'contacts',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    referentName: text('referent_name').notNull(),
    email: text('email'),
    phone: text('phone'),
    manageTickets: boolean('manage_tickets').notNull().default(false),
    administrator: boolean('administrator').notNull().default(false),
    viewContactContracts: boolean('view_contact_contracts').notNull().default(false),
    viewRecurringAdvances: boolean('view_recurring_advances').notNull().default(false),
    viewContactActivityReports: boolean('view_contact_activity_reports').notNull().default(false),
    viewContactWiki: boolean('view_contact_wiki').notNull().default(false),
    viewEstimates: boolean('view_estimates').notNull().default(false),
    viewContactInvoices: boolean('view_contact_invoices').notNull().default(false),
    viewContactDocuments: boolean('view_contact_documents').notNull().default(false),
    uploadContactDocuments: boolean('upload_contact_documents').notNull().default(false),
  },
  (t) => [
    uniqueIndex('contacts_ext_uq').on(t.portalId, t.extId),
    index('contacts_company_idx').on(t.companyId),
    // 0014: the desk's lists by name and their search.
    index('contacts_portal_name_idx').on(t.portalId, sql`lower(${t.referentName})`, t.extId),
    index('contacts_company_name_idx').on(t.companyId, sql`lower(${t.referentName})`, t.extId),
    index('contacts_name_trgm_idx').using('gin', t.referentName.op('gin_trgm_ops')),
    index('contacts_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    // 0042: a received e-mail's sender among the portal's contacts.
    index('contacts_portal_email_idx').on(t.portalId, sql`lower(${t.email})`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    userName: text('user_name').notNull(),
    email: text('email'),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    /** it-IT / en-EN / es-ES (older rows: it / en / es); null: the portal's language. */
    language: text('language'),
    /** The name shown for the user (migration 0012); null: the user name. */
    displayName: text('display_name'),
    /** TOTP secret, encrypted (platform/secret-box.ts); null: no authenticator app. */
    totpSecret: text('totp_secret'),
    /** A secret shown for enrolment, encrypted, until its first code confirms it. */
    totpPendingSecret: text('totp_pending_secret'),
    /** When that enrolment was opened (with the password or a code): it confirms for minutes only (0041). */
    totpPendingAt: ts('totp_pending_at'),
    /** The last time step a code was accepted for: a code is good once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** E-mail me when an agent answers one of my tickets (on unless the user turns it off). */
    notifyAgentComments: boolean('notify_agent_comments').notNull().default(true),
    /** E-mail me of a step change, a new document, invoice or signature request (migration 0013). */
    notifyStatusChanges: boolean('notify_status_changes').notNull().default(true),
    notifyNewDocuments: boolean('notify_new_documents').notNull().default(true),
    notifyNewInvoices: boolean('notify_new_invoices').notNull().default(true),
    notifySignatureRequests: boolean('notify_signature_requests').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_user_name_uq').on(sql`lower(${t.userName})`),
    index('users_email_idx').on(sql`lower(${t.email})`),
  ],
);

export const userContacts = pgTable(
  'user_contacts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.contactId] }),
    index('user_contacts_contact_idx').on(t.contactId),
  ],
);

/** Bearer sessions: only the SHA-256 of the token is stored, so a database leak yields no usable token. */
export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    /** What the profile names a session by (migration 0012): the internal id stays inside. */
    publicId: uuid('public_id').notNull().defaultRandom(),
    /** "Remember me": 30 days instead of TOKEN_TTL_HOURS. */
    remember: boolean('remember').notNull().default(false),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** Moved when the app loads (`GET /api/Users/me`), at most every few minutes. */
    lastSeenAt: ts('last_seen_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), uniqueIndex('sessions_public_id_uq').on(t.publicId)],
);

/** Single-use links (invitation, password recovery), stored hashed. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['invite', 'recovery', 'email'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** purpose 'email': the address the link confirms (migration 0012). */
    newEmail: text('new_email'),
  },
  (t) => [index('user_tokens_user_idx').on(t.userId)],
);

// --- Two-factor sign-in (migration 0012) ---

/** Passkeys (WebAuthn credentials) used as a second factor. */
export const userPasskeys = pgTable(
  'user_passkeys',
  {
    id: id(),
    publicId: uuid('public_id').notNull().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url credential id, unique across users. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** JSON list of transports the authenticator named. */
    transports: text('transports'),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('user_passkeys_public_id_uq').on(t.publicId),
    uniqueIndex('user_passkeys_credential_uq').on(t.credentialId),
    index('user_passkeys_user_idx').on(t.userId),
  ],
);

/** Single-use recovery codes, stored as SHA-256. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('user_recovery_codes_user_idx').on(t.userId)],
);

/** A sign-in waiting for its second factor ('login') or a passkey being registered ('passkey'). */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['login', 'passkey'] }).notNull(),
    remember: boolean('remember').notNull().default(false),
    webauthnChallenge: text('webauthn_challenge'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('auth_challenges_token_uq').on(t.tokenHash),
    index('auth_challenges_user_idx').on(t.userId),
  ],
);

/** Fixed-window counters shared by every process (login throttling, OTP sends…). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: ts('window_start').notNull(),
});

export const wikiFolders = pgTable(
  'wiki_folders',
  { id: id(), portalId: portalRef(), companyId: companyRef(), extId: extId(), name: text('name').notNull() },
  (t) => [
    uniqueIndex('wiki_folders_ext_uq').on(t.portalId, t.extId),
    index('wiki_folders_company_idx').on(t.companyId),
  ],
);

export const wikiElements = pgTable(
  'wiki_elements',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => wikiFolders.id, { onDelete: 'cascade' }),
    extId: extId(),
    name: text('name').notNull(),
  },
  (t) => [
    uniqueIndex('wiki_elements_ext_uq').on(t.portalId, t.extId),
    index('wiki_elements_company_idx').on(t.companyId, t.name),
    // The search's partial matches (0013).
    index('wiki_elements_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const wikiProperties = pgTable(
  'wiki_properties',
  {
    id: id(),
    elementId: integer('element_id')
      .notNull()
      .references(() => wikiElements.id, { onDelete: 'cascade' }),
    extId: extId(),
    position: integer('position').notNull(),
    typologyName: text('typology_name').notNull(),
    dataType: text('data_type', { enum: ['text', 'number', 'date', 'bool', 'url', 'file'] }).notNull(),
    value: text('value'),
    fileId: integer('file_id').references(() => files.id),
  },
  (t) => [index('wiki_properties_element_idx').on(t.elementId)],
);

export const tickets = pgTable(
  'tickets',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /**
     * Digest of the sanitiser and the HTML the import sanitised into `description` (0031); forgotten by a
     * trigger when anyone else changes the description. The next import sanitises again only on a change.
     */
    descriptionSource: text('description_source'),
    ticketNumber: text('ticket_number').notNull().default(''),
    internalAnnualProgressive: integer('internal_annual_progressive').notNull().default(0),
    createdOn: ts('created_on').notNull(),
    typeId: integer('type_id')
      .notNull()
      .references(() => ticketTypes.id),
    statusStepId: integer('status_step_id')
      .notNull()
      .references(() => statusSteps.id),
    nextPlannedActivityInfo: text('next_planned_activity_info'),
    creatorContactId: integer('creator_contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** 0054: the agent who opened it on the desk for the contact (a customer who phoned). */
    openedByStaffId: integer('opened_by_staff_id').references((): AnyPgColumn => staffUsers.id, {
      onDelete: 'set null',
    }),
    assignedGroupId: integer('assigned_group_id').references(() => assigneeGroups.id, {
      onDelete: 'set null',
    }),
    assignedUserId: integer('assigned_user_id').references(() => agents.id, { onDelete: 'set null' }),
    wikiElementId: integer('wiki_element_id').references(() => wikiElements.id, { onDelete: 'set null' }),
    /**
     * Kept by triggers of migration 0008 for the staff inbox's indexes: the newest of creation and
     * comments; whether the step's taskStatus is 2; whether the last public message is from staff.
     */
    lastActivityAt: ts('last_activity_at').notNull().defaultNow(),
    /**
     * What the customer sees of it (migration 0040): the newest of creation and public messages, never
     * an internal note. Kept by the same triggers; no writer sets it.
     */
    publicActivityAt: ts('public_activity_at').notNull().defaultNow(),
    closed: boolean('closed').notNull().default(false),
    /**
     * When it was solved (0056): set by the same trigger as `closed` when the ticket moves to a closing
     * step, cleared when it reopens; null for a ticket that arrived closed (the reports then read its
     * `last_activity_at`). No writer sets it.
     */
    closedAt: ts('closed_at'),
    waitingOnCustomer: boolean('waiting_on_customer').notNull().default(false),
    /** The customer's rating, kept by a trigger on ticket_ratings (migration 0038). */
    rating: smallint('rating'),
    /** 0 low, 1 normal, 2 high, 3 urgent (migration 0049; `ticketPriorities` of the contracts). */
    priority: smallint('priority').notNull().default(1),
    /** When the ticket is due, set by an agent (0049). */
    dueAt: ts('due_at'),
    /**
     * The service-level clock (0055), written by the tickets core (core/sla-clock.ts) only: both targets'
     * due times, the first public answer from staff, the business minutes paused while waiting for the
     * customer, the pending target's due time and "soon" instant, breach events sent (bit 1 first
     * response, 2 resolution; 4 and 8: their "about to breach" notices, 0057) and when the breach
     * sweep must next look.
     */
    firstResponseDueAt: ts('first_response_due_at'),
    firstRespondedAt: ts('first_responded_at'),
    resolutionDueAt: ts('resolution_due_at'),
    slaPausedMinutes: integer('sla_paused_minutes').notNull().default(0),
    slaNextDueAt: ts('sla_next_due_at'),
    slaSoonAt: ts('sla_soon_at'),
    slaBreached: smallint('sla_breached').notNull().default(0),
    slaSweepAt: ts('sla_sweep_at'),
    /** Words of title and description, stored by PostgreSQL (migration 0019) for the searches. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('simple', "title" || ' ' || "description")`,
    ),
    /**
     * Words of the public conversation (no positions), kept by the comments' triggers (migration 0030)
     * for the customer search; no writer sets it.
     */
    conversationVector: tsvector('conversation_vector')
      .notNull()
      .default(sql`''`),
  },
  (t) => [
    uniqueIndex('tickets_ext_uq').on(t.portalId, t.extId),
    index('tickets_company_created_idx').on(t.companyId, t.createdOn),
    index('tickets_creator_created_idx').on(t.creatorContactId, t.createdOn),
    index('tickets_wiki_idx').on(t.wikiElementId),
    index('tickets_inbox_idx').on(t.portalId, t.closed, t.lastActivityAt.desc(), t.extId.desc()),
    index('tickets_inbox_assignee_idx').on(
      t.portalId,
      t.assignedUserId,
      t.closed,
      t.lastActivityAt.desc(),
      t.extId.desc(),
    ),
    index('tickets_inbox_group_idx').on(
      t.portalId,
      t.assignedGroupId,
      t.closed,
      t.lastActivityAt.desc(),
      t.extId.desc(),
    ),
    index('tickets_inbox_waiting_idx')
      .on(t.portalId, t.lastActivityAt.desc(), t.extId.desc())
      .where(sql`${t.waitingOnCustomer} and not ${t.closed}`),
    index('tickets_inbox_company_idx').on(t.companyId, t.closed, t.lastActivityAt.desc(), t.extId.desc()),
    // The "Rated" filter (0038).
    index('tickets_inbox_rated_idx')
      .on(t.portalId, t.closed, t.lastActivityAt.desc(), t.extId.desc())
      .where(sql`${t.rating} is not null`),
    // The customer search's walks, newest public activity first (0040): the company's, a contact's own.
    index('tickets_public_company_idx').on(t.companyId, t.closed, t.publicActivityAt.desc(), t.extId.desc()),
    index('tickets_public_creator_idx').on(
      t.creatorContactId,
      t.closed,
      t.publicActivityAt.desc(),
      t.extId.desc(),
    ),
    index('tickets_number_idx').on(t.portalId, sql`lower(${t.ticketNumber})`),
    // A ticket by its number as agents say it (0039).
    index('tickets_progressive_idx').on(t.portalId, t.internalAnnualProgressive),
    // Led by the portal (btree_gin): the staff search reads one portal's entries (0019).
    index('tickets_search_idx').using('gin', t.portalId, t.searchVector),
    index('tickets_title_trgm_idx').using('gin', t.portalId, t.title.op('gin_trgm_ops')),
    index('tickets_number_trgm_idx').using('gin', t.ticketNumber.op('gin_trgm_ops')),
    // 0020: the ticket setup's "in use" counts and the foreign keys' checks on delete.
    index('tickets_type_idx').on(t.typeId),
    index('tickets_step_idx').on(t.statusStepId),
    // The inbox's other orders (0049).
    index('tickets_inbox_created_idx').on(t.portalId, t.closed, t.createdOn.desc(), t.extId.desc()),
    index('tickets_inbox_priority_idx').on(
      t.portalId,
      t.closed,
      t.priority.desc(),
      t.lastActivityAt.desc(),
      t.extId.desc(),
    ),
    index('tickets_inbox_due_idx').on(
      t.portalId,
      t.closed,
      sql`coalesce(${t.dueAt}, 'infinity'::timestamp with time zone)`,
      t.extId,
    ),
    // "Breaching soon" and its count (0055): open tickets whose clock runs, soonest first.
    index('tickets_inbox_sla_idx')
      .on(t.portalId, t.slaSoonAt, t.extId)
      .where(sql`${t.slaSoonAt} is not null and not ${t.closed} and not ${t.waitingOnCustomer}`),
    index('tickets_sla_sweep_idx')
      .on(t.slaSweepAt)
      .where(sql`${t.slaSweepAt} is not null`),
    // The inbox by SLA due, soonest first (0057).
    index('tickets_inbox_sla_due_idx').on(
      t.portalId,
      t.closed,
      sql`coalesce(${t.slaNextDueAt}, 'infinity'::timestamp with time zone)`,
      t.extId,
    ),
    // The desk's reports (0056): one portal's range of an instant, with the filters' columns.
    index('tickets_report_created_idx').on(
      t.portalId,
      t.createdOn,
      t.closed,
      t.priority,
      t.assignedGroupId,
      t.assignedUserId,
      t.typeId,
      t.companyId,
    ),
    index('tickets_report_solved_idx')
      .on(
        t.portalId,
        sql`coalesce(${t.closedAt}, ${t.lastActivityAt})`,
        t.createdOn,
        t.resolutionDueAt,
        t.priority,
        t.assignedGroupId,
        t.assignedUserId,
        t.typeId,
        t.companyId,
      )
      .where(sql`${t.closed}`),
    index('tickets_report_responded_idx')
      .on(
        t.portalId,
        t.firstRespondedAt,
        t.createdOn,
        t.firstResponseDueAt,
        t.priority,
        t.assignedGroupId,
        t.assignedUserId,
        t.typeId,
        t.companyId,
      )
      .where(sql`${t.firstRespondedAt} is not null`),
    index('tickets_report_open_idx')
      .on(t.portalId, t.priority, t.assignedGroupId, t.assignedUserId, t.typeId, t.companyId, t.createdOn)
      .where(sql`not ${t.closed}`),
  ],
);

/**
 * A portal's service-level policy (issue 28 item 13, migration 0055): opening hours per weekday (Sunday
 * first), holidays, targets in business minutes per priority; read in the portal's time zone.
 */
export const slaPolicies = pgTable('sla_policies', {
  portalId: integer('portal_id')
    .primaryKey()
    .references(() => portals.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  hours: jsonb('hours').$type<[string, string][][]>().notNull(),
  holidays: jsonb('holidays').$type<string[]>().notNull().default([]),
  targets: jsonb('targets')
    .$type<
      Record<
        'low' | 'normal' | 'high' | 'urgent',
        { firstResponse: number | null; resolution: number | null }
      >
    >()
    .notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /**
   * After a change, the open tickets' clocks are recomputed by the breach sweep in batches, in ext id
   * order after this cursor; null: nothing pending (0057).
   */
  recomputeAfter: bigint('recompute_after', { mode: 'number' }),
});

/**
 * A company's own service-level targets (issue 28 item 13, migration 0063): per priority, in business
 * minutes, only those it has; what it leaves out is the portal policy's.
 */
export const slaCompanyTargets = pgTable(
  'sla_company_targets',
  {
    companyId: integer('company_id')
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    portalId: portalRef(),
    targets: jsonb('targets')
      .$type<
        Partial<Record<'low' | 'normal' | 'high' | 'urgent', { firstResponse?: number; resolution?: number }>>
      >()
      .notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('sla_company_targets_portal_idx').on(t.portalId)],
);

/**
 * A company whose targets changed: the breach sweep recomputes its open tickets' clocks in batches, in
 * ext id order after this cursor, and drops the row after the last (0063).
 */
export const slaCompanyRecomputes = pgTable('sla_company_recomputes', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  recomputeAfter: bigint('recompute_after', { mode: 'number' }).notNull(),
});

/** The tickets' own tags (issue 28, migration 0049), by name per portal; not the contracts' `tags`. */
export const ticketTags = pgTable(
  'ticket_tags',
  {
    id: id(),
    portalId: portalRef(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ticket_tags_name_uq').on(t.portalId, sql`lower(${t.name})`)],
);

export const ticketTagLinks = pgTable(
  'ticket_tag_links',
  {
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => ticketTags.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.tagId] }),
    index('ticket_tag_links_tag_idx').on(t.tagId, t.ticketId),
  ],
);

export const ticketComments = pgTable(
  'ticket_comments',
  {
    id: id(),
    portalId: portalRef(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    extId: extId(),
    message: text('message').notNull().default(''),
    /** As tickets.description_source, for the message (0031). */
    messageSource: text('message_source'),
    creationDate: ts('creation_date').notNull(),
    /**
     * The sender: a contact (with `senderUserId`, the portal user who typed it) or an agent (with
     * `senderStaffId` when a staff user wrote it on the desk), exactly one (CHECK of migration 0035).
     * A contact or agent who wrote comments cannot be deleted.
     */
    senderContactId: integer('sender_contact_id').references(() => contacts.id),
    senderAgentId: integer('sender_agent_id').references(() => agents.id),
    /** The web user who wrote it from the portal (drives 'you'). */
    senderUserId: integer('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** An internal note: staff only; no customer answer, e-mail, task page or event contains it. */
    internal: boolean('internal').notNull().default(false),
    /** The staff user who wrote it from the staff desk (0008; staffUsers is declared below). */
    senderStaffId: integer('sender_staff_id').references((): AnyPgColumn => staffUsers.id, {
      onDelete: 'set null',
    }),
    /** Words of the message, stored by PostgreSQL (migration 0019) for the searches. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', "message")`),
    /** Where it came in: 'portal', 'desk', 'api' or 'email' (0035); null: imported, or written before. */
    channel: text('channel'),
    /** The e-mail a comment received by e-mail came in, as a stored file (0035). */
    originalEmailFileId: integer('original_email_file_id').references(() => files.id),
  },
  (t) => [
    check(
      'ticket_comments_one_sender',
      sql`(${t.senderContactId} is not null and ${t.senderAgentId} is null and ${t.senderStaffId} is null)
        or (${t.senderAgentId} is not null and ${t.senderContactId} is null and ${t.senderUserId} is null)`,
    ),
    check('ticket_comments_channel', sql`${t.channel} in ('portal', 'desk', 'api', 'email')`),
    uniqueIndex('ticket_comments_ext_uq').on(t.portalId, t.extId),
    index('ticket_comments_ticket_idx').on(t.ticketId, t.creationDate),
    index('ticket_comments_search_idx').using('gin', t.portalId, t.searchVector),
  ],
);

/** Files attached to a ticket (commentId null: attached at creation) or to one of its comments. */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: id(),
    portalId: portalRef(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'cascade' }),
    extId: extId(),
    name: text('name').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [
    index('ticket_attachments_ticket_idx').on(t.ticketId),
    index('ticket_attachments_comment_idx').on(t.commentId),
  ],
);

export const activityReports = pgTable(
  'activity_reports',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    name: text('name').notNull(),
    dateTime: ts('date_time').notNull(),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [
    uniqueIndex('activity_reports_ext_uq').on(t.portalId, t.extId),
    index('activity_reports_company_date_idx').on(t.companyId, t.dateTime),
    index('activity_reports_ticket_idx').on(t.ticketId),
  ],
);

export const activityContracts = pgTable(
  'activity_contracts',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    name: text('name').notNull(),
    start: ts('start').notNull(),
    end: ts('end'),
    contractType: integer('contract_type').notNull(),
    hoursAmount: numeric('hours_amount', { precision: 12, scale: 2, mode: 'number' }),
    unitAmount: numeric('unit_amount', { precision: 12, scale: 2, mode: 'number' }),
  },
  (t) => [
    uniqueIndex('activity_contracts_ext_uq').on(t.portalId, t.extId),
    index('activity_contracts_company_idx').on(t.companyId, t.start),
    // The search's partial matches (0013).
    index('activity_contracts_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const serviceContracts = pgTable(
  'service_contracts',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    name: text('name').notNull(),
    status: integer('status').notNull(),
    activeFrom: ts('active_from').notNull(),
    activeTo: ts('active_to'),
  },
  (t) => [
    uniqueIndex('service_contracts_ext_uq').on(t.portalId, t.extId),
    index('service_contracts_company_idx').on(t.companyId, t.activeFrom),
    // The search's partial matches (0013).
    index('service_contracts_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export const serviceContractTags = pgTable(
  'service_contract_tags',
  {
    serviceContractId: integer('service_contract_id')
      .notNull()
      .references(() => serviceContracts.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.serviceContractId, t.tagId] }),
    // A tag's contracts (a delete counts them; migration 0032).
    index('service_contract_tags_tag_idx').on(t.tagId),
  ],
);

export const serviceContractWikiElements = pgTable(
  'service_contract_wiki_elements',
  {
    serviceContractId: integer('service_contract_id')
      .notNull()
      .references(() => serviceContracts.id, { onDelete: 'cascade' }),
    wikiElementId: integer('wiki_element_id')
      .notNull()
      .references(() => wikiElements.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.serviceContractId, t.wikiElementId] }),
    index('service_contract_wiki_elements_wiki_idx').on(t.wikiElementId),
  ],
);

export const serviceContractDocuments = pgTable(
  'service_contract_documents',
  {
    id: id(),
    serviceContractId: integer('service_contract_id')
      .notNull()
      .references(() => serviceContracts.id, { onDelete: 'cascade' }),
    extId: extId(),
    documentName: text('document_name').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [index('service_contract_documents_sc_idx').on(t.serviceContractId)],
);

export const serviceContractPackages = pgTable(
  'service_contract_packages',
  {
    id: id(),
    serviceContractId: integer('service_contract_id')
      .notNull()
      .references(() => serviceContracts.id, { onDelete: 'cascade' }),
    extId: extId(),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    unitsText: text('units_text').notNull().default(''),
    residualText: text('residual_text').notNull().default(''),
  },
  (t) => [index('service_contract_packages_sc_idx').on(t.serviceContractId)],
);

/** Activities of an activity contract or of a service-contract package (exactly one parent). */
export const contractActivities = pgTable(
  'contract_activities',
  {
    id: id(),
    activityContractId: integer('activity_contract_id').references(() => activityContracts.id, {
      onDelete: 'cascade',
    }),
    packageId: integer('package_id').references(() => serviceContractPackages.id, { onDelete: 'cascade' }),
    extId: extId(),
    activityTypeName: text('activity_type_name').notNull(),
    start: ts('start').notNull(),
    durationMinutes: integer('duration_minutes').notNull().default(0),
    units: numeric('units', { precision: 12, scale: 2, mode: 'number' }),
    assignedUser: text('assigned_user').notNull().default(''),
    addressType: integer('address_type').notNull().default(0),
    address: text('address'),
    reportFileId: integer('report_file_id').references(() => files.id),
  },
  (t) => [
    index('contract_activities_ac_idx').on(t.activityContractId, t.start),
    index('contract_activities_pkg_idx').on(t.packageId, t.start),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    documentNumber: text('document_number').notNull(),
    total: numeric('total', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    invoiceDate: ts('invoice_date').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
    // The payment as the back office tracks it; both null when it does not (0059).
    dueDate: ts('due_date'),
    paidDate: ts('paid_date'),
  },
  (t) => [
    uniqueIndex('invoices_ext_uq').on(t.portalId, t.extId),
    index('invoices_company_date_idx').on(t.companyId, t.invoiceDate),
    index('invoices_unpaid_idx')
      .on(t.companyId, t.dueDate)
      .where(sql`${t.paidDate} is null and ${t.dueDate} is not null`),
    // The search's partial matches (0013).
    index('invoices_number_trgm_idx').using('gin', t.documentNumber.op('gin_trgm_ops')),
  ],
);

export const estimates = pgTable(
  'estimates',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    estimateName: text('estimate_name').notNull(),
    estimateNumber: text('estimate_number').notNull(),
    revisionNumber: integer('revision_number').notNull().default(0),
    total: numeric('total', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    estimateCreationDate: ts('estimate_creation_date').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [
    uniqueIndex('estimates_ext_uq').on(t.portalId, t.extId),
    index('estimates_company_date_idx').on(t.companyId, t.estimateCreationDate),
    // The search's partial matches (0013).
    index('estimates_number_trgm_idx').using('gin', t.estimateNumber.op('gin_trgm_ops')),
    index('estimates_name_trgm_idx').using('gin', t.estimateName.op('gin_trgm_ops')),
  ],
);

export const recurringAdvances = pgTable(
  'recurring_advances',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    extId: extId(),
    code: text('code').notNull(),
    description: text('description').notNull(),
    quantity: numeric('quantity', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    taxedTotal: numeric('taxed_total', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    advanceDate: ts('advance_date').notNull(),
    trigger: jsonb('trigger').notNull(),
  },
  (t) => [
    uniqueIndex('recurring_advances_ext_uq').on(t.portalId, t.extId),
    index('recurring_advances_company_idx').on(t.companyId),
  ],
);

/** A contact's own documents (imported, uploaded, or a signed PDF). */
export const documents = pgTable(
  'documents',
  {
    id: id(),
    portalId: portalRef(),
    companyId: companyRef(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    extId: extId(),
    documentName: text('document_name').notNull(),
    createDate: ts('create_date').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [
    uniqueIndex('documents_ext_uq').on(t.portalId, t.extId),
    index('documents_contact_date_idx').on(t.contactId, t.createDate),
    // The search's partial matches (0013).
    index('documents_name_trgm_idx').using('gin', t.documentName.op('gin_trgm_ops')),
  ],
);

export const signatureRequests = pgTable(
  'signature_requests',
  {
    id: id(),
    portalId: portalRef(),
    documentKey: text('document_key').notNull(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    documentName: text('document_name').notNull(),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id),
    requireOtp: boolean('require_otp').notNull().default(true),
    expiresAt: ts('expires_at'),
    signedAt: ts('signed_at'),
    signedFileId: integer('signed_file_id').references(() => files.id),
    /** Made by a staff admin or a key (0017); null for imported rows. */
    createdAt: ts('created_at'),
    /** The signer first opened the signing page (0017). */
    openedAt: ts('opened_at'),
    /** Cancelled: the link stops working (0017). */
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    uniqueIndex('signature_requests_key_uq').on(t.portalId, t.documentKey),
    index('signature_requests_portal_idx').on(t.portalId, t.id.desc()),
    // Signature requests waiting for a contact (0011).
    index('signature_requests_contact_idx')
      .on(t.contactId)
      .where(sql`${t.signedAt} is null`),
  ],
);

/** One-time codes for signing, stored hashed; attempts are counted here so every process sees them. */
export const signatureOtps = pgTable(
  'signature_otps',
  {
    id: id(),
    requestId: integer('request_id')
      .notNull()
      .references(() => signatureRequests.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    consumedAt: ts('consumed_at'),
  },
  (t) => [index('signature_otps_request_idx').on(t.requestId, t.createdAt)],
);

/** The signing audit trail, as data. */
export const signatureEvents = pgTable(
  'signature_events',
  {
    id: id(),
    requestId: integer('request_id')
      .notNull()
      .references(() => signatureRequests.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    at: ts('at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    details: jsonb('details').notNull().default({}),
  },
  (t) => [index('signature_events_request_idx').on(t.requestId, t.at)],
);

export const appointmentLinks = pgTable(
  'appointment_links',
  {
    id: id(),
    portalId: portalRef(),
    eventKey: text('event_key').notNull(),
    title: text('title').notNull(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    defaultDurationMinutes: integer('default_duration_minutes').notNull(),
    slotMinutes: integer('slot_minutes').notNull(),
    daysAhead: integer('days_ahead').notNull(),
    weeklyHours: jsonb('weekly_hours').notNull(),
  },
  (t) => [uniqueIndex('appointment_links_key_uq').on(t.portalId, t.eventKey)],
);

export const appointments = pgTable(
  'appointments',
  {
    id: id(),
    portalId: portalRef(),
    linkId: integer('link_id')
      .notNull()
      .references(() => appointmentLinks.id, { onDelete: 'cascade' }),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    cancelKey: text('cancel_key').notNull().unique(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone').notNull(),
    email: text('email'),
    companyName: text('company_name').notNull().default(''),
    notes: text('notes').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    index('appointments_agent_time_idx').on(t.agentId, t.startsAt),
    // The staff desk's bookings list, per portal or per link (migration 0018).
    index('appointments_portal_start_idx').on(t.portalId, t.startsAt),
    index('appointments_link_start_idx').on(t.linkId, t.startsAt),
    // The overview's upcoming appointments: those booked with the user's e-mail (0011).
    index('appointments_email_idx').on(t.portalId, sql`lower(${t.email})`, t.startsAt),
  ],
);

/**
 * One row per slot an active appointment occupies. The unique key is what makes two bookings of one
 * slot impossible: the database decides, whatever process took the request.
 */
export const appointmentSlotClaims = pgTable(
  'appointment_slot_claims',
  {
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    slotStart: ts('slot_start').notNull(),
    appointmentId: integer('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.slotStart] })],
);

export const taskLinks = pgTable(
  'task_links',
  {
    id: id(),
    portalId: portalRef(),
    eventKey: text('event_key').notNull(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('task_links_key_uq').on(t.portalId, t.eventKey),
    // A ticket's links (the desk's ticket page; migration 0032).
    index('task_links_ticket_idx').on(t.ticketId),
  ],
);

/** E-mail and SMS waiting to be sent: written in the transaction of the change that causes them. */
export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    channel: text('channel', { enum: ['email', 'sms', 'notification'] }).notNull(),
    payload: jsonb('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('outbox_pending_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null`),
  ],
);

/** PostgreSQL's 64-bit transaction id, read and written as its decimal text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * Portal API keys (migration 0004): only SHA-256 hashes of secrets are stored. After a rotation the
 * previous secret stays valid until `previousValidUntil`.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    portalId: portalRef(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    previousSecretHash: text('previous_secret_hash'),
    previousValidUntil: ts('previous_valid_until'),
    scopes: text('scopes').array().notNull(),
    createdAt: ts('created_at').notNull(),
    rotatedAt: ts('rotated_at'),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    /** Who made it (0041): a staff user, a key, or neither (the installation key); the name as shown then. */
    createdByStaffId: integer('created_by_staff_id').references((): AnyPgColumn => staffUsers.id, {
      onDelete: 'set null',
    }),
    createdByApiKeyId: integer('created_by_api_key_id').references((): AnyPgColumn => apiKeys.id, {
      onDelete: 'set null',
    }),
    createdByName: text('created_by_name'),
  },
  (t) => [
    uniqueIndex('api_keys_secret_uq').on(t.secretHash),
    index('api_keys_creator_idx')
      .on(t.portalId, t.createdByStaffId)
      .where(sql`${t.createdByStaffId} is not null`),
    uniqueIndex('api_keys_previous_secret_uq')
      .on(t.previousSecretHash)
      .where(sql`${t.previousSecretHash} is not null`),
    index('api_keys_portal_idx').on(t.portalId, t.id),
  ],
);

/**
 * What happened, written in the transaction of the change. Feed order is (xid, id): see
 * platform/events.ts for why an id alone is not a safe cursor.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    portalId: portalRef(),
    xid: xid8('xid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    type: text('type').notNull(),
    occurredAt: ts('occurred_at').notNull(),
    source: jsonb('source').notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [
    index('events_feed_idx').on(t.portalId, t.xid, t.id),
    index('events_occurred_idx').on(t.occurredAt),
  ],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    portalId: portalRef(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** Empty: every type. */
    eventTypes: text('event_types').array().notNull(),
    /**
     * The signing secret, sealed (`sealed.v1.…`, AES-256-GCM under a key derived from SECRET) or, in
     * rows older than migration 0025 until the next start, in clear (`whsec_…`): see
     * modules/integration/webhook-secrets.ts.
     */
    secret: text('secret').notNull(),
    /** The secret before the last rotation (same format); it signs too until `previousValidUntil`. */
    previousSecret: text('previous_secret'),
    previousValidUntil: ts('previous_valid_until'),
    rotatedAt: ts('rotated_at'),
    notifyEmail: text('notify_email'),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** Set by the first failure after a success; three days of it disable the endpoint. */
    failingSince: ts('failing_since'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    /** Who made it (0041), as for API keys. */
    createdByStaffId: integer('created_by_staff_id').references((): AnyPgColumn => staffUsers.id, {
      onDelete: 'set null',
    }),
    createdByApiKeyId: integer('created_by_api_key_id').references((): AnyPgColumn => apiKeys.id, {
      onDelete: 'set null',
    }),
    createdByName: text('created_by_name'),
  },
  (t) => [
    index('webhook_endpoints_portal_idx').on(t.portalId, t.id),
    index('webhook_endpoints_creator_idx')
      .on(t.portalId, t.createdByStaffId)
      .where(sql`${t.createdByStaffId} is not null`),
  ],
);

/** One event to one endpoint, created in the event's transaction (or by a replay). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    createdAt: ts('created_at').notNull(),
    deliveredAt: ts('delivered_at'),
    givenUpAt: ts('given_up_at'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null and ${t.givenUpAt} is null`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_endpoint_due_idx')
      .on(t.endpointId, t.nextAttemptAt, t.id)
      .where(sql`${t.deliveredAt} is null and ${t.givenUpAt} is null`),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** The delivery log: one row per HTTP attempt. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    attemptedAt: ts('attempted_at').notNull(),
    status: integer('status'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
  },
  (t) => [
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_attempts_delivery_idx').on(t.deliveryId),
  ],
);

/** Answers of POSTs sent with an `Idempotency-Key`, per API key, written with the change. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idemKey: text('idem_key').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.idemKey] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

// --- Staff desk (migration 0008). Staff accounts are apart from the contacts' users: their own
// sessions and links, so no contact lookup can match a staff token and the other way round.

export const staffUsers = pgTable(
  'staff_users',
  {
    id: id(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    profileFileId: integer('profile_file_id').references(() => files.id, { onDelete: 'set null' }),
    /** Appended to each public reply written on the desk (migration 0048). */
    signature: text('signature').notNull().default(''),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    status: text('status', { enum: ['invited', 'active', 'disabled'] })
      .notNull()
      .default('invited'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_users_email_uq').on(sql`lower(${t.email})`)],
);

/** A staff user's role in a portal; agentId is the portal's agent row tickets name as assignee. */
export const staffMemberships = pgTable(
  'staff_memberships',
  {
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    portalId: portalRef(),
    role: text('role', { enum: ['agent', 'admin'] })
      .notNull()
      .default('agent'),
    agentId: integer('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When the member last used this portal's desk (0041): what the portal's access list shows. */
    lastSeenAt: ts('last_seen_at'),
  },
  (t) => [
    primaryKey({ columns: [t.staffUserId, t.portalId] }),
    index('staff_memberships_portal_idx').on(t.portalId),
    uniqueIndex('staff_memberships_agent_uq').on(t.agentId),
  ],
);

export const staffGroupMembers = pgTable(
  'staff_group_members',
  {
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => assigneeGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.staffUserId, t.groupId] }),
    index('staff_group_members_group_idx').on(t.groupId),
  ],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull().unique(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('staff_sessions_user_idx').on(t.staffUserId)],
);

export const staffTokens = pgTable(
  'staff_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull().unique(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    portalId: portalRef(),
    purpose: text('purpose', { enum: ['invite', 'recovery'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('staff_tokens_user_idx').on(t.staffUserId)],
);

export const staffPreferences = pgTable('staff_preferences', {
  staffUserId: integer('staff_user_id')
    .primaryKey()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  emailNewTicket: boolean('email_new_ticket').notNull().default(true),
  emailCustomerReply: boolean('email_customer_reply').notNull().default(true),
  /** A customer's rating at or below the portal's threshold on a ticket the user is to hear of (0038). */
  emailLowRating: boolean('email_low_rating').notNull().default(true),
  /** The ticket was assigned to the user (0053). */
  emailAssigned: boolean('email_assigned').notNull().default(true),
  /** The user was mentioned (`@handle`) in an internal note (0053). */
  emailMention: boolean('email_mention').notNull().default(true),
  /** A ticket the user is to hear of breached, or is about to breach, its service level (0057). */
  emailSla: boolean('email_sla').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Canned replies (issue 28 item 6, migration 0051): personal (`ownerStaffUserId`) or shared with the
 * portal (null, admins write them). `texts`: one per language; `actions`: ticket changes applied with
 * the reply, by the back office's ids (`MacroActions` of the contracts).
 */
export const staffMacros = pgTable(
  'staff_macros',
  {
    id: id(),
    portalId: portalRef(),
    ownerStaffUserId: integer('owner_staff_user_id').references(() => staffUsers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    texts: jsonb('texts').notNull(),
    actions: jsonb('actions').notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('staff_macros_portal_owner_idx').on(t.portalId, t.ownerStaffUserId, sql`lower(${t.name})`, t.id),
  ],
);

/** The desk's bell (issue 28, migration 0053): written by tickets/core/staff-bell.ts only. */
export const staffNotifications = pgTable(
  'staff_notifications',
  {
    id: id(),
    key: uuid('key').notNull().defaultRandom().unique(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    portalId: portalRef(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['assigned', 'customer_reply', 'mention', 'low_rating', 'sla_breach', 'sla_soon'],
    }).notNull(),
    actorName: text('actor_name').notNull().default(''),
    rating: smallint('rating'),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'set null' }),
    // An SLA notice's target and its due time (0061); null on the other kinds.
    slaTarget: text('sla_target', { enum: ['first_response', 'resolution'] }),
    slaDueAt: ts('sla_due_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
  },
  (t) => [
    index('staff_notifications_list_idx').on(t.staffUserId, t.portalId, t.id.desc()),
    index('staff_notifications_unread_idx')
      .on(t.staffUserId, t.portalId)
      .where(sql`${t.readAt} is null`),
    index('staff_notifications_ticket_idx').on(t.ticketId),
  ],
);

/** The inbox's saved views (issue 28, migration 0053): personal, or shared by a portal admin. */
export const staffSavedViews = pgTable(
  'staff_saved_views',
  {
    id: id(),
    portalId: portalRef(),
    ownerStaffUserId: integer('owner_staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: jsonb('query').notNull(),
    shared: boolean('shared').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('staff_saved_views_owner_idx').on(t.portalId, t.ownerStaffUserId),
    index('staff_saved_views_shared_idx')
      .on(t.portalId)
      .where(sql`${t.shared}`),
  ],
);

export const staffTicketReads = pgTable(
  'staff_ticket_reads',
  {
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.staffUserId, t.ticketId] }),
    index('staff_ticket_reads_ticket_idx').on(t.ticketId),
  ],
);

// --- Staff desk, part 2 (migration 0009): the timeline of ticket changes and presence.

/**
 * One change of a ticket (step, assignee, group, type, next planned activity), written by the
 * `tickets_changes` trigger in the change's transaction; values as they were then (ext id + name).
 */
export const ticketChanges = pgTable(
  'ticket_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    portalId: portalRef(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    kind: text('kind', {
      enum: [
        'step',
        'closed',
        'reopened',
        'assignee',
        'group',
        'type',
        'next_activity',
        'rated',
        'merged_into',
        'merged_from',
        'merge_undone',
      ],
    }).notNull(),
    public: boolean('public').notNull(),
    fromExt: bigint('from_ext', { mode: 'number' }),
    fromName: text('from_name'),
    toExt: bigint('to_ext', { mode: 'number' }),
    toName: text('to_name'),
    actorKind: text('actor_kind', { enum: ['staff', 'contact', 'api_key', 'system'] }).notNull(),
    actorId: integer('actor_id'),
    actorName: text('actor_name').notNull().default(''),
  },
  (t) => [index('ticket_changes_ticket_idx').on(t.ticketId, t.id)],
);

/** Who has a ticket open on the staff desk, until when (heartbeats). */
export const staffPresence = pgTable(
  'staff_presence',
  {
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['viewing', 'replying'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.staffUserId] }),
    index('staff_presence_user_idx').on(t.staffUserId),
  ],
);

/**
 * Who changed what, one row per change of one entity through the integration API (a key), the
 * installation key (`admin_key`, migration 0025) or the staff admin API (a staff user), written in the
 * change's transaction (migration 0010).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    portalId: portalRef(),
    occurredAt: ts('occurred_at').notNull(),
    actorType: text('actor_type', { enum: ['api_key', 'staff', 'admin_key'] }).notNull(),
    apiKeyId: integer('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    staffUserId: integer('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_portal_idx').on(t.portalId, t.id),
    index('audit_log_entity_idx').on(t.portalId, t.entity, t.entityId, t.id),
    index('audit_log_staff_idx')
      .on(t.staffUserId, t.id)
      .where(sql`${t.staffUserId} is not null`),
    index('audit_log_key_idx')
      .on(t.apiKeyId, t.id)
      .where(sql`${t.apiKeyId} is not null`),
    index('audit_log_occurred_idx').on(t.portalId, t.occurredAt),
  ],
);

/**
 * What happened for a customer user (migration 0013): written by triggers in the transaction of the
 * change, read by the bell. `key` is the id answers carry.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    key: uuid('key').notNull().defaultRandom().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['agentReply', 'statusChange', 'newDocument', 'newInvoice', 'signatureRequest'],
    }).notNull(),
    refExtId: bigint('ref_ext_id', { mode: 'number' }),
    refKey: text('ref_key'),
    title: text('title').notNull(),
    detail: text('detail'),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
  },
  (t) => [
    index('notifications_contact_user_idx').on(t.contactId, t.userId, t.id.desc()),
    index('notifications_unread_idx')
      .on(t.contactId, t.userId)
      .where(sql`${t.readAt} is null`),
    index('notifications_user_idx').on(t.userId),
  ],
);

// --- Following a ticket from the customer side (migration 0011) ---

/** When a portal user last read a ticket: unread = the newest public message is someone else's, newer. */
export const contactTicketReads = pgTable(
  'contact_ticket_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.ticketId] }),
    index('contact_ticket_reads_ticket_idx').on(t.ticketId),
  ],
);

/** The customer's rating of a closed ticket: one per ticket, changeable. */
export const ticketRatings = pgTable(
  'ticket_ratings',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    portalId: portalRef(),
    rating: smallint('rating').notNull(),
    comment: text('comment').notNull().default(''),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  // The desk's ratings report (0056): one portal's ratings by when they were last given.
  (t) => [index('ticket_ratings_report_idx').on(t.portalId, t.updatedAt, t.rating, t.ticketId)],
);

/** Colleagues following a ticket: they may open it and get its e-mails. */
export const ticketFollowers = pgTable(
  'ticket_followers',
  {
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedByUserId: integer('added_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.userId] }), index('ticket_followers_user_idx').on(t.userId)],
);

/**
 * "See as this contact" (migration 0014): a staff admin's read-only customer session for one contact,
 * opened by a one-time code (hashed) exchanged for a token (hashed). Ends at `expiresAt`.
 */
export const viewSessions = pgTable(
  'view_sessions',
  {
    id: id(),
    codeHash: text('code_hash').unique(),
    codeExpiresAt: ts('code_expires_at').notNull(),
    tokenHash: text('token_hash').unique(),
    staffUserId: integer('staff_user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('view_sessions_expires_idx').on(t.expiresAt)],
);

/** A portal's support mailbox (issue 26, migration 0042; docs/email.md). */
export const portalMailboxes = pgTable(
  'portal_mailboxes',
  {
    portalId: integer('portal_id')
      .primaryKey()
      .references(() => portals.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    imapHost: text('imap_host').notNull().default(''),
    imapPort: integer('imap_port').notNull().default(993),
    imapSecurity: text('imap_security', { enum: ['tls', 'starttls', 'none'] })
      .notNull()
      .default('tls'),
    imapUser: text('imap_user').notNull().default(''),
    /** Sealed (`sealed.v1.…`) under SECRET, as the webhook secrets; null: none set. */
    imapPassword: text('imap_password'),
    folder: text('folder').notNull().default('INBOX'),
    enabled: boolean('enabled').notNull().default(true),
    uidValidity: bigint('uid_validity', { mode: 'number' }),
    lastUid: bigint('last_uid', { mode: 'number' }).notNull().default(0),
    /** The process reading the mailbox, and until when (it renews while it reads). */
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    lastReadAt: ts('last_read_at'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('portal_mailboxes_address_uq').on(sql`lower(${t.address})`)],
);

/** Every message read from a mailbox or received by the SMTP ingress, once (migration 0042). */
export const inboundEmails = pgTable(
  'inbound_emails',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    portalId: portalRef(),
    /** Message-ID, or `sha256:<digest>` of the bytes when it has none. */
    messageKey: text('message_key').notNull(),
    via: text('via', { enum: ['imap', 'smtp'] }).notNull(),
    status: text('status', {
      enum: ['done', 'unknown', 'waiting', 'unprocessed', 'bounce', 'ignored', 'discarded'],
    }).notNull(),
    reason: text('reason'),
    fromAddress: text('from_address').notNull().default(''),
    fromName: text('from_name').notNull().default(''),
    subject: text('subject').notNull().default(''),
    preview: text('preview').notNull().default(''),
    size: integer('size').notNull().default(0),
    /** The receiving server's Authentication-Results said SPF or DKIM failed. */
    authFailed: boolean('auth_failed').notNull().default(false),
    rawFileId: integer('raw_file_id').references(() => files.id, { onDelete: 'set null' }),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'set null' }),
    receivedAt: ts('received_at').notNull(),
    handledAt: ts('handled_at'),
    handledByStaffId: integer('handled_by_staff_id').references(() => staffUsers.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('inbound_emails_key_uq').on(t.portalId, t.messageKey),
    index('inbound_emails_status_idx').on(t.portalId, t.status, t.id.desc()),
    // The desk's ticket screen finds the message a comment or ticket came from (migration 0050).
    index('inbound_emails_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
    index('inbound_emails_ticket_idx')
      .on(t.ticketId)
      .where(sql`${t.ticketId} is not null`),
  ],
);

/** Addresses a delivery status notification said fail (lower case), per portal (migration 0042). */
export const emailBounces = pgTable(
  'email_bounces',
  {
    portalId: portalRef(),
    address: text('address').notNull(),
    reason: text('reason').notNull().default(''),
    bouncedAt: ts('bounced_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.portalId, t.address] })],
);

// --- Merging tickets and time spent (issue 28 items 8 and 11, migration 0052) ---

/**
 * A duplicate merged into another ticket, with what moved (comments, attachments, followers added) and
 * the source's step before its close, so an admin's undo within a day moves back exactly that. One
 * active (not undone) merge per source.
 */
/**
 * The desk's reports' daily rollup (0060), kept by triggers on tickets and ticket_ratings and rebuilt
 * when the portal's time zone changes: per portal-local day, dimension (0 all, 1 group, 2 agent,
 * 3 company, 4 type, 5 priority) and key (row id or priority; 0 none). Read by reports.rollup.ts only.
 */
export const ticketReportDays = pgTable(
  'ticket_report_days',
  {
    portalId: portalRef(),
    dim: smallint('dim').notNull(),
    key: integer('key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    created: integer('created').notNull().default(0),
    solved: integer('solved').notNull().default(0),
    resolutionWithTarget: integer('resolution_with_target').notNull().default(0),
    resolutionMet: integer('resolution_met').notNull().default(0),
    /** Minutes from creation to solution of each ticket solved that day (a multiset). */
    resolutionMinutes: doublePrecision('resolution_minutes')
      .array()
      .notNull()
      .default(sql`'{}'`),
    responded: integer('responded').notNull().default(0),
    responseWithTarget: integer('response_with_target').notNull().default(0),
    responseMet: integer('response_met').notNull().default(0),
    responseMinutes: doublePrecision('response_minutes')
      .array()
      .notNull()
      .default(sql`'{}'`),
    rated1: integer('rated_1').notNull().default(0),
    rated2: integer('rated_2').notNull().default(0),
    rated3: integer('rated_3').notNull().default(0),
    rated4: integer('rated_4').notNull().default(0),
    rated5: integer('rated_5').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'ticket_report_days_pk', columns: [t.portalId, t.dim, t.key, t.day] })],
);

export const ticketMerges = pgTable(
  'ticket_merges',
  {
    id: id(),
    portalId: portalRef(),
    sourceTicketId: integer('source_ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    targetTicketId: integer('target_ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    mergedAt: ts('merged_at').notNull(),
    mergedByStaffId: integer('merged_by_staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    mergedByName: text('merged_by_name').notNull().default(''),
    commentIds: integer('comment_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    attachmentIds: integer('attachment_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    followerUserIds: integer('follower_user_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** The time entries that moved with the conversation (0058), moved back by an undo. */
    timeEntryIds: integer('time_entry_ids')
      .array()
      .notNull()
      .default(sql`'{}'`),
    sourceStepId: integer('source_step_id').references(() => statusSteps.id, { onDelete: 'set null' }),
    undoneAt: ts('undone_at'),
    undoneByStaffId: integer('undone_by_staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('ticket_merges_not_itself', sql`${t.sourceTicketId} <> ${t.targetTicketId}`),
    uniqueIndex('ticket_merges_source_uq')
      .on(t.sourceTicketId)
      .where(sql`${t.undoneAt} is null`),
    index('ticket_merges_target_idx').on(t.targetTicketId),
  ],
);

/**
 * Minutes an agent spent on a ticket, on a reply or note or alone; billable or not. Sportello records
 * them and emits `ticket.time_logged`; the hour bank's balance is the back office's to draw down.
 */
export const ticketTimeEntries = pgTable(
  'ticket_time_entries',
  {
    id: id(),
    portalId: portalRef(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => ticketComments.id, { onDelete: 'set null' }),
    staffUserId: integer('staff_user_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    staffName: text('staff_name').notNull().default(''),
    minutes: integer('minutes').notNull(),
    billable: boolean('billable').notNull(),
    note: text('note').notNull().default(''),
    loggedAt: ts('logged_at').notNull(),
  },
  (t) => [
    check('ticket_time_entries_minutes_ck', sql`${t.minutes} between 1 and 1440`),
    index('ticket_time_entries_ticket_idx').on(t.ticketId, t.id),
    index('ticket_time_entries_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
  ],
);
