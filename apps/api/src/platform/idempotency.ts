/**
 * `Idempotency-Key` on integration POSTs: the first request with a key stores its answer in the SAME
 * transaction as its change, so the answer exists if and only if the change does. A retry with the
 * same key and the same request gets the stored answer (and changes nothing); the same key with a
 * different request is refused with 422. Two concurrent requests with one key serialise on the
 * primary key: the second waits for the first to commit, then finds its answer. Keys are per API key
 * and kept 24 hours.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { integrationErrorCodes } from '@sportello/contracts';
import type { Tx } from '../db/client';
import { AppError, badRequest } from './errors';
import { queryRows } from './sql-json';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

export interface Answer<T> {
  status: number;
  body: T;
  /** True when this is the stored answer of an earlier request. */
  replayed: boolean;
}

/** A header value of 1–255 visible ASCII characters, or 400. */
export function checkIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || !/^[\x21-\x7e]{1,255}$/.test(key))
    throw badRequest('Idempotency-Key: 1 to 255 visible ASCII characters', 'invalid_idempotency_key');
  return key;
}

export async function withIdempotency<T>(
  tx: Tx,
  p: { apiKeyId: number; key: string | undefined; route: string; request: unknown; now: Date },
  run: () => Promise<{ status: number; body: T }>,
): Promise<Answer<T>> {
  if (p.key === undefined) return { ...(await run()), replayed: false };
  const hash = createHash('sha256')
    .update(p.route)
    .update('\n')
    .update(JSON.stringify(p.request))
    .digest('hex');
  const claimed = await queryRows<{ ok: number }>(
    tx,
    sql`insert into idempotency_keys (api_key_id, idem_key, route, request_hash, status, response, created_at)
      values (${p.apiKeyId}::int, ${p.key}, ${p.route}, ${hash}, 0, 'null'::jsonb, ${p.now.toISOString()}::timestamptz)
      on conflict (api_key_id, idem_key) do nothing
      returning 1 as ok`,
  );
  if (claimed.length === 0) {
    const [prior] = await queryRows<{ request_hash: string; status: number; response: unknown }>(
      tx,
      sql`select request_hash, status, response from idempotency_keys
        where api_key_id = ${p.apiKeyId}::int and idem_key = ${p.key}`,
    );
    if (!prior || prior.request_hash !== hash)
      throw new AppError(
        422,
        integrationErrorCodes.idempotencyKeyReused,
        'This Idempotency-Key was used with a different request',
      );
    const body = typeof prior.response === 'string' ? JSON.parse(prior.response) : prior.response;
    return { status: Number(prior.status), body: body as T, replayed: true };
  }
  const answer = await run();
  await tx.execute(
    sql`update idempotency_keys set status = ${answer.status}, response = ${JSON.stringify(answer.body)}::jsonb
      where api_key_id = ${p.apiKeyId}::int and idem_key = ${p.key}`,
  );
  return { ...answer, replayed: false };
}

/** Forgets keys older than the TTL. */
export async function purgeIdempotencyKeys(tx: Tx | Parameters<typeof queryRows>[0], before: Date) {
  await tx.execute(sql`delete from idempotency_keys where created_at < ${before.toISOString()}::timestamptz`);
}
