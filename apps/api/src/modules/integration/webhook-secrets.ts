/**
 * Webhook signing secrets at rest. The signature needs the `whsec_…` secret itself (a hash will not
 * do), so it is stored encrypted: AES-256-GCM under a key derived with HKDF-SHA256 from the
 * installation's SECRET (every process shares it), the portal's id bound as associated data.
 *
 * A stored value says what it is (migration 0025 checks the two shapes):
 * - `whsec_…`: in clear, as rows were written before 0025 (`sealClearWebhookSecrets` seals them at
 *   start and hourly; the worker still signs with one it meets);
 * - `sealed.v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts): encrypted. The key id names the
 *   derived key (not secret: an HKDF output of its own), so a value sealed under another SECRET is told
 *   apart from a damaged one.
 *
 * A SECRET changed since: the value cannot be opened, and the worker records each delivery of that
 * endpoint as failed with the reason (its delivery log says so), sends nothing unsigned, and retries as
 * for any failure; setting the former SECRET back, or rotating the endpoint's secret, mends it.
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../platform/context';
import { SEALED_PREFIX as SEALED, SealedBox, type Opened } from '../../platform/sealed-box';
import { queryRows } from '../../platform/sql-json';

export type { UnreadableReason } from '../../platform/sealed-box';
export type OpenedSecret = Opened;

export class WebhookSecretBox extends SealedBox {
  constructor(serverSecret: string) {
    super(serverSecret, 'sportello:webhook-secrets', 'webhook_endpoints.portal:');
  }

  /** The `whsec_…` secret of a stored value, in clear or sealed. */
  override open(stored: string, portalId: number): OpenedSecret {
    if (isClearSecret(stored)) return { ok: true, secret: stored };
    return super.open(stored, portalId);
  }
}

export const isClearSecret = (stored: string) => stored.startsWith('whsec_');

/** The delivery log's words for a secret that gives no signing key. */
export function unreadableSecretError(reason: Exclude<Opened, { ok: true }>['reason']): string {
  return reason === 'other_secret'
    ? "signing secret unreadable: it was sealed under another SECRET than this server's; set the " +
        "former SECRET back, or rotate the endpoint's secret (nothing was sent)"
    : "signing secret unreadable: the stored value is damaged; rotate the endpoint's secret (nothing was sent)";
}

let cached: { serverSecret: string; box: WebhookSecretBox } | undefined;

/** The box of the process's SECRET (the key is derived once). */
export function secretBoxOf(ctx: Pick<AppContext, 'secret'>): WebhookSecretBox {
  if (cached?.serverSecret !== ctx.secret)
    cached = { serverSecret: ctx.secret, box: new WebhookSecretBox(ctx.secret) };
  return cached.box;
}

/**
 * Seals the secrets still in clear (rows written before migration 0025, or by an older process during
 * a rolling upgrade): at start and hourly. Idempotent: a sealed value is left alone, and each row is
 * updated only while it still holds the clear value read, so processes starting together never seal
 * one twice. Answers how many were sealed and how many sealed values this SECRET cannot open.
 */
export async function sealClearWebhookSecrets(
  ctx: Pick<AppContext, 'secret' | 'database'>,
  log?: FastifyBaseLogger,
): Promise<{ sealed: number; unreadable: number }> {
  const box = secretBoxOf(ctx);
  const db = ctx.database.db;
  const clear = await queryRows<{
    id: number;
    portal_id: number;
    secret: string;
    previous_secret: string | null;
  }>(
    db,
    sql`select id, portal_id, secret, previous_secret from webhook_endpoints
      where secret like 'whsec\_%' or previous_secret like 'whsec\_%'`,
  );
  let sealed = 0;
  for (const r of clear) {
    const seal = (v: string | null) =>
      v !== null && isClearSecret(v) ? box.seal(v, Number(r.portal_id)) : v;
    const done = await queryRows<{ id: number }>(
      db,
      sql`update webhook_endpoints set secret = ${seal(r.secret)}, previous_secret = ${seal(r.previous_secret)}
        where id = ${r.id}::int and secret = ${r.secret}
          and previous_secret is not distinct from ${r.previous_secret}::text
        returning id`,
    );
    sealed += done.length;
  }
  const [other] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from webhook_endpoints
      where secret like ${SEALED + '%'} and split_part(secret, '.', 3) <> ${box.keyId}`,
  );
  const unreadable = Number(other?.n ?? 0);
  if (sealed > 0) log?.info({ sealed }, 'webhook signing secrets encrypted at rest');
  if (unreadable > 0)
    log?.warn(
      { endpoints: unreadable },
      'webhook signing secrets sealed under another SECRET: those endpoints fail every delivery until ' +
        "the former SECRET is set back or each endpoint's secret is rotated",
    );
  return { sealed, unreadable };
}
