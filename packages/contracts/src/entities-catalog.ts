/**
 * The catalogue's entities one by one (issue 12 item 4, issue 14 items 2 and 4): hour and unit
 * contracts with their activities, service contracts with their packages, subscriptions (the import's
 * recurring advances), appointment links, task links, the wiki and the portal's tags. Bodies are the import's objects (the import's schemas, so its rules hold here too);
 * their routes come from `entityRoutesUnder` (entities.ts) like every other entity. Also the staff
 * admin's lists of them and the bookings of the appointment links.
 */
import { z } from 'zod';
import {
  importActivityContractSchema,
  importAppointmentLinkSchema,
  importContractActivitySchema,
  importIdSchema,
  importRecurringAdvanceSchema,
  importServiceContractDocumentSchema,
  importServiceContractSchema,
  importServicePackageSchema,
  importTagSchema,
  importTaskLinkSchema,
  importWikiElementSchema,
  importWikiFolderSchema,
  importWikiPropertySchema,
  weeklyHoursSchema,
} from './admin';
import { errorSchema, extIdParam, isoDateTime, rowIdParam } from './common';
import { entityFileInputSchema } from './entity-files';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';

/** Omitted on a create: the portal gives the next free id. */
const newId = importIdSchema.optional();

/** A list whose items' `id`s are unique (the import's rule for activities of one contract). */
const uniqueIds = <T extends { id: number }>(
  list: T[] | null | undefined,
  ctx: z.RefinementCtx,
  at: string,
) => {
  const seen = new Set<number>();
  (list ?? []).forEach((item, i) => {
    if (seen.has(item.id))
      ctx.addIssue({ code: 'custom', message: `duplicate id ${item.id}`, path: [at, i, 'id'] });
    seen.add(item.id);
  });
};

// ---- hour and unit contracts ---------------------------------------------------------------------

/**
 * An activity of a contract as the import has it, without its report file (reports come with the
 * import; an update keeps the stored report of an activity it names again).
 */
export const contractActivityInputSchema = importContractActivitySchema.omit({ report: true });
const activityContractFields = importActivityContractSchema
  .omit({ id: true, extra: true, activities: true })
  .extend({
    companyId: importIdSchema,
    activities: z.array(contractActivityInputSchema).max(5000).nullish(),
  });
export const activityContractCreateSchema = activityContractFields
  .extend({ id: newId })
  .superRefine((c, ctx) => uniqueIds(c.activities, ctx, 'activities'));
export const activityContractUpdateSchema = activityContractFields
  .partial()
  .superRefine((c, ctx) => uniqueIds(c.activities, ctx, 'activities'));
export const contractActivityEntitySchema = z.object({
  id: z.number().int(),
  activityTypeName: z.string(),
  start: isoDateTime,
  durationMinutes: z.number().int(),
  units: z.number().nullable(),
  assignedUser: z.string(),
  addressType: z.number().int(),
  activityLocation_Address: z.string().nullable(),
  /** The activity's report (bytes: `GET /api/integration/v1/files/:id`), from the import. */
  reportFileId: z.number().int().nullable(),
});
export const activityContractEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  start: isoDateTime,
  end: isoDateTime.nullable(),
  /** 0: hours, 1: units. */
  activityContractType: z.union([z.literal(0), z.literal(1)]),
  hoursAmount: z.number().nullable(),
  unitAmount: z.number().nullable(),
  activities: z.array(contractActivityEntitySchema),
});
export type ActivityContractCreate = z.infer<typeof activityContractCreateSchema>;
export type ActivityContractUpdate = z.infer<typeof activityContractUpdateSchema>;
export type ActivityContractEntity = z.infer<typeof activityContractEntitySchema>;

// ---- service contracts with their packages --------------------------------------------------------

/** A package as the import has it; its activities without report files (as a contract's activities). */
export const servicePackageInputSchema = importServicePackageSchema
  .extend({ activities: z.array(contractActivityInputSchema).max(5000).nullish() })
  .superRefine((p, ctx) => uniqueIds(p.activities, ctx, 'activities'));
/**
 * A document of the contract: new bytes in `file` (inline or `{uploadId}`, as the other file-bearing
 * kinds); without `file`, a document named again keeps its file (a new one needs it). Left out of the
 * list, a document goes.
 */
export const serviceContractDocumentInputSchema = importServiceContractDocumentSchema.extend({
  file: entityFileInputSchema.optional(),
});
const serviceContractFields = importServiceContractSchema
  .omit({ id: true, extra: true, documents: true, packages: true })
  .extend({
    companyId: importIdSchema,
    tagIds: z.array(importIdSchema).max(500).nullish(),
    wikiElementIds: z.array(importIdSchema).max(500).nullish(),
    documents: z.array(serviceContractDocumentInputSchema).max(500).nullish(),
    packages: z.array(servicePackageInputSchema).max(500).nullish(),
  });
const serviceContractRules = (
  c: { documents?: { id: number }[] | null | undefined; packages?: { id: number }[] | null | undefined },
  ctx: z.RefinementCtx,
) => {
  uniqueIds(c.documents, ctx, 'documents');
  uniqueIds(c.packages, ctx, 'packages');
};
export const serviceContractCreateSchema = serviceContractFields
  .extend({ id: newId })
  .superRefine(serviceContractRules);
export const serviceContractUpdateSchema = serviceContractFields.partial().superRefine(serviceContractRules);
export const serviceContractEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  /** 1: active, 4: expired. */
  status: z.union([z.literal(1), z.literal(4)]),
  activeFrom: isoDateTime,
  activeTo: isoDateTime.nullable(),
  /** Tags of the portal, by id. */
  tagIds: z.array(z.number().int()),
  /** Wiki elements of the same company, by id. */
  wikiElementIds: z.array(z.number().int()),
  documents: z.array(
    z.object({
      id: z.number().int(),
      documentName: z.string(),
      /** Bytes: `GET /api/integration/v1/files/:id`. */
      fileId: z.number().int(),
    }),
  ),
  packages: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      unitsText: z.string(),
      residualText: z.string(),
      activities: z.array(contractActivityEntitySchema),
    }),
  ),
});
export type ServiceContractCreate = z.infer<typeof serviceContractCreateSchema>;
export type ServiceContractUpdate = z.infer<typeof serviceContractUpdateSchema>;
export type ServiceContractEntity = z.infer<typeof serviceContractEntitySchema>;

// ---- subscriptions (recurring advances) ----------------------------------------------------------

const subscriptionFields = importRecurringAdvanceSchema
  .omit({ id: true, extra: true })
  .extend({ companyId: importIdSchema });
export const subscriptionCreateSchema = subscriptionFields.extend({ id: newId });
export const subscriptionUpdateSchema = subscriptionFields.partial();
export const subscriptionEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  code: z.string(),
  description: z.string(),
  quantity: z.number(),
  taxedTotal: z.number(),
  advanceDate: isoDateTime,
  trigger: z.object({
    recurrenceType: z.union([z.literal(10), z.literal(20), z.literal(30)]),
    frequencyWeek: z.number().int().nullable(),
    recurrenceDayOfWeek: z.number().int().nullable(),
    frequencyMonth: z.number().int().nullable(),
    recurrenceDay: z.number().int().nullable(),
    recurrenceMonth: z.number().int().nullable(),
  }),
});
export type SubscriptionCreate = z.infer<typeof subscriptionCreateSchema>;
export type SubscriptionUpdate = z.infer<typeof subscriptionUpdateSchema>;
export type SubscriptionEntity = z.infer<typeof subscriptionEntitySchema>;

// ---- wiki folders and elements with typed properties ---------------------------------------------

const wikiFolderFields = importWikiFolderSchema
  .omit({ id: true, extra: true, elements: true })
  .extend({ companyId: importIdSchema });
export const wikiFolderCreateSchema = wikiFolderFields.extend({ id: newId });
export const wikiFolderUpdateSchema = wikiFolderFields.partial();
export const wikiFolderEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
});
export type WikiFolderEntity = z.infer<typeof wikiFolderEntitySchema>;

/**
 * A property as the import has it, without bytes: a `file` property keeps the file the import gave it
 * when an update names the property again (shown as `fileId`).
 */
export const wikiPropertyInputSchema = importWikiPropertySchema.safeExtend({
  file: z.undefined().optional(),
});
const wikiElementFields = importWikiElementSchema.omit({ id: true, extra: true, properties: true }).extend({
  companyId: importIdSchema,
  /** A folder of the same company. */
  folderId: importIdSchema,
  properties: z.array(wikiPropertyInputSchema).max(500).nullish(),
});
export const wikiElementCreateSchema = wikiElementFields
  .extend({ id: newId })
  .superRefine((e, ctx) => uniqueIds(e.properties, ctx, 'properties'));
export const wikiElementUpdateSchema = wikiElementFields
  .partial()
  .superRefine((e, ctx) => uniqueIds(e.properties, ctx, 'properties'));
export const wikiElementEntitySchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  folderId: z.number().int(),
  name: z.string(),
  properties: z.array(
    z.object({
      id: z.number().int(),
      typologyName: z.string(),
      dataType: z.enum(['text', 'number', 'date', 'bool', 'url', 'file']),
      /** As stored (text); null for a file property. */
      value: z.string().nullable(),
      fileId: z.number().int().nullable(),
    }),
  ),
});
export type WikiElementEntity = z.infer<typeof wikiElementEntitySchema>;

// ---- appointment links and task links (portal-wide, keyed by their public key) -------------------

/** Omitted on a create: the portal draws an unguessable key. */
const newKey = importAppointmentLinkSchema.shape.eventKey.optional();

export const appointmentLinkCreateSchema = importAppointmentLinkSchema
  .omit({ extra: true })
  .extend({ eventKey: newKey });
export const appointmentLinkUpdateSchema = importAppointmentLinkSchema
  .omit({ extra: true, eventKey: true })
  .partial();
export const appointmentLinkEntitySchema = z.object({
  eventKey: z.string(),
  title: z.string(),
  agentId: z.number().int(),
  defaultDurationMinutes: z.number().int(),
  slotMinutes: z.number().int(),
  daysAhead: z.number().int(),
  /** Every weekday, in the portal's time zone (an empty list: closed). */
  weeklyHours: weeklyHoursSchema.required(),
});
export type AppointmentLinkCreate = z.infer<typeof appointmentLinkCreateSchema>;
export type AppointmentLinkUpdate = z.infer<typeof appointmentLinkUpdateSchema>;
export type AppointmentLinkEntity = z.infer<typeof appointmentLinkEntitySchema>;

export const taskLinkCreateSchema = importTaskLinkSchema.omit({ extra: true }).extend({ eventKey: newKey });
export const taskLinkUpdateSchema = importTaskLinkSchema.omit({ extra: true, eventKey: true }).partial();
export const taskLinkEntitySchema = z.object({ eventKey: z.string(), ticketId: z.number().int() });
export type TaskLinkCreate = z.infer<typeof taskLinkCreateSchema>;
export type TaskLinkUpdate = z.infer<typeof taskLinkUpdateSchema>;
export type TaskLinkEntity = z.infer<typeof taskLinkEntitySchema>;

// ---- tags of the portal (service contracts name them) --------------------------------------------

/** A tag as the import has it (`tagGroupName` left out or null: no group). */
export const tagCreateSchema = importTagSchema.omit({ extra: true }).extend({ id: newId });
export const tagUpdateSchema = importTagSchema.omit({ extra: true, id: true }).partial();
export const tagEntitySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** '' when the tag has no group. */
  tagGroupName: z.string(),
});
export type TagCreate = z.infer<typeof tagCreateSchema>;
export type TagUpdate = z.infer<typeof tagUpdateSchema>;
export type TagEntity = z.infer<typeof tagEntitySchema>;

export const catalogParams = {
  tag: z.object({ tagid: extIdParam }),
  activityContract: z.object({ contractid: extIdParam }),
  serviceContract: z.object({ servicecontractid: extIdParam }),
  subscription: z.object({ subscriptionid: extIdParam }),
  appointmentLink: z.object({ eventkey: importAppointmentLinkSchema.shape.eventKey }),
  taskLink: z.object({ eventkey: importTaskLinkSchema.shape.eventKey }),
  wikiFolder: z.object({ folderid: extIdParam }),
  wikiElement: z.object({ elementid: extIdParam }),
};

// ---- the staff admin's lists ---------------------------------------------------------------------

export const CATALOG_LIST_MAX = 500;

export const companyListQuerySchema = z.object({
  companyId: extIdParam,
});

/** A booking of an appointment link as the staff desk sees it. */
export const bookingSchema = z.object({
  id: z.number().int(),
  eventKey: z.string(),
  title: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  start: isoDateTime,
  end: isoDateTime,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  companyName: z.string(),
  notes: z.string(),
  status: z.enum(['booked', 'cancelled']),
  cancelledAt: isoDateTime.nullable(),
});
export type Booking = z.infer<typeof bookingSchema>;

export const bookingsQuerySchema = z.object({
  /** Only this link's bookings. */
  eventKey: importAppointmentLinkSchema.shape.eventKey.optional(),
  /** Default: the upcoming ones (from now); `all` includes past ones. */
  when: z.enum(['upcoming', 'all']).default('upcoming'),
});
export type BookingsQuery = z.input<typeof bookingsQuerySchema>;

export const bookingParamsSchema = staffPortalParamsSchema.extend({
  bookingid: rowIdParam,
});

const staffAdmin = { guard: 'staff', role: 'admin' } as const;
const admin = '/api/staff/portals/:company/admin';
const tags = ['staff: admin'] as const;

export const companyPickQuerySchema = z.object({
  /** The start of the company's name (any case); empty: the first ones by name. */
  q: z.string().trim().max(100).default(''),
});
export const companyPickSchema = z.object({
  items: z.array(z.object({ id: z.number().int(), companyName: z.string() })),
});
export const COMPANY_PICK_MAX = 50;

export const catalogAdminRoutes = {
  companies: defineRoute({
    method: 'GET',
    path: `${admin}/company-picker`,
    params: staffPortalParamsSchema,
    query: companyPickQuerySchema,
    responses: { 200: companyPickSchema },
    access: staffAdmin,
    tags,
    summary: `Companies of the portal whose name starts with \`q\`, by name (at most ${COMPANY_PICK_MAX}): the admin screens' picker`,
  }),
  appointmentLinks: defineRoute({
    method: 'GET',
    path: `${admin}/appointment-links`,
    params: staffPortalParamsSchema,
    responses: { 200: z.object({ items: z.array(appointmentLinkEntitySchema) }) },
    access: staffAdmin,
    tags,
    summary: "The portal's appointment links, by title",
  }),
  taskLinks: defineRoute({
    method: 'GET',
    path: `${admin}/task-links`,
    params: staffPortalParamsSchema,
    responses: { 200: z.object({ items: z.array(taskLinkEntitySchema) }) },
    access: staffAdmin,
    tags,
    summary: "The portal's task links",
  }),
  activityContracts: defineRoute({
    method: 'GET',
    path: `${admin}/activity-contracts`,
    params: staffPortalParamsSchema,
    query: companyListQuerySchema,
    responses: { 200: z.object({ items: z.array(activityContractEntitySchema) }) },
    access: staffAdmin,
    tags,
    summary: "A company's hour and unit contracts with their activities, newest start first",
  }),
  serviceContracts: defineRoute({
    method: 'GET',
    path: `${admin}/service-contracts`,
    params: staffPortalParamsSchema,
    query: companyListQuerySchema,
    responses: { 200: z.object({ items: z.array(serviceContractEntitySchema) }) },
    access: staffAdmin,
    tags,
    summary: `A company's service contracts with their packages, newest start first (at most ${CATALOG_LIST_MAX})`,
  }),
  wiki: defineRoute({
    method: 'GET',
    path: `${admin}/wiki`,
    params: staffPortalParamsSchema,
    query: companyListQuerySchema,
    responses: {
      200: z.object({
        folders: z.array(wikiFolderEntitySchema),
        elements: z.array(wikiElementEntitySchema),
      }),
    },
    access: staffAdmin,
    tags,
    summary: `A company's wiki folders and elements with their properties, by name (at most ${CATALOG_LIST_MAX} each)`,
  }),
  subscriptions: defineRoute({
    method: 'GET',
    path: `${admin}/subscriptions`,
    params: staffPortalParamsSchema,
    query: companyListQuerySchema,
    responses: { 200: z.object({ items: z.array(subscriptionEntitySchema) }) },
    access: staffAdmin,
    tags,
    summary: "A company's subscriptions (recurring advances), by next date",
  }),
  bookings: defineRoute({
    method: 'GET',
    path: `${admin}/bookings`,
    params: staffPortalParamsSchema,
    query: bookingsQuerySchema,
    responses: { 200: z.object({ items: z.array(bookingSchema) }) },
    access: staffAdmin,
    tags,
    summary: `The bookings of the portal's appointment links (or one link's), by start; at most ${CATALOG_LIST_MAX}`,
  }),
  cancelBooking: defineRoute({
    method: 'POST',
    path: `${admin}/bookings/:bookingid/cancel`,
    params: bookingParamsSchema,
    responses: { 200: bookingSchema, 404: errorSchema },
    access: staffAdmin,
    tags,
    summary: 'Cancel a booking: the slot is free again and the customer and the agent are told by e-mail',
    description:
      'As the cancellation by the customer: emits `appointment.cancelled` and writes the audit log. A booking ' +
      'cancelled already answers its state and sends nothing again.',
  }),
};
