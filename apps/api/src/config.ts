import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

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
   * Embedded database only: past this many statements waiting for it, new API requests are refused at
   * once (503, Retry-After) instead of queueing for seconds behind the others.
   */
  PGLITE_QUEUE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(32),
  /** Where the built SPA lives; tests and API-only deployments may point it elsewhere. */
  WEB_DIST: z.string().optional(),
  /** Trust X-Forwarded-For from a load balancer (true, or a hop count / address list). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === 'false' ? false : v === 'true' ? true : v)),
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
  const publicUrl = (
    c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`
  ).replace(/\/$/, '');
  return { ...c, publicUrl };
}
