/**
 * Credentials of the integration API. A portal API key (`spk_…`) belongs to one portal and carries
 * scopes; only the SHA-256 of its secret is stored, with a visible prefix to recognise it. After a
 * rotation the previous secret keeps working until its grace period ends. The installation key
 * (PORTAL_ADMIN_KEY, the `adminKey` guard of the admin module) manages portals and their keys.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { integrationErrorCodes, type ApiKeyScope } from '@sportello/contracts';
import type { Db } from '../db/client';
import { bearerOf, sha256 } from './auth';
import type { Clock } from './clock';
import { forbidden, unauthorized } from './errors';
import { queryRows } from './sql-json';

export const API_KEY_PREFIX = 'spk_';
/** Characters of a key shown in lists (`spk_` and 8 of the secret). */
export const VISIBLE_PREFIX_LENGTH = 12;
/** last_used_at is written at most this often per key: a busy key costs no write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A new key: what the caller sees once, and what is stored. */
export function newApiKeySecret(): { secret: string; prefix: string; hash: string } {
  const secret = API_KEY_PREFIX + randomBytes(30).toString('base64url');
  return { secret, prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH), hash: sha256(secret) };
}

/** What a key guard hands the handler. */
export interface ApiKeyAccess {
  apiKeyId: number;
  portalId: number;
  portalKey: string;
  timeZone: string;
  scopes: ApiKeyScope[];
}

const invalidKey = () => unauthorized('A valid API key is required', integrationErrorCodes.invalidApiKey);

/**
 * The live key a secret opens: not revoked, and either its current secret or its previous one within
 * the grace period. One statement (two unique indexes), plus a write at most once a minute.
 */
export async function findApiKey(db: Db, clock: Clock, secret: string): Promise<ApiKeyAccess | undefined> {
  if (!secret.startsWith(API_KEY_PREFIX)) return undefined;
  const now = clock.now();
  const hash = sha256(secret);
  const rows = await queryRows<{
    id: number;
    portal_id: number;
    portal_key: string;
    time_zone: string;
    scopes: ApiKeyScope[] | string;
    last_used_at: string | Date | null;
  }>(
    db,
    sql`select k.id, k.portal_id, p.key as portal_key, p.time_zone, k.scopes, k.last_used_at
      from api_keys k join portals p on p.id = k.portal_id
      where k.revoked_at is null
        and (k.secret_hash = ${hash}
          or (k.previous_secret_hash = ${hash} and k.previous_valid_until > ${now.toISOString()}::timestamptz))
      limit 1`,
  );
  const r = rows[0];
  if (!r) return undefined;
  const lastUsed = r.last_used_at === null ? 0 : new Date(r.last_used_at).getTime();
  if (now.getTime() - lastUsed >= LAST_USED_RESOLUTION_MS) {
    await db.execute(
      sql`update api_keys set last_used_at = ${now.toISOString()}::timestamptz where id = ${r.id}`,
    );
  }
  return {
    apiKeyId: Number(r.id),
    portalId: Number(r.portal_id),
    portalKey: r.portal_key,
    timeZone: r.time_zone,
    scopes: typeof r.scopes === 'string' ? parsePgArray(r.scopes) : r.scopes,
  };
}

/** node-postgres answers text[] as an array; a raw PGlite row may carry `{a,b}`. */
function parsePgArray(text: string): ApiKeyScope[] {
  return text
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean) as ApiKeyScope[];
}

/** The `apiKey` guard: a live key of some portal holding `scope` (401 / 403 otherwise). */
export async function requireApiKey(
  req: FastifyRequest,
  db: Db,
  clock: Clock,
  scope: ApiKeyScope,
): Promise<ApiKeyAccess> {
  const secret = bearerOf(req);
  if (!secret) throw invalidKey();
  const key = await findApiKey(db, clock, secret);
  if (!key) throw invalidKey();
  if (!key.scopes.includes(scope))
    throw forbidden(`This API key lacks the ${scope} scope`, integrationErrorCodes.missingScope);
  return key;
}
