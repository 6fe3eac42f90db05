// Service levels per company (issue 28 item 13): a company's own targets for some priorities, over the
// portal's policy (staff-sla.ts). What a company's override leaves out falls back to the portal's
// target (docs/staff.md, "Service levels").
import { z } from 'zod';
import { errorSchema, extIdParam, extIdSchema, int4, isoDateTime } from './common';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';
import { SLA_TARGET_MAX_MINUTES } from './staff-sla';
import { ticketPriorities } from './staff-views';

/** At most this many companies of a portal with targets of their own (the list is one answer). */
export const SLA_COMPANIES_MAX = 500;

/** Stable error codes of the targets per company. */
export const slaCompanyErrorCodes = {
  /** 409: the portal has SLA_COMPANIES_MAX companies with targets of their own. */
  tooManySlaCompanies: 'too_many_sla_companies',
} as const;

const minutes = int4(1, SLA_TARGET_MAX_MINUTES);

/** A priority's targets for the company, in business minutes; a target left out is the portal's. */
const slaCompanyTargetSchema = z
  .object({ firstResponse: minutes.optional(), resolution: minutes.optional() })
  .strict();

/** The priorities the company has targets for; a priority left out is the portal's. */
export const slaCompanyTargetsSchema = z
  .object(
    Object.fromEntries(ticketPriorities.map((p) => [p, slaCompanyTargetSchema.optional()])) as Record<
      (typeof ticketPriorities)[number],
      z.ZodOptional<typeof slaCompanyTargetSchema>
    >,
  )
  .strict();
export type SlaCompanyTargets = z.infer<typeof slaCompanyTargetsSchema>;

export const slaCompanyInputSchema = z
  .object({
    /** At least one target: an override without any is removed with DELETE. */
    targets: slaCompanyTargetsSchema.refine(
      (t) => Object.values(t).some((x) => x !== undefined && Object.keys(x).length > 0),
      'at least one target (remove the override to use the portal targets)',
    ),
  })
  .strict();
export type SlaCompanyInput = z.infer<typeof slaCompanyInputSchema>;

export const slaCompanySchema = z.object({
  /** The company (its back-office id and name). */
  company: z.object({ id: extIdSchema, name: z.string() }),
  /** Only what the company has of its own, keys in a fixed order. */
  targets: slaCompanyTargetsSchema,
  updatedAt: isoDateTime,
});
export type SlaCompany = z.infer<typeof slaCompanySchema>;

export const slaCompanyListSchema = z.object({
  /** Every company of the portal with targets of its own, by name. */
  items: z.array(slaCompanySchema).max(SLA_COMPANIES_MAX),
});
export type SlaCompanyList = z.infer<typeof slaCompanyListSchema>;

const root = '/api/staff/portals/:company/admin/sla/companies';
const oneCompany = staffPortalParamsSchema.extend({ id: extIdParam });
const admin = { guard: 'staff', role: 'admin' } as const;
const tags = ['staff: admin'];

export const staffSlaCompanyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: root,
    params: staffPortalParamsSchema,
    responses: { 200: slaCompanyListSchema },
    access: admin,
    tags,
    summary: 'The companies with service-level targets of their own, by name (admins)',
  }),
  put: defineRoute({
    method: 'PUT',
    path: `${root}/:id`,
    params: oneCompany,
    body: slaCompanyInputSchema,
    responses: { 200: slaCompanySchema, 404: errorSchema, 409: errorSchema },
    access: admin,
    tags,
    summary: "Set a company's own targets (admins); its open tickets' due times follow",
    description:
      'Replaces the targets of the company (its back-office id) with those sent: per priority, the ' +
      'first response and the resolution in business minutes; what is left out is the portal policy’s. ' +
      "The company's open tickets are recomputed in the background (the breach sweep), without telling " +
      'breaches already past. 404 for a company the portal has not; 409 `too_many_sla_companies` past ' +
      `${SLA_COMPANIES_MAX} companies. Audited (\`sla_company\`) when it changes.`,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${root}/:id`,
    params: oneCompany,
    responses: { 204: null, 404: errorSchema },
    access: admin,
    tags,
    summary: "Remove a company's own targets (admins): the portal's apply again",
  }),
};
