import { z } from 'zod';
import { binaryAnswer, defineRoute } from './route';

/** Every error answer of the API. `code` is stable; the client maps it to translated text. */
export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

/** Dates cross the wire as ISO 8601 strings. */
export const isoDateTime = z.string().describe('ISO 8601 date-time');

/** The largest value of a PostgreSQL `integer` column, where the server's own row ids live. */
export const INT4_MAX = 2_147_483_647;
/**
 * The id of a row the server numbered itself (an uploaded file): 1 … 2^31−1. A bigger number names
 * nothing and is a 400, never a database error.
 */
export const rowIdSchema = z.number().int().min(1).max(INT4_MAX);
/** A back office id (kept as bigint): any safe integer. */
export const extIdParam = z.coerce.number().int().safe();

/** The `{company}/{contactid}` prefix of every contact-scoped route. */
export const tenantParams = z.object({
  company: z.string().min(1).max(40),
  contactid: extIdParam,
});

/** `YYYY-MM-DD`, the start of a day in the portal's time zone. */
export const dayString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
/** `YYYY-MM-DD` (end of that day) or `YYYY-MM-DD HH:mm`. */
export const dayOrMinuteString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/, 'expected YYYY-MM-DD or YYYY-MM-DD HH:mm');

export const uploadResultSchema = z.object({ id: rowIdSchema, url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const healthSchema = z.object({ status: z.literal('ok') });

// --- Routes (see route.ts) ---

export const platformRoutes = {
  health: defineRoute({
    method: 'GET',
    path: '/api/health',
    responses: { 200: healthSchema, 503: errorSchema },
    access: { guard: 'public' },
    tags: ['health'],
    summary: 'Readiness: 200 once the database answers (503 while it does not)',
  }),
  docs: defineRoute({
    method: 'GET',
    path: '/api/docs',
    responses: { 200: z.record(z.string(), z.unknown()) },
    access: { guard: 'public' },
    tags: ['health'],
    summary: 'This OpenAPI document',
    hide: true,
  }),
  file: defineRoute({
    method: 'GET',
    path: '/api/files/:id/:name',
    params: z.object({ id: z.coerce.number().int().positive(), name: z.string() }),
    query: z.object({
      e: z.coerce.number().int(),
      /** `<session>.<contact>` of a link bound to the reader who was handed it (docs/security.md). */
      k: z.string().max(30).optional(),
      s: z.string().max(100),
      download: z.string().optional(),
    }),
    responses: {
      200: binaryAnswer(
        'The file; shown inline when its type is on the inert list and `download` is absent, otherwise an application/octet-stream attachment',
      ),
      403: errorSchema,
      404: errorSchema,
      410: errorSchema,
    },
    // The HMAC signature of the URL is the capability.
    access: { guard: 'public' },
    tags: ['files'],
    summary: 'Download a file through a signed, expiring URL handed out by another call',
    description:
      '403 bad_signature when the signature does not match; 410 link_expired after its expiry, or once the ' +
      'session a bound link was handed to has ended or its user no longer holds the contact.',
  }),
};
