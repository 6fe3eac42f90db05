/**
 * The public answers of an API key and a webhook endpoint: what lists, audit rows and events show of
 * them (never a secret). The key and webhook services and the retirement of what a member made
 * (made-by.ts) build them here, so the three read the same.
 */
import type {
  ApiKey,
  ApiKeyScope,
  CredentialCreator,
  EventType,
  WebhookEndpoint,
} from '@sportello/contracts';
import type { apiKeys, webhookEndpoints } from '../../../db/schema';
import { ADMIN_KEY_ACTOR_NAME, type AdminActor } from '../../../platform/audit';

type KeyRow = typeof apiKeys.$inferSelect;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The creator columns (migration 0041) of a row made by `actor`; an API key's name is read by the insert. */
export function creatorColumns(
  actor: AdminActor,
  apiKeyName?: string,
): { createdByStaffId: number | null; createdByApiKeyId: number | null; createdByName: string } {
  if (actor.type === 'staff')
    return { createdByStaffId: actor.staffUserId, createdByApiKeyId: null, createdByName: actor.displayName };
  if (actor.type === 'api_key')
    return { createdByStaffId: null, createdByApiKeyId: actor.apiKeyId, createdByName: apiKeyName ?? '' };
  return { createdByStaffId: null, createdByApiKeyId: null, createdByName: ADMIN_KEY_ACTOR_NAME };
}

/**
 * Who made the row, by the name recorded then. Neither id set is the installation key; a staff user or
 * key that no longer exists (its id set to null) still reads by its name.
 */
function creatorOf(r: {
  createdByStaffId: number | null;
  createdByApiKeyId: number | null;
  createdByName: string | null;
}): CredentialCreator {
  if (r.createdByName === null) return null;
  const type =
    r.createdByApiKeyId !== null
      ? 'api_key'
      : r.createdByStaffId === null && r.createdByName === ADMIN_KEY_ACTOR_NAME
        ? 'admin_key'
        : 'staff';
  return { type, name: r.createdByName };
}

export function apiKeyAnswer(k: KeyRow): ApiKey {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: [...new Set(k.scopes)].sort() as ApiKeyScope[],
    createdAt: k.createdAt.toISOString(),
    rotatedAt: iso(k.rotatedAt),
    previousValidUntil: iso(k.previousSecretHash ? k.previousValidUntil : null),
    lastUsedAt: iso(k.lastUsedAt),
    revokedAt: iso(k.revokedAt),
    createdBy: creatorOf(k),
  };
}

export function webhookEndpointAnswer(r: EndpointRow, now: Date): WebhookEndpoint {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    eventTypes: r.eventTypes as EventType[],
    notifyEmail: r.notifyEmail,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    failingSince: iso(r.failingSince),
    createdAt: r.createdAt.toISOString(),
    rotatedAt: iso(r.rotatedAt),
    previousValidUntil:
      r.previousSecret && r.previousValidUntil && r.previousValidUntil > now
        ? r.previousValidUntil.toISOString()
        : null,
    createdBy: creatorOf(r),
  };
}
