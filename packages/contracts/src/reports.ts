// Schemas of the reports area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { dayOrMinuteString, dayString, extIdParam, isoDateTime } from './common';
import { tenantParams } from './common';
import { defineRoute } from './route';

/** `GET …/activities/activityreports` query; `wikiFilter`: reports of tickets linked to that asset. */
export const activityReportsQuerySchema = z.object({
  from: dayString.optional(),
  to: dayOrMinuteString.optional(),
  wikiFilter: extIdParam.optional(),
});
export type ActivityReportsQuery = z.infer<typeof activityReportsQuerySchema>;

export const activityReportSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  dateTime: isoDateTime,
  /** Signed, expiring URL of the report (shown in an iframe). */
  documentUrl: z.string(),
  /** The linked ticket, only when the caller may open it; otherwise null. */
  taskId: z.number().int().nullable(),
  taskName: z.string().nullable(),
});
export type ActivityReport = z.infer<typeof activityReportSchema>;
export const activityReportListSchema = z.array(activityReportSchema);

// --- Routes (see route.ts) ---

export const reportRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/activities/activityreports',
    params: tenantParams,
    query: activityReportsQuerySchema,
    responses: { 200: activityReportListSchema },
    access: { guard: 'tenant', flag: 'viewContactActivityReports' },
    tags: ['reports'],
    summary: "The company's activity reports, newest first",
    description:
      '`wikiFilter`: reports of tickets linked to that wiki element. A linked ticket (taskId, taskName) ' +
      'is given only when the caller may open it.',
  }),
};
