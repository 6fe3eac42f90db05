import { z } from 'zod';

/** Every error answer of the API. `code` is stable; the client maps it to translated text. */
export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

/** Dates cross the wire as ISO 8601 strings. */
export const isoDateTime = z.string().describe('ISO 8601 date-time');

/** The `{company}/{contactid}` prefix of every contact-scoped route. */
export const tenantParams = z.object({
  company: z.string().min(1).max(40),
  contactid: z.coerce.number().int().safe(),
});

/** `YYYY-MM-DD`, the start of a day in the portal's time zone. */
export const dayString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
/** `YYYY-MM-DD` (end of that day) or `YYYY-MM-DD HH:mm`. */
export const dayOrMinuteString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/, 'expected YYYY-MM-DD or YYYY-MM-DD HH:mm');

export const uploadResultSchema = z.object({ id: z.number().int(), url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
