import { z } from 'zod';
import { binaryAnswer, defineRoute } from './route';

/** Every error answer of the API. `code` is stable; the client maps it to translated text. */
export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

/** Dates cross the wire as ISO 8601 strings (answers; a date a client sends is one of the bounded kinds below). */
export const isoDateTime = z.string().describe('ISO 8601 date-time');

// ---- Bounds (docs/security.md, "Every integer and date of a contract is bounded by its column") -----
// Every integer and date a client sends is one of these kinds, each bounded by the column it ends in;
// `boundary-walk.test.ts` (apps/api) walks every contract to check it and sends each route its edges.

/** The largest value of a PostgreSQL `integer` column, where the server's own row ids live. */
export const INT4_MAX = 2_147_483_647;
/**
 * The largest back-office id (`ext_id`, a `bigint` column): the column holds more, but a JSON number
 * (and JavaScript's) is exact only up to 2^53 − 1.
 */
export const EXT_ID_MAX = Number.MAX_SAFE_INTEGER;
/** The largest value of a PostgreSQL `bigint`, and of an `xid8` (the feed's transaction ids). */
export const INT8_MAX = 9_223_372_036_854_775_807n;
export const XID8_MAX = 18_446_744_073_709_551_615n;

/** What the bounded kinds tell the boundary walk about themselves. */
export interface BoundMeta {
  /** `rowId`/`int`: an `integer` column; `extId`: a back-office id; `decimal`: digits read as `max`'s column; dates. */
  kind: 'rowId' | 'extId' | 'int' | 'decimal' | 'day' | 'dateTime';
  /** The largest value the kind admits (decimal text: as a bigint). */
  max?: number | bigint;
}
/** The bounded kinds, by schema (read by the boundary walk, never by OpenAPI). */
export const bounds = z.registry<BoundMeta>();
const bounded = <S extends z.ZodType>(schema: S, meta: BoundMeta): S => {
  bounds.add(schema, meta);
  return schema;
};

/**
 * The id of a row the server numbered itself (an uploaded file, a key, a staff user): 1 … 2^31−1. A
 * bigger number names nothing and is a 400, never a database error.
 */
export const rowIdSchema = bounded(z.number().int().min(1).max(INT4_MAX), { kind: 'rowId', max: INT4_MAX });
/** The same in a path or query (text coerced to a number). */
export const rowIdParam = bounded(z.coerce.number().int().min(1).max(INT4_MAX), {
  kind: 'rowId',
  max: INT4_MAX,
});
/** A back-office id (`ext_id`, kept as bigint): 0 … 2^53−1. */
export const extIdSchema = bounded(z.number().int().min(0).max(EXT_ID_MAX), {
  kind: 'extId',
  max: EXT_ID_MAX,
});
/** The same in a path or query. */
export const extIdParam = bounded(z.coerce.number().int().min(0).max(EXT_ID_MAX), {
  kind: 'extId',
  max: EXT_ID_MAX,
});
/** Any other integer stored in an `integer` column (a count, minutes, a rating): `min` … `max`. */
export const int4 = (min: number, max: number) =>
  bounded(
    z
      .number()
      .int()
      .min(Math.max(min, -INT4_MAX - 1))
      .max(Math.min(max, INT4_MAX)),
    { kind: 'int', max: Math.min(max, INT4_MAX) },
  );

/**
 * A number written in decimal digits and compared with a column as text (a keyset cursor): no sign, no
 * leading zero (PostgreSQL reads `0…` of an xid8 as octal), at most `max` (the column's).
 */
export const decimalDigits = (max: bigint) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/, 'expected decimal digits without leading zeros')
    .max(String(max).length)
    // The refinement runs after a failed pattern too: BigInt must only see digits.
    .refine((s) => /^[0-9]+$/.test(s) && BigInt(s) <= max, `must be at most ${max}`);
/** A keyset cursor over a column of `max` (`INT4_MAX` for row ids, `INT8_MAX` for bigint ids). */
export const cursorText = (max: bigint) =>
  bounded(decimalDigits(max).describe('The `nextCursor` of the previous page'), { kind: 'decimal', max });

/** The `{company}/{contactid}` prefix of every contact-scoped route. */
export const tenantParams = z.object({
  company: z.string().min(1).max(40),
  contactid: extIdParam,
});

/**
 * Dates a client sends: years 1000 … 9999. Date-times are converted in JavaScript and PostgreSQL with
 * four-digit years only (year 0 and +275760 broke both), and a local midnight may move a day either
 * way. Offsets: at most ±15:59, the most PostgreSQL reads.
 */
export const MIN_DATE_YEAR = 1000;
export const MAX_DATE_YEAR = 9999;
export const MAX_OFFSET_MINUTES = 15 * 60 + 59;
/**
 * List filters (`from`, `to`) are read in the portal's zone, whose rules break far from today (year
 * 0100 came out as an invalid instant): their years are 1900 … 2199 (answered `invalid_date`).
 */
export const MIN_FILTER_YEAR = 1900;
export const MAX_FILTER_YEAR = 2199;

const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Whether `value` is a real day (`YYYY-MM-DD`) or date-time (`YYYY-MM-DD[T ]HH:mm[:ss[.fff]][Z|±HH:mm]`)
 * with its year in `minYear` … `maxYear` and its offset within ±15:59.
 */
export function isBoundedDate(value: string, minYear = MIN_DATE_YEAR, maxYear = MAX_DATE_YEAR): boolean {
  const m = DATE_TEXT.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < minYear || y > maxYear || mo < 1 || mo > 12 || d < 1) return false;
  if (d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  const offset = m[7];
  let offsets = [-MAX_OFFSET_MINUTES, MAX_OFFSET_MINUTES];
  if (offset === 'Z') offsets = [0];
  else if (offset) {
    const digits = offset.slice(1).replace(':', '');
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
    if (om > 59 || oh * 60 + om > MAX_OFFSET_MINUTES) return false;
    offsets = [(offset[0] === '-' ? -1 : 1) * (oh * 60 + om)];
  }
  // The instant must stay in a four-digit year too (9999-12-31T23:59-15:59 is in year 10000); without
  // an offset, the portal's zone decides, so every offset is tried.
  const wall = Date.UTC(y, mo - 1, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  return offsets.every((o) => new Date(wall - o * 60_000).getUTCFullYear() <= maxYear);
}

/** A date-time with its offset (`2026-10-01T09:30:00Z`, `…+02:00`), years 1000 … 9999. */
export const dateTimeInput = bounded(
  z.iso
    .datetime({ offset: true })
    .refine((v) => isBoundedDate(v), `expected a date-time of the years ${MIN_DATE_YEAR}–${MAX_DATE_YEAR}`),
  { kind: 'dateTime' },
);

/**
 * A day (`2026-10-01`: midnight in the portal's time zone) or a date-time (`2026-10-01T09:30:00Z`; without
 * an offset, the portal's local time), years 1000 … 9999: the import's and the entity routes' dates.
 */
export const dateInput = bounded(
  z
    .string()
    .refine(
      (v) => isBoundedDate(v),
      `expected an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:mm:ssZ) of the years ${MIN_DATE_YEAR}–${MAX_DATE_YEAR}`,
    ),
  { kind: 'dateTime' },
);

/** `YYYY-MM-DD`, the start of a day in the portal's time zone. */
export const dayString = bounded(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
    .refine((v) => isBoundedDate(v, MIN_FILTER_YEAR, MAX_FILTER_YEAR), {
      message: `expected a real day of the years ${MIN_FILTER_YEAR}–${MAX_FILTER_YEAR}`,
      params: { code: 'invalid_date' },
    }),
  { kind: 'day' },
);
/** `YYYY-MM-DD` (end of that day) or `YYYY-MM-DD HH:mm`. */
export const dayOrMinuteString = bounded(
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/, 'expected YYYY-MM-DD or YYYY-MM-DD HH:mm')
    .refine((v) => isBoundedDate(v, MIN_FILTER_YEAR, MAX_FILTER_YEAR), {
      message: `expected a real date of the years ${MIN_FILTER_YEAR}–${MAX_FILTER_YEAR}`,
      params: { code: 'invalid_date' },
    }),
  { kind: 'day' },
);

export const uploadResultSchema = z.object({ id: rowIdSchema, url: z.string() });
export type UploadResult = z.infer<typeof uploadResultSchema>;

/** One component of the installation: whether it answered its probe, and how fast. */
const componentHealth = z.object({
  ok: z.boolean(),
  /** Milliseconds the probe took (up to its timeout). */
  ms: z.number().int().min(0).max(600_000),
});

/**
 * What `/api/health` reports: kinds and booleans only (no host, user, URL or key: it is public). The
 * database decides the status; the other parts answering or not never take the process out of rotation.
 */
export const healthSchema = z.object({
  status: z.literal('ok'),
  database: componentHealth.extend({ kind: z.enum(['embedded', 'postgresql']) }),
  files: componentHealth.extend({ kind: z.enum(['local', 's3']) }),
  mail: z.object({
    /** SMTP_URL's server, or `.eml` files in DATA_DIR/outbox (ok: the directory can be written). */
    outgoing: componentHealth.extend({ kind: z.enum(['smtp', 'file']) }),
    /** The portals' IMAP mailboxes: how many are enabled, read lately, and failing on their last try. */
    readers: z.object({
      configured: z.number().int().min(0).max(1_000_000),
      reading: z.number().int().min(0).max(1_000_000),
      failing: z.number().int().min(0).max(1_000_000),
    }),
  }),
});
export type Health = z.infer<typeof healthSchema>;

// --- Routes (see route.ts) ---

export const platformRoutes = {
  health: defineRoute({
    method: 'GET',
    path: '/api/health',
    responses: { 200: healthSchema, 503: errorSchema },
    access: { guard: 'public' },
    tags: ['health'],
    summary:
      'Which database, file store and mail channels are configured and whether each answers; 200 once the database answers (503 while it does not, or while the process starts)',
  }),
  ready: defineRoute({
    method: 'GET',
    path: '/api/health/ready',
    responses: { 200: z.object({ status: z.literal('ready') }), 503: errorSchema },
    access: { guard: 'public' },
    tags: ['health'],
    summary:
      'For load balancers: 200 when this process serves; 503 while migrations run (here or in another process) or the database does not answer',
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
    params: z.object({ id: rowIdParam, name: z.string() }),
    query: z.object({
      /** Expiry, in seconds since 1970. */
      e: z.coerce.number().int().min(0).max(EXT_ID_MAX),
      /** `<session>.<contact>` of a link bound to the reader who was handed it (docs/security.md). */
      k: z.string().max(30).optional(),
      s: z.string().max(100),
      download: z.string().optional(),
    }),
    responses: {
      200: binaryAnswer(
        'The file; shown inline, as its own media type, when that type is on the inert list and `download` is absent, otherwise an application/octet-stream attachment',
        '*/*',
      ),
      206: binaryAnswer('The bytes of the one `Range` asked for (`bytes=a-b`, `a-` or `-n`)', '*/*'),
      302: binaryAnswer(
        'Where the installation allows it (S3_PRESIGNED_DOWNLOADS), a short-lived link of the object store serving the same bytes',
      ),
      403: errorSchema,
      404: errorSchema,
      410: errorSchema,
      416: errorSchema,
    },
    // The HMAC signature of the URL is the capability.
    access: { guard: 'public' },
    tags: ['files'],
    summary: 'Download a file through a signed, expiring URL handed out by another call',
    description:
      '403 bad_signature when the signature does not match; 410 link_expired after its expiry, or once the ' +
      'session a bound link was handed to has ended or its user no longer holds the contact. 416 ' +
      'range_not_satisfiable for a `Range` past the end. The `ETag` is the SHA-256 of the bytes.',
  }),
};
