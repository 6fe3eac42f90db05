// Schemas of the reports area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { dayOrMinuteString, dayString, isoDateTime } from './common';

/** `GET …/activities/activityreports` query; `wikiFilter`: reports of tickets linked to that asset. */
export const activityReportsQuerySchema = z.object({
  from: dayString.optional(),
  to: dayOrMinuteString.optional(),
  wikiFilter: z.coerce.number().int().safe().optional(),
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
