/**
 * The integration API (`/api/integration/v1/…` with a portal API key, `/api/admin/portals/:portal/…`
 * with the installation key): keys, the event feed, webhook endpoints, agent comments. See
 * docs/integration.md for the rules behind these shapes.
 */
import { z } from 'zod';
import { isoDateTime } from './common';

export const apiKeyScopes = ['read', 'write', 'events'] as const;
export const apiKeyScopeSchema = z.enum(apiKeyScopes);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** Every event type; a webhook endpoint subscribes to some (or all with an empty list). */
export const eventTypes = [
  'ticket.created',
  'ticket.comment_added',
  'ticket.closed',
  'ticket.reopened',
  'agent.comment_added',
  'document.uploaded',
  'signature.signed',
  'appointment.booked',
  'appointment.cancelled',
  'user.activated',
] as const;
export const eventTypeSchema = z.enum(eventTypes);
export type EventType = z.infer<typeof eventTypeSchema>;

// ---- keys ----------------------------------------------------------------------------------------

export const apiKeyCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z.array(apiKeyScopeSchema).min(1).max(3),
  })
  .strict();
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the secret, to recognise a key in a list. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdAt: isoDateTime,
  rotatedAt: isoDateTime.nullable(),
  /** Until then the secret before the last rotation still works. */
  previousValidUntil: isoDateTime.nullable(),
  lastUsedAt: isoDateTime.nullable(),
  revokedAt: isoDateTime.nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema);

/** The answer of a creation or a rotation: the only time the secret is shown. */
export const apiKeyWithSecretSchema = apiKeySchema.extend({ secret: z.string() });
export type ApiKeyWithSecret = z.infer<typeof apiKeyWithSecretSchema>;

export const apiKeyRotateSchema = z
  .object({
    /** How long the old secret keeps working (0: revoke it now). Default 24 h, at most 30 days. */
    graceHours: z
      .number()
      .min(0)
      .max(24 * 30)
      .default(24),
  })
  .strict();

export const portalParamSchema = z.object({ portal: z.string().min(1).max(100) });
export const portalKeyParamSchema = portalParamSchema.extend({ keyId: z.coerce.number().int().positive() });

// ---- events --------------------------------------------------------------------------------------

export const eventSourceSchema = z.object({
  /**
   * contact: a portal user; api_key: a call of the integration API (`apiKeyId`); visitor: someone using
   * a public link (booking); staff: the staff desk; system: the portal itself.
   */
  type: z.enum(['contact', 'api_key', 'visitor', 'staff', 'system']),
  contactId: z.number().int().optional(),
  userName: z.string().optional(),
  apiKeyId: z.number().int().optional(),
});
export type EventSource = z.infer<typeof eventSourceSchema>;

export const eventSchema = z.object({
  /** Unique and stable (also the `webhook-id` of its deliveries). */
  id: z.string(),
  type: eventTypeSchema,
  timestamp: isoDateTime,
  portal: z.string(),
  source: eventSourceSchema,
  data: z.record(z.string(), z.unknown()),
});
export type PortalEvent = z.infer<typeof eventSchema>;

export const eventFeedQuerySchema = z.object({
  /** The `next` of the previous page; absent: from the oldest event kept. */
  after: z
    .string()
    .regex(/^\d{1,20}-\d{1,20}$/, 'not a cursor of this feed')
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** Long-poll: when nothing is there, wait up to this many seconds for an event. */
  wait: z.coerce.number().int().min(0).max(60).default(0),
});
export type EventFeedQuery = z.infer<typeof eventFeedQuerySchema>;

export const eventFeedSchema = z.object({
  events: z.array(eventSchema),
  /** Pass as `after` to read on; equal to the cursor given when nothing new was there. */
  next: z.string(),
});
export type EventFeed = z.infer<typeof eventFeedSchema>;

// ---- webhooks ------------------------------------------------------------------------------------

export const webhookEndpointCreateSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }).max(2000),
    description: z.string().max(500).default(''),
    /** Empty: every type. */
    eventTypes: z.array(eventTypeSchema).max(eventTypes.length).default([]),
    /** Told by e-mail when the endpoint is disabled after failing for three days. */
    notifyEmail: z.email().max(320).nullable().default(null),
  })
  .strict();
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

export const webhookEndpointUpdateSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
    description: z.string().max(500).optional(),
    eventTypes: z.array(eventTypeSchema).max(eventTypes.length).optional(),
    notifyEmail: z.email().max(320).nullable().optional(),
    /** true re-enables a disabled endpoint (its failure clock starts again). */
    enabled: z.boolean().optional(),
  })
  .strict();
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(eventTypeSchema),
  notifyEmail: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointListSchema = z.array(webhookEndpointSchema);
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });

export const webhookEndpointParamSchema = z.object({ endpointId: z.coerce.number().int().positive() });

export const webhookAttemptSchema = z.object({
  eventId: z.string(),
  eventType: eventTypeSchema,
  attemptedAt: isoDateTime,
  /** HTTP status, null when no answer came (timeout, refused connection). */
  status: z.number().int().nullable(),
  latencyMs: z.number().int(),
  error: z.string().nullable(),
});
export const webhookAttemptListSchema = z.object({
  attempts: z.array(webhookAttemptSchema),
  pending: z.number().int(),
});

export const webhookReplaySchema = z
  .object({
    /** A feed cursor: events after it are sent again (absent: every event kept). */
    after: z
      .string()
      .regex(/^\d{1,20}-\d{1,20}$/, 'not a cursor of this feed')
      .optional(),
  })
  .strict();
export const webhookReplayAnswerSchema = z.object({ queued: z.number().int() });

// ---- agent comments and files --------------------------------------------------------------------

export const integrationTicketParamSchema = z.object({ ticketid: z.coerce.number().int().positive() });
export const integrationFileParamSchema = z.object({ id: z.coerce.number().int().positive() });

export const agentCommentAttachmentSchema = z.union([
  z.object({ fileId: z.number().int().positive(), name: z.string().min(1).max(200).optional() }).strict(),
  z
    .object({
      name: z.string().min(1).max(200),
      contentType: z.string().max(200).optional(),
      base64: z.string().max(70_000_000),
    })
    .strict(),
]);

export const agentCommentCreateSchema = z
  .object({
    /** The back office's id for the comment; absent: the portal numbers it. */
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    message: z.string().min(1).max(1_000_000),
    /** The agent answering (id of the import's `agents`). */
    senderAgentId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    /** Creates the agent with this name when the portal does not know `senderAgentId` yet. */
    agentName: z.string().trim().min(1).max(200).optional(),
    creationDate: isoDateTime.optional(),
    attachments: z.array(agentCommentAttachmentSchema).max(20).default([]),
  })
  .strict();
export type AgentCommentCreate = z.infer<typeof agentCommentCreateSchema>;

export const integrationFileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  url: z.string(),
});
export type IntegrationFile = z.infer<typeof integrationFileSchema>;

export const agentCommentSchema = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  message: z.string(),
  creationDate: isoDateTime,
  senderAgentId: z.number().int(),
  attachments: z.array(integrationFileSchema.extend({ attachmentId: z.number().int() })),
  /** Whether the ticket's creator was e-mailed. */
  notified: z.boolean(),
});
export type AgentComment = z.infer<typeof agentCommentSchema>;

export const integrationErrorCodes = {
  invalidApiKey: 'invalid_api_key',
  missingScope: 'missing_scope',
  adminKeyRequired: 'admin_key_required',
  idempotencyKeyReused: 'idempotency_key_reused',
  unknownAgent: 'unknown_agent',
  ticketNotFound: 'ticket_not_found',
  webhookTargetRefused: 'webhook_target_refused',
  attachmentUnavailable: 'attachment_unavailable',
  commentIdTaken: 'comment_id_taken',
} as const;
