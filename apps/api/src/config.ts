import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An address, a CIDR, or one of proxy-addr's names (loopback, linklocal, uniquelocal). */
function isProxyAddress(a: string): boolean {
  if (a === 'loopback' || a === 'linklocal' || a === 'uniquelocal') return true;
  const [ip, bits, ...rest] = a.split('/');
  const family = isIP(ip ?? '');
  if (family === 0 || rest.length > 0) return false;
  // A /0 is every address: what `true` would trust (and the proxy matcher refuses it at start).
  return (
    bits === undefined ||
    (/^\d+$/.test(bits) && Number(bits) >= 1 && Number(bits) <= (family === 4 ? 32 : 128))
  );
}

/** `0.0.0.0/0`, `::/0`: a proxy "range" that is every client. */
const trustsEveryone = (a: string) => /\/0+$/.test(a.trim());

const optionalUrl = z.url({ message: 'must be a URL' }).optional();

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must start with postgres:// or postgresql://' })
    .optional(),
  PUBLIC_URL: optionalUrl,
  PORTAL_ADMIN_KEY: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(4096).default(25),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'must start with smtp:// or smtps://' })
    .optional(),
  SMS_WEBHOOK_URL: optionalUrl,
  /** Sender of every e-mail, e.g. `ACME Assistenza <help@acme.example>`. */
  MAIL_FROM: z.string().min(3).max(320).optional(),
  /** DKIM signing of outgoing e-mail (docs/operations.md): the domain, selector and PEM key file. */
  DKIM_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, { message: 'must be a domain name' })
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9._-]+$/i, { message: 'must be a DNS label' })
    .optional(),
  DKIM_KEY_FILE: z.string().min(1).optional(),
  /**
   * Receive mail by SMTP for the portals' support addresses (docs/email.md), on this port; unset: only
   * the IMAP reader. `INBOUND_SMTP_HOST` is the address it listens on (default: HOST).
   */
  INBOUND_SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().min(1).optional(),
  /**
   * Messages one sending address (an IPv6 /64) may start in 10 minutes; past it, 421. A mail server in
   * front that forwards everything from one address needs it raised, as does `npm run bench:email`.
   */
  INBOUND_SMTP_RATE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  DEMO_DATA: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(12),
  /**
   * Memory for serialised ticket lists reused while their company's data has not changed (0 turns the
   * cache off). Each process keeps its own; the database decides whether an entry is still current.
   */
  LIST_CACHE_MB: z.coerce.number().min(0).max(4096).default(16),
  /**
   * The desk's reports read the daily rollup of migration 0060 when a report names at most one
   * dimension; `off` reads every report from the tickets (the benchmark's comparison, a suspected fault).
   */
  REPORTS_ROLLUP: z.enum(['on', 'off']).default('on'),
  /**
   * Embedded database only: with this many API requests in progress, a new one is refused at once
   * (503, Retry-After) instead of queueing for seconds behind the others.
   */
  PGLITE_QUEUE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(32),
  /**
   * Embedded database only: an API request that has waited this long for its turn (the event loop busy
   * with the requests before it) is refused (503, Retry-After) before it starts; each turn of the loop
   * starts requests for a quarter of it (platform/load-shedding.ts).
   */
  /**
   * Uploads received at once (each holds a socket and a temp file until answered); past it a new one is
   * answered 503 with Retry-After before its body is read (platform/upload-limits.ts).
   */
  MAX_UPLOADS_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(100),
  PGLITE_MAX_WAIT_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /**
   * Where file bytes live: unset keeps them in DATA_DIR/files; `s3://bucket/prefix` puts them in an
   * S3-compatible bucket (S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE; credentials from the standard
   * AWS variables), which processes on several machines can share.
   */
  FILE_STORE: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, {
      message: 'must be s3://bucket or s3://bucket/prefix (a bucket name in lower case)',
    })
    .optional(),
  /** An S3-compatible server's address (MinIO, Ceph, a cloud's); unset means AWS itself. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** `true` addresses buckets as endpoint/bucket/key (most S3-compatible servers want it). */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /**
   * `true` sends browsers to a short-lived presigned link of the bucket instead of passing the bytes
   * through the API (docs/operations.md, "Files in object storage", says what that gives up).
   */
  S3_PRESIGNED_DOWNLOADS: bool.default(false),
  /**
   * `true` declares a set-up of several processes: the start is refused while a setting they must
   * share (DATABASE_URL, SECRET, FILE_STORE) is missing, instead of each process keeping its own.
   */
  REQUIRE_SHARED_FILES: bool.default(false),
  /** Where the built SPA lives; tests and API-only deployments may point it elsewhere. */
  WEB_DIST: z.string().optional(),
  /** Integration API (docs/integration.md): events kept for the feed and replays, in days. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(30),
  /**
   * How often the SLA breach sweep looks for tickets to tell of (modules/staff/sla-sweeper.ts): a breach
   * or an "about to breach" is told within this long. Each look is one index range, so a shorter one
   * costs little; the journeys set 1 so they need not wait for the default.
   */
  SLA_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Let webhooks target private/loopback addresses (tests, an on-premises back office). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Time allowed to a webhook receiver for one delivery. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(60).default(10),
  /**
   * Which X-Forwarded-For entries to believe: a hop count (the proxies in front of us) or the proxies'
   * addresses / CIDRs. `true` (every hop) is refused: any client could then pick its own address.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, c): false | number | string[] => {
      const value = (v ?? 'false').trim();
      if (value === 'false' || value === '0') return false;
      if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
      const list = value.split(',').map((a) => a.trim());
      if (list.every(isProxyAddress)) return list;
      c.addIssue({
        code: 'custom',
        message:
          value === 'true' || list.some(trustsEveryone)
            ? `${value === 'true' ? 'true' : list.find(trustsEveryone)} trusts every X-Forwarded-For hop, ` +
              'so any client could choose its own address: give the number of proxies in front of the ' +
              'server (e.g. 1) or their addresses (e.g. 10.0.0.0/8)'
            : 'must be false, a hop count (1-10) or a comma list of proxy addresses or CIDRs',
      });
      return z.NEVER;
    }),
});

export type Config = z.infer<typeof schema> & { publicUrl: string };

export class ConfigError extends Error {}

/** Parses the environment once. Empty strings count as unset, so `FOO=` in a unit file means default. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(schema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const dkim = [c.DKIM_DOMAIN, c.DKIM_SELECTOR, c.DKIM_KEY_FILE].filter((v) => v !== undefined).length;
  if (dkim !== 0 && dkim !== 3)
    throw new ConfigError(
      'Invalid configuration:\n  DKIM_DOMAIN, DKIM_SELECTOR, DKIM_KEY_FILE: set all three or none',
    );
  if (c.DKIM_KEY_FILE && !existsSync(c.DKIM_KEY_FILE))
    throw new ConfigError(`Invalid configuration:\n  DKIM_KEY_FILE: no file at ${c.DKIM_KEY_FILE}`);
  const unshared = [
    c.DATABASE_URL === undefined && 'DATABASE_URL (each process would have its own embedded database)',
    c.SECRET === undefined && 'SECRET (each process would generate its own in its DATA_DIR)',
    c.FILE_STORE === undefined &&
      'FILE_STORE (files would stay on the disk of the process that received them)',
  ].filter((x) => x !== false);
  if (c.REQUIRE_SHARED_FILES && unshared.length > 0)
    throw new ConfigError(
      `REQUIRE_SHARED_FILES=true (several processes) needs what they share, missing: ${unshared.join('; ')}`,
    );
  const publicUrl = (
    c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`
  ).replace(/\/$/, '');
  return { ...c, publicUrl };
}
