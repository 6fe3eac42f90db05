// Schemas of the admin area: the back office's import document (docs: fixture-format.md) and its answer.
import { z } from 'zod';
import { permissionShape } from './permissions';
import { APPOINTMENT_DURATION_STEP, APPOINTMENT_MAX_DURATION_MINUTES } from './appointments';
import { portalLanguageSchema } from './portals';
import { dateInput, errorSchema, extIdSchema, isBoundedDate } from './common';
import { defineRoute } from './route';
import { isTimeZone } from './time-zone';

/**
 * Every object of the document is strict, so a typo surfaces as an error; `extra` is the one place
 * where the back office may put anything (accepted and ignored).
 */
// Any JSON value. Not z.json(): its recursive JSON Schema became a $ref the OpenAPI document lacked.
const extra = z.unknown().optional().describe('Free data of the back office, accepted and ignored');
function strict<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ ...shape, extra });
}

/** Back-office ids (`extId` on our side): unique per portal, never our internal ids. */
export const importIdSchema = extIdSchema;
const refId = importIdSchema.nullish();
const name = z.string().trim().min(1).max(500);
/** A name of the import: trimmed, 1 to 500 characters. */
export const importNameSchema = name;
const text = (max: number) => z.string().max(max);
/** Fits numeric(14,2): an amount in euro. */
const money = z.number().min(-999_999_999_999).max(999_999_999_999);
/** Fits numeric(12,2): hours, units, quantities. */
const amount = z.number().min(-9_999_999_999).max(9_999_999_999);
const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);

/**
 * A day (`2026-10-01`: midnight in the portal's time zone) or a date-time (`2026-10-01T09:30:00Z`), of
 * the years the columns and their conversions hold (common.ts).
 */
export const isImportDate = (value: string): boolean => isBoundedDate(value);
export const importDateSchema = dateInput;

/** Colours end up in style attributes and CSS: only plain colour syntax, nothing that could break out. */
const CSS_COLOR_RE = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\(\s*[-\d.%,\s/deg]+\)|[a-zA-Z]{3,30})$/;
export const cssColorSchema = z
  .string()
  .trim()
  .regex(CSS_COLOR_RE, 'expected a CSS colour (#rrggbb, rgb(), hsl())');

const MIME_RE = /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/;
const BASE64_RE = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** A file handed to the portal: inline bytes (`base64`) or, from the command line only, a `path`. */
export const fileRefSchema = strict({
  name: z.string().trim().min(1).max(255),
  /** Detected from the name's extension when absent. */
  contentType: z.string().regex(MIME_RE, 'expected a MIME type such as application/pdf').nullish(),
  base64: z.string().regex(BASE64_RE, 'invalid base64').optional(),
  /** Relative to the JSON file; allowed only from the command line. */
  path: z.string().min(1).max(4096).optional(),
}).superRefine((f, ctx) => {
  if ((f.base64 === undefined) === (f.path === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'a file needs exactly one of base64 or path' });
  }
});
export type FileRef = z.infer<typeof fileRefSchema>;

/**
 * A type's or step's name: one text, or one per language (at least one of it-IT, en-EN, es-ES). The
 * one name kept (the desk's, and a language's without its own) is the Italian one, else English, else
 * Spanish.
 */
const localizedName = z.union([
  name,
  strict({ 'it-IT': name.optional(), 'en-EN': name.optional(), 'es-ES': name.optional() }).refine(
    (n) => Object.values(n).some((v) => v !== undefined),
    { message: 'name a type or step in at least one of it-IT, en-EN, es-ES' },
  ),
]);

export const importTicketTypeSchema = strict({
  id: importIdSchema,
  name: localizedName,
  color: cssColorSchema.nullish(),
});

export const importStatusStepSchema = strict({
  id: importIdSchema,
  name: localizedName,
  /** 2 means closed. */
  taskStatus: int32,
  isDefault: z.boolean().nullish(),
  isClosing: z.boolean().nullish(),
});

/**
 * A portal's steps: at most one `isDefault` and one `isClosing` in the list. Steps are merged by id
 * with those already imported, so "exactly one of each" over the merged set is checked by the import.
 */
export const importStatusStepListSchema = z
  .array(importStatusStepSchema)
  .refine((steps) => steps.filter((s) => s.isDefault === true).length <= 1, {
    message: 'at most one status step may have isDefault',
  })
  .refine((steps) => steps.filter((s) => s.isClosing === true).length <= 1, {
    message: 'at most one status step may have isClosing',
  });

export const importGroupSchema = strict({ id: importIdSchema, name });

export const importAgentSchema = strict({
  id: importIdSchema,
  displayName: name,
  firstName: text(200).nullish(),
  lastName: text(200).nullish(),
  email: text(320).nullish(),
  profileImage: fileRefSchema.nullish(),
});

export const importTagSchema = strict({
  id: importIdSchema,
  name,
  tagGroupName: text(500).nullish(),
});

export const importPublicFileSchema = strict({ id: importIdSchema, fileName: name, file: fileRefSchema });

/** The ten flags (one list: permissions.ts); a missing flag is false. */
export const importPermissionsSchema = strict(permissionShape(() => z.boolean().nullish()));

export const importContactSchema = strict({
  contactId: importIdSchema,
  referentName: name,
  email: text(320).nullish(),
  /** Used for OTP signing. */
  phone: text(40).nullish(),
  permissions: importPermissionsSchema.nullish(),
});

export const WIKI_DATA_TYPES = ['text', 'number', 'date', 'bool', 'url', 'file'] as const;

export const importWikiPropertySchema = strict({
  id: importIdSchema,
  typologyName: name,
  dataType: z.enum(WIKI_DATA_TYPES),
  value: z.union([z.string().max(10_000), z.number().finite(), z.boolean()]).nullish(),
  file: fileRefSchema.nullish(),
}).superRefine((p, ctx) => {
  const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
  if (p.file && p.dataType !== 'file') issue(`a ${p.dataType} property has no file`, 'file');
  const v = p.value;
  if (v === null || v === undefined || v === '') return;
  const s = String(v);
  if (p.dataType === 'number' && !Number.isFinite(Number(s))) issue('expected a number', 'value');
  if (p.dataType === 'bool' && s !== 'true' && s !== 'false') issue('expected true or false', 'value');
  if (p.dataType === 'date' && !isImportDate(s)) issue('expected an ISO 8601 date', 'value');
  if (p.dataType === 'url' && !/^(https?:\/\/|mailto:)/i.test(s))
    issue('expected an http, https or mailto URL', 'value');
});

export const importWikiElementSchema = strict({
  id: importIdSchema,
  name,
  properties: z.array(importWikiPropertySchema).nullish(),
});

export const importWikiFolderSchema = strict({
  id: importIdSchema,
  name,
  elements: z.array(importWikiElementSchema).nullish(),
});

export const importAttachmentSchema = strict({ id: importIdSchema, name, file: fileRefSchema });

export const importCommentSchema = strict({
  id: importIdSchema,
  /** HTML, sanitised by the server. */
  message: text(1_000_000).nullish(),
  creationDate: importDateSchema,
  senderContactId: refId,
  senderAgentId: refId,
  attachments: z.array(importAttachmentSchema).nullish(),
}).superRefine((c, ctx) => {
  const senders = (c.senderContactId != null ? 1 : 0) + (c.senderAgentId != null ? 1 : 0);
  if (senders !== 1) {
    ctx.addIssue({
      code: 'custom',
      message: 'a comment needs exactly one sender: senderContactId or senderAgentId',
    });
  }
});

export const importTicketSchema = strict({
  id: importIdSchema,
  title: name,
  /** HTML, sanitised by the server. */
  description: text(1_000_000).nullish(),
  ticketNumber: text(100).nullish(),
  /** The number badge shows when above 0. */
  internalAnnualProgressive: int32.min(0).nullish(),
  createdOn: importDateSchema,
  taskTypeId: importIdSchema,
  statusStepId: importIdSchema,
  nextPlannedActivityInfo: text(2000).nullish(),
  /** null: created by an agent. */
  creatorContactId: refId,
  assignedGroupId: refId,
  /** An agent id. */
  assignedUserId: refId,
  wikiElementId: refId,
  comments: z.array(importCommentSchema).nullish(),
});

export const importActivityReportSchema = strict({
  id: importIdSchema,
  name,
  dateTime: importDateSchema,
  /** A ticket id of the same company. */
  taskId: refId,
  document: fileRefSchema,
});

export const importContractActivitySchema = strict({
  id: importIdSchema,
  activityTypeName: name,
  start: importDateSchema,
  durationMinutes: int32.min(0).nullish(),
  units: amount.nullish(),
  assignedUser: text(500).nullish(),
  /** 2: at an address (activityLocation_Address). */
  addressType: int32.nullish(),
  activityLocation_Address: text(1000).nullish(),
  report: fileRefSchema.nullish(),
});

export const importActivityContractSchema = strict({
  id: importIdSchema,
  name,
  start: importDateSchema,
  end: importDateSchema.nullish(),
  /** 0: hours, 1: units. */
  activityContractType: z.literal([0, 1]),
  hoursAmount: amount.nullish(),
  unitAmount: amount.nullish(),
  activities: z.array(importContractActivitySchema).nullish(),
});

export const importServiceContractDocumentSchema = strict({
  id: importIdSchema,
  documentName: name,
  file: fileRefSchema,
});

export const importServicePackageSchema = strict({
  id: importIdSchema,
  name,
  unitsText: text(500).nullish(),
  residualText: text(500).nullish(),
  activities: z.array(importContractActivitySchema).nullish(),
});

export const importServiceContractSchema = strict({
  id: importIdSchema,
  name,
  /** 1: active, 4: expired. */
  status: z.literal([1, 4]),
  activeFrom: importDateSchema,
  activeTo: importDateSchema.nullish(),
  tagIds: z.array(importIdSchema).nullish(),
  wikiElementIds: z.array(importIdSchema).nullish(),
  documents: z.array(importServiceContractDocumentSchema).nullish(),
  packages: z.array(importServicePackageSchema).nullish(),
});

export const importInvoiceSchema = strict({
  id: importIdSchema,
  documentNumber: name,
  total: money,
  invoiceDate: importDateSchema,
  document: fileRefSchema,
  /** When payment is due, and when it was made: a back office that sends neither tracks no payment here. */
  dueDate: importDateSchema.nullish(),
  paidDate: importDateSchema.nullish(),
});

export const importEstimateSchema = strict({
  id: importIdSchema,
  estimateName: name,
  estimateNumber: text(100),
  revisionNumber: int32.min(0).nullish(),
  total: money,
  estimateCreationDate: importDateSchema,
  document: fileRefSchema,
});

/** 10: every N weeks on a weekday; 20: every N months on a day; 30: yearly on a day and month. */
export const importTriggerSchema = strict({
  recurrenceType: z.literal([10, 20, 30]),
  frequencyWeek: z.number().int().min(1).max(52).nullish(),
  /** 1 = Monday … 7 = Sunday. */
  recurrenceDayOfWeek: z.number().int().min(1).max(7).nullish(),
  frequencyMonth: z.number().int().min(1).max(120).nullish(),
  recurrenceDay: z.number().int().min(1).max(31).nullish(),
  recurrenceMonth: z.number().int().min(1).max(12).nullish(),
}).superRefine((t, ctx) => {
  const need: Record<number, (keyof typeof t)[]> = {
    10: ['frequencyWeek', 'recurrenceDayOfWeek'],
    20: ['frequencyMonth', 'recurrenceDay'],
    30: ['recurrenceDay', 'recurrenceMonth'],
  };
  for (const key of need[t.recurrenceType] ?? []) {
    if (t[key] == null) {
      ctx.addIssue({
        code: 'custom',
        message: `required for recurrenceType ${t.recurrenceType}`,
        path: [key],
      });
    }
  }
});

export const importRecurringAdvanceSchema = strict({
  id: importIdSchema,
  code: text(100),
  description: text(2000),
  quantity: amount,
  taxedTotal: money,
  /** The next billing date. */
  advanceDate: importDateSchema,
  trigger: importTriggerSchema,
});

export const importDocumentFileSchema = strict({
  id: importIdSchema,
  /** A contact of the same company. */
  contactId: importIdSchema,
  documentName: name,
  createDate: importDateSchema,
  file: fileRefSchema,
});

export const importCompanySchema = strict({
  id: importIdSchema,
  companyName: name,
  contacts: z.array(importContactSchema).nullish(),
  wikiFolders: z.array(importWikiFolderSchema).nullish(),
  tickets: z.array(importTicketSchema).nullish(),
  activityReports: z.array(importActivityReportSchema).nullish(),
  activityContracts: z.array(importActivityContractSchema).nullish(),
  serviceContracts: z.array(importServiceContractSchema).nullish(),
  invoices: z.array(importInvoiceSchema).nullish(),
  estimates: z.array(importEstimateSchema).nullish(),
  recurringAdvances: z.array(importRecurringAdvanceSchema).nullish(),
  documents: z.array(importDocumentFileSchema).nullish(),
});

/** Keys that appear in public URLs: plain URL-safe characters. */
const urlKey = z.string().regex(/^[A-Za-z0-9_-]{8,200}$/, 'expected 8 to 200 characters of A-Z a-z 0-9 _ -');

export const importSignatureRequestSchema = strict({
  /** An unguessable capability: the signing page is reached by it alone. */
  documentKey: urlKey,
  contactId: importIdSchema,
  documentName: name,
  file: fileRefSchema,
  requireOtp: z.boolean(),
  expiresAt: importDateSchema.nullish(),
});

const HHMM_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = z.string().regex(HHMM_RE, 'expected HH:mm');
const dayHours = z.array(z.tuple([hhmm, hhmm]).refine(([a, b]) => a < b, 'the start must be before the end'));

/** Opening hours per weekday, in the portal's time zone. */
export const weeklyHoursSchema = z.strictObject({
  mon: dayHours.optional(),
  tue: dayHours.optional(),
  wed: dayHours.optional(),
  thu: dayHours.optional(),
  fri: dayHours.optional(),
  sat: dayHours.optional(),
  sun: dayHours.optional(),
});
export type WeeklyHours = z.infer<typeof weeklyHoursSchema>;

export const importAppointmentLinkSchema = strict({
  eventKey: urlKey,
  title: name,
  agentId: importIdSchema,
  // Bookable as it is: the same 5-minute steps as any booking.
  defaultDurationMinutes: z
    .number()
    .int()
    .min(APPOINTMENT_DURATION_STEP)
    .max(APPOINTMENT_MAX_DURATION_MINUTES)
    .multipleOf(APPOINTMENT_DURATION_STEP),
  slotMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60),
  daysAhead: z.number().int().min(1).max(366),
  weeklyHours: weeklyHoursSchema,
});

export const importTaskLinkSchema = strict({ eventKey: urlKey, ticketId: importIdSchema });

export const importPortalSchema = strict({
  /** The `{company}` of every route. */
  webPortalKey: z.string().regex(/^[a-z0-9-]{2,40}$/, 'expected 2 to 40 characters of a-z 0-9 -'),
  webPortalName: name,
  logo: fileRefSchema.nullish(),
  /** null or hsl(123,0%,0%) means unset. */
  baseColor: cssColorSchema.nullish(),
  /** Injected as a stylesheet, never as markup. */
  customCss: text(500_000).nullish(),
  /** HTML, sanitised by the server. */
  footerCustomHtml: text(500_000).nullish(),
  disableHtmlEditor: z.boolean().nullish(),
  enableServiceContracts: z.boolean().nullish(),
  /** Sign-in lands on the overview (default false: the first section the contact may see). */
  overviewLanding: z.boolean().nullish(),
  /** HTML, sanitised by the server. */
  privacyHtml: text(2_000_000).nullish(),
  /** IANA zone; default Europe/Rome. */
  timeZone: z.string().refine(isTimeZone, 'expected an IANA time zone such as Europe/Rome').nullish(),
  /** Default it-IT. */
  defaultLanguage: portalLanguageSchema.nullish(),
  ticketTypes: z.array(importTicketTypeSchema).nullish(),
  statusSteps: importStatusStepListSchema.nullish(),
  groups: z.array(importGroupSchema).nullish(),
  agents: z.array(importAgentSchema).nullish(),
  tags: z.array(importTagSchema).nullish(),
  publicFiles: z.array(importPublicFileSchema).nullish(),
  companies: z.array(importCompanySchema).nullish(),
  signatureRequests: z.array(importSignatureRequestSchema).nullish(),
  appointmentLinks: z.array(importAppointmentLinkSchema).nullish(),
  taskLinks: z.array(importTaskLinkSchema).nullish(),
});

export const importUserSchema = strict({
  /** Global, case-insensitive. */
  userName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[^\s]+$/, 'a user name has no spaces'),
  email: z
    .string()
    .trim()
    .max(320)
    .regex(/^[^\s@]+@[^\s@]+$/, 'expected an e-mail address'),
  /** Plain text here; stored only as a slow hash. */
  password: z.string().min(1).max(1000).nullish(),
  /** With no password: e-mail an invitation link. */
  invite: z.boolean().nullish(),
  contacts: z.array(strict({ webPortalKey: z.string(), contactId: importIdSchema })).nullish(),
});

/** The whole import document, version 1. */
export const importDocumentSchema = strict({
  formatVersion: z.literal(1),
  portals: z.array(importPortalSchema).nullish(),
  users: z.array(importUserSchema).nullish(),
});

export type ImportDocument = z.infer<typeof importDocumentSchema>;
/** What a producer writes (the demo builder, tests). */
export type ImportDocumentInput = z.input<typeof importDocumentSchema>;
export type ImportPortal = z.infer<typeof importPortalSchema>;
export type ImportCompany = z.infer<typeof importCompanySchema>;
export type ImportContact = z.infer<typeof importContactSchema>;
export type ImportTicket = z.infer<typeof importTicketSchema>;
export type ImportComment = z.infer<typeof importCommentSchema>;
export type ImportContractActivity = z.infer<typeof importContractActivitySchema>;
export type ImportUser = z.infer<typeof importUserSchema>;

export const importProblemSchema = z.object({ path: z.string(), message: z.string() });
export type ImportProblem = z.infer<typeof importProblemSchema>;

/** `200` answer of `POST /api/admin/import`: how many entities of each kind the document carried. */
export const importResultSchema = z.object({
  imported: z.record(z.string(), z.number().int()),
});
export type ImportResult = z.infer<typeof importResultSchema>;

// --- Routes (see route.ts) ---

export const adminRoutes = {
  import: defineRoute({
    method: 'POST',
    path: '/api/admin/import',
    // The document carries files as base64.
    bodyLimit: 200 * 1024 * 1024,
    body: importDocumentSchema,
    responses: { 200: importResultSchema, 409: errorSchema },
    access: { guard: 'adminKey' },
    tags: ['admin'],
    summary: 'Import a back-office document (fixture-format.md): all or nothing, idempotent',
    description:
      'Bearer PORTAL_ADMIN_KEY. 503 import_disabled when the key is not configured. Every problem of the ' +
      'document (shape and references) comes back in one 400 with document paths.',
  }),
};
