// Schemas of the contracts area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { dayOrMinuteString, dayString, isoDateTime } from './common';
import { errorSchema, tenantParams } from './common';
import { portalParamsSchema } from './portals';
import { defineRoute } from './route';

/** Contracts whose validity overlaps [from, to] (portal time zone). */
export const contractsQuerySchema = z.object({
  from: dayString.optional(),
  to: dayOrMinuteString.optional(),
});
export type ContractsQuery = z.infer<typeof contractsQuerySchema>;

export const ACTIVITY_CONTRACT_HOURS = 0;
export const ACTIVITY_CONTRACT_UNITS = 1;
/** An activity at a location: show `activityLocation_Address`. */
export const ADDRESS_TYPE_LOCATION = 2;
export const SERVICE_CONTRACT_ACTIVE = 1;
export const SERVICE_CONTRACT_EXPIRED = 4;

export const contractActivitySchema = z.object({
  id: z.number().int(),
  activityTypeName: z.string(),
  start: isoDateTime,
  durationMinutes: z.number().int(),
  units: z.number().nullable(),
  /** Signed URL of the activity report, or null. */
  reportDocumentUrl: z.string().nullable(),
  assignedUser: z.string(),
  addressType: z.number().int(),
  activityLocation_Address: z.string().nullable(),
});
export type ContractActivity = z.infer<typeof contractActivitySchema>;

export const activityContractSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  start: isoDateTime,
  /** null: no expiration. */
  end: isoDateTime.nullable(),
  /** `end` is before today (portal time zone). */
  isExpired: z.boolean(),
  /** 0 hours, 1 units. */
  activityContractType: z.number().int(),
  hoursAmount: z.number().nullable(),
  /** hoursAmount minus the activities' durations as `H:MM` (`-H:MM` when overrun); null without hoursAmount. */
  residual_Time_String: z.string().nullable(),
  unitAmount: z.number().nullable(),
  /** unitAmount minus the activities' units; null without unitAmount. */
  residual_UnitAmount: z.number().nullable(),
  activities: z.array(contractActivitySchema),
});
export type ActivityContract = z.infer<typeof activityContractSchema>;
export const activityContractListSchema = z.array(activityContractSchema);

export const tagSchema = z.object({ id: z.number().int(), name: z.string(), tagGroupName: z.string() });
export type Tag = z.infer<typeof tagSchema>;
/** `GET /api/settings/{company}/tags` (public: no token). */
export const tagListSchema = z.array(tagSchema);

export const servicePackageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  unitsText: z.string(),
  residualText: z.string(),
  activities: z.array(contractActivitySchema),
});
export type ServicePackage = z.infer<typeof servicePackageSchema>;

export const serviceContractSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** 1 active, 4 expired. */
  status: z.number().int(),
  /** status 1 and activeTo within the next 30 days: badge IN SCADENZA. */
  expiring30Days: z.boolean(),
  /** status 4 or activeTo in the past. */
  isExpired: z.boolean(),
  activeFrom: isoDateTime,
  activeTo: isoDateTime.nullable(),
  tagIds: z.array(z.number().int()),
  wikiElementIds: z.array(z.number().int()),
  tags: z.array(z.object({ id: z.number().int(), name: z.string() })),
  wikiElements: z.array(z.object({ id: z.number().int(), name: z.string() })),
  documents: z.array(z.object({ id: z.number().int(), url: z.string(), documentName: z.string() })),
  /** Empty: show 'Nessun pacchetto'. */
  packages: z.array(servicePackageSchema),
});
export type ServiceContract = z.infer<typeof serviceContractSchema>;
export const serviceContractListSchema = z.array(serviceContractSchema);

// --- Routes (see route.ts) ---

export const contractRoutes = {
  activity: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/activitycontracts',
    params: tenantParams,
    query: contractsQuerySchema,
    responses: { 200: activityContractListSchema },
    access: { guard: 'tenant', flag: 'viewContactContracts' },
    tags: ['contracts'],
    summary: 'Activity contracts (hours or units) with computed residuals and expiry',
  }),
  service: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/activitycontracts/servicecontracts',
    params: tenantParams,
    query: contractsQuerySchema,
    responses: { 200: serviceContractListSchema },
    access: { guard: 'tenant', flag: 'viewContactContracts' },
    tags: ['contracts'],
    summary: 'Service contracts with tags, assets, documents and packages; expiry computed',
  }),
  tags: defineRoute({
    method: 'GET',
    path: '/api/settings/:company/tags',
    params: portalParamsSchema,
    responses: { 200: tagListSchema, 404: errorSchema },
    // A7: the tags call sends no token.
    access: { guard: 'public' },
    tags: ['contracts'],
    summary: "The portal's tags (public: A7's tags call sends no token)",
  }),
};
