/**
 * The integration API (`/api/integration/v1/…` with a portal API key, `/api/admin/portals/:portal/…`
 * with the installation key): keys, the event feed, webhook endpoints, agent comments. See
 * docs/integration.md for the rules behind these shapes.
 */
import { z } from 'zod';
import {
  dateInput,
  decimalDigits,
  errorSchema,
  extIdParam,
  extIdSchema,
  INT8_MAX,
  isoDateTime,
  rowIdParam,
  rowIdSchema,
  XID8_MAX,
} from './common';
import { binaryAnswer, defineRoute, type Access } from './route';

export const apiKeyScopes = ['read', 'write', 'events'] as const;
export const apiKeyScopeSchema = z.enum(apiKeyScopes);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** Every event type; a webhook endpoint subscribes to some (or all with an empty list). */
export const eventTypes = [
  'ticket.created',
  'ticket.comment_added',
  'ticket.closed',
  'ticket.reopened',
  'ticket.rated',
  /** A staff user merged a duplicate into another ticket: one event for each (staff-merge.ts). */
  'ticket.merged',
  /** A portal admin undid a merge: one event for each ticket. */
  'ticket.merge_undone',
  /** An agent logged time on a ticket: for the back office's hour bank (Sportello never draws it down). */
  'ticket.time_logged',
  /** A service-level target (first response, resolution) passed unmet: once per target and ticket. */
  'ticket.sla_breached',
  'agent.comment_added',
  'document.uploaded',
  'signature.signed',
  'appointment.booked',
  'appointment.cancelled',
  'user.activated',
  /** A staff admin changed the portal's settings (admin-settings.ts): name, branding, zone, switches. */
  'portal.updated',
  /** A staff admin changed the portal's ticket setup (admin-ticket-setup.ts). */
  'ticket_type.created',
  'ticket_type.updated',
  'ticket_type.deleted',
  'status_step.created',
  'status_step.updated',
  'status_step.deleted',
  'assignee_group.created',
  'assignee_group.updated',
  'assignee_group.deleted',
  // Changes one by one (entities.ts): by a key of the integration API or a staff admin.
  'company.created',
  'company.updated',
  'company.deleted',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'ticket.updated',
  'ticket.deleted',
  'user.invited',
  'user.invitation_revoked',
  'user.deactivated',
  'user.password_reset_sent',
  'invoice.created',
  'invoice.updated',
  'invoice.deleted',
  'estimate.created',
  'estimate.updated',
  'estimate.deleted',
  'document.created',
  'document.updated',
  'document.deleted',
  'report.created',
  'report.updated',
  'report.deleted',
  'public_file.created',
  'public_file.updated',
  'public_file.deleted',
  'activity_contract.created',
  'activity_contract.updated',
  'activity_contract.deleted',
  'service_contract.created',
  'service_contract.updated',
  'service_contract.deleted',
  'subscription.created',
  'subscription.updated',
  'subscription.deleted',
  'appointment_link.created',
  'appointment_link.updated',
  'appointment_link.deleted',
  'task_link.created',
  'task_link.updated',
  'task_link.deleted',
  'tag.created',
  'tag.updated',
  'tag.deleted',
  'wiki_folder.created',
  'wiki_folder.updated',
  'wiki_folder.deleted',
  'wiki_element.created',
  'wiki_element.updated',
  'wiki_element.deleted',
  // Signature requests by a staff admin or a key (admin-content.ts).
  'signature.requested',
  'signature.cancelled',
  // The desk's access administration (admin-access.ts); never a secret in the data.
  'staff_member.invited',
  'staff_member.role_changed',
  'staff_member.removed',
  'api_key.created',
  'api_key.rotated',
  'api_key.revoked',
  // Webhook endpoints changed by a staff admin, the installation key or a key with `events`; never the
  // signing secret in the data.
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.rotated',
  'webhook_endpoint.replayed',
  // The support mailbox set or forgotten (email.ts), by a staff admin or the installation key.
  'mailbox.updated',
  'mailbox.deleted',
  // A staff admin set a group's members from the ticket setup (admin-ticket-setup.ts).
  'assignee_group.members_changed',
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

/**
 * Who made a key or an endpoint, by the name shown then (it reads the same after they are gone): a staff
 * admin in the desk, a portal key through the integration API, or the installation key. Null for what
 * was made before this was recorded.
 */
export const credentialCreatorSchema = z
  .object({
    type: z.enum(['staff', 'api_key', 'admin_key']),
    name: z.string(),
  })
  .nullable();
export type CredentialCreator = z.infer<typeof credentialCreatorSchema>;

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
  createdBy: credentialCreatorSchema,
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
export const portalKeyParamSchema = portalParamSchema.extend({ keyId: rowIdParam });

// ---- events --------------------------------------------------------------------------------------

export const eventSourceSchema = z.object({
  /**
   * contact: a portal user; api_key: a call of the integration API (`apiKeyId`); admin_key: a call with
   * the installation key (PORTAL_ADMIN_KEY); visitor: someone using a public link (booking); staff: the
   * staff desk; system: the portal itself.
   */
  type: z.enum(['contact', 'api_key', 'admin_key', 'visitor', 'staff', 'system']),
  contactId: z.number().int().optional(),
  userName: z.string().optional(),
  apiKeyId: z.number().int().optional(),
  /** staff: the staff user (with `userName`, their display name). */
  staffUserId: z.number().int().optional(),
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

/**
 * A feed cursor, `<xid>-<id>`: the transaction id (an xid8) and the event id (a bigint) of the last
 * event read, each decimal without leading zeros (PostgreSQL reads `0…` of an xid8 as octal) and
 * within its column.
 */
export const feedCursorSchema = z
  .string()
  .max(String(XID8_MAX).length + 1 + String(INT8_MAX).length)
  .refine((v) => {
    const [xid, id, more] = v.split('-');
    return (
      more === undefined &&
      decimalDigits(XID8_MAX).safeParse(xid).success &&
      decimalDigits(INT8_MAX).safeParse(id).success
    );
  }, 'not a cursor of this feed');

export const eventFeedQuerySchema = z.object({
  /** The `next` of the previous page; absent: from the oldest event kept. */
  after: feedCursorSchema.optional(),
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
  /** The last rotation of the signing secret. */
  rotatedAt: isoDateTime.nullable(),
  /** Until then deliveries carry a signature of the secret before the last rotation too. */
  previousValidUntil: isoDateTime.nullable(),
  createdBy: credentialCreatorSchema,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointListSchema = z.array(webhookEndpointSchema);
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

/** How long the secret before a rotation goes on signing beside the new one. */
export const WEBHOOK_ROTATION_OVERLAP_HOURS = 24;
export const webhookRotateSchema = z
  .object({
    /** Default 24; 0 ends the old secret now (it leaked); at most a week. */
    overlapHours: z
      .number()
      .int()
      .min(0)
      .max(24 * 7)
      .default(WEBHOOK_ROTATION_OVERLAP_HOURS),
  })
  .strict();
export type WebhookRotate = z.input<typeof webhookRotateSchema>;

export const webhookEndpointParamSchema = z.object({ endpointId: rowIdParam });

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
    after: feedCursorSchema.optional(),
  })
  .strict();
export const webhookReplayAnswerSchema = z.object({ queued: z.number().int() });

// ---- agent comments and files --------------------------------------------------------------------

export const integrationTicketParamSchema = z.object({ ticketid: extIdParam });
export const integrationFileParamSchema = z.object({ id: rowIdParam });

export const agentCommentAttachmentSchema = z.union([
  z.object({ fileId: rowIdSchema, name: z.string().min(1).max(200).optional() }).strict(),
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
    id: extIdSchema.optional(),
    message: z.string().min(1).max(1_000_000),
    /** The agent answering (id of the import's `agents`). */
    senderAgentId: extIdSchema,
    /** Creates the agent with this name when the portal does not know `senderAgentId` yet. */
    agentName: z.string().trim().min(1).max(200).optional(),
    creationDate: dateInput.optional(),
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
  invalidIdempotencyKey: 'invalid_idempotency_key',
  fileNotFound: 'file_not_found',
  apiKeyNotFound: 'api_key_not_found',
  webhookNotFound: 'webhook_not_found',
} as const;

// ---- routes (see route.ts) -----------------------------------------------------------------------

const adminKey = { guard: 'adminKey' } as const;
const keyWith = <S extends ApiKeyScope>(scope: S) => ({ guard: 'apiKey', scope }) as const;

/**
 * The webhook routes under one root: `/api/integration/v1` (a key with `events`, its own portal),
 * `/api/admin/portals/:portal` (the installation key, any portal) or the staff admin root
 * (admin-access.ts).
 */
export function webhookRoutesUnder<const Root extends string, const A extends Access, P extends z.ZodObject>(
  root: Root,
  access: A,
  params: P,
  tag: string,
) {
  const one = params.extend(webhookEndpointParamSchema.shape);
  const tags = [tag] as const;
  return {
    list: defineRoute({
      method: 'GET',
      path: `${root}/webhooks`,
      params,
      responses: { 200: webhookEndpointListSchema, 404: errorSchema },
      access,
      tags,
      summary: "The portal's webhook endpoints",
    }),
    create: defineRoute({
      method: 'POST',
      path: `${root}/webhooks`,
      params,
      body: webhookEndpointCreateSchema,
      responses: { 201: webhookEndpointWithSecretSchema, 404: errorSchema },
      access,
      tags,
      summary: 'Add a webhook endpoint; its whsec_ signing secret is in this answer only',
      description:
        'The URL must resolve to public addresses only (unless WEBHOOK_ALLOW_PRIVATE=true): 400 ' +
        '`webhook_target_refused` otherwise. An empty `eventTypes` subscribes to every type.',
    }),
    update: defineRoute({
      method: 'PATCH',
      path: `${root}/webhooks/:endpointId`,
      params: one,
      body: webhookEndpointUpdateSchema,
      responses: { 200: webhookEndpointSchema, 404: errorSchema },
      access,
      tags,
      summary: 'Change an endpoint; `enabled: true` re-enables a disabled one',
    }),
    remove: defineRoute({
      method: 'DELETE',
      path: `${root}/webhooks/:endpointId`,
      params: one,
      responses: { 204: null, 404: errorSchema },
      access,
      tags,
      summary: 'Delete an endpoint with its pending deliveries and its log',
    }),
    attempts: defineRoute({
      method: 'GET',
      path: `${root}/webhooks/:endpointId/attempts`,
      params: one,
      query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
      responses: { 200: webhookAttemptListSchema, 404: errorSchema },
      access,
      tags,
      summary: 'The delivery log: latest attempts (status, latency, error) and how many deliveries wait',
    }),
    replay: defineRoute({
      method: 'POST',
      path: `${root}/webhooks/:endpointId/replay`,
      params: one,
      body: webhookReplaySchema.nullish(),
      responses: { 200: webhookReplayAnswerSchema, 404: errorSchema },
      access,
      tags,
      summary: 'Send again every kept event after a feed cursor (every kept event without one)',
    }),
    rotate: defineRoute({
      method: 'POST',
      path: `${root}/webhooks/:endpointId/rotate`,
      params: one,
      body: webhookRotateSchema.nullish(),
      responses: { 200: webhookEndpointWithSecretSchema, 404: errorSchema },
      access,
      tags,
      summary: 'A new signing secret, in this answer only; the old one signs too for `overlapHours` (24)',
      description:
        'Until `previousValidUntil` every delivery carries two signatures in `webhook-signature` ' +
        '(`v1,<old> v1,<new>`, space-separated as Standard Webhooks allows), so a receiver verifies with ' +
        'either secret while it switches; then only the new one. A secret two rotations old stops at once. ' +
        '`overlapHours: 0` ends the old secret now.',
    }),
  };
}

export const integrationRoutes = {
  createKey: defineRoute({
    method: 'POST',
    path: '/api/admin/portals/:portal/keys',
    params: portalParamSchema,
    body: apiKeyCreateSchema,
    responses: { 201: apiKeyWithSecretSchema, 404: errorSchema },
    access: adminKey,
    tags: ['integration: keys'],
    summary: 'Create a portal API key; its secret is in this answer only',
  }),
  listKeys: defineRoute({
    method: 'GET',
    path: '/api/admin/portals/:portal/keys',
    params: portalParamSchema,
    responses: { 200: apiKeyListSchema, 404: errorSchema },
    access: adminKey,
    tags: ['integration: keys'],
    summary: "The portal's API keys (prefixes, never secrets)",
  }),
  rotateKey: defineRoute({
    method: 'POST',
    path: '/api/admin/portals/:portal/keys/:keyId/rotate',
    params: portalKeyParamSchema,
    body: apiKeyRotateSchema.nullish(),
    responses: { 200: apiKeyWithSecretSchema, 404: errorSchema },
    access: adminKey,
    tags: ['integration: keys'],
    summary: 'Give the key a new secret; the old one works `graceHours` more (default 24, 0: none)',
  }),
  revokeKey: defineRoute({
    method: 'POST',
    path: '/api/admin/portals/:portal/keys/:keyId/revoke',
    params: portalKeyParamSchema,
    responses: { 200: apiKeySchema, 404: errorSchema },
    access: adminKey,
    tags: ['integration: keys'],
    summary: 'Revoke the key (current and previous secret) at once',
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/integration/v1/events',
    query: eventFeedQuerySchema,
    responses: { 200: eventFeedSchema },
    access: keyWith('events'),
    tags: ['integration: events'],
    summary: "The portal's events after a cursor, oldest first (at least once, resumable)",
    description:
      'Pass the `next` of each answer as `after` of the next call. With `wait`, an empty page waits up ' +
      'to that many seconds for new events. Events are kept EVENT_RETENTION_DAYS (at least 30).',
  }),
  agentComment: defineRoute({
    method: 'POST',
    path: '/api/integration/v1/tickets/:ticketid/comments',
    params: integrationTicketParamSchema,
    body: agentCommentCreateSchema,
    // Inline attachments travel as base64 (the schema's own bound); the key is checked before the body is read.
    bodyLimit: 72 * 1024 * 1024,
    responses: { 201: agentCommentSchema, 404: errorSchema, 409: errorSchema, 422: errorSchema },
    access: keyWith('write'),
    tags: ['integration: tickets'],
    summary: "An agent's answer on a ticket: shown to the customer, who is e-mailed",
    description:
      'HTML is sanitised like every comment. Attachments: files uploaded with POST ' +
      '/api/integration/v1/files by the same key (`fileId`), or inline `{name, contentType, base64}`. ' +
      'Emits `agent.comment_added`. `Idempotency-Key` header: the same key and body answer the stored ' +
      'result (header `Idempotent-Replayed: true`); the same key with another body is 422 ' +
      '`idempotency_key_reused`. 409 `comment_id_taken` when the given `id` exists.',
  }),
  uploadFile: defineRoute({
    method: 'POST',
    path: '/api/integration/v1/files',
    bodyKind: 'multipart',
    responses: { 201: integrationFileSchema },
    access: keyWith('write'),
    tags: ['integration: files'],
    summary: 'Upload a file (multipart field `file`) to attach to an agent comment',
    description:
      'At most MAX_UPLOAD_MB (else 413, nothing kept). The answered id can be attached once, by this ' +
      'key, as `{fileId}` in `attachments`.',
  }),
  file: defineRoute({
    method: 'GET',
    path: '/api/integration/v1/files/:id',
    params: integrationFileParamSchema,
    responses: {
      200: binaryAnswer('The bytes of the file, as its own media type (always a download)', '*/*'),
      206: binaryAnswer('The bytes of the one `Range` asked for (`bytes=a-b`, `a-` or `-n`)', '*/*'),
      404: errorSchema,
      416: errorSchema,
    },
    access: keyWith('read'),
    tags: ['integration: files'],
    summary: 'The bytes of a file of the portal (the `url` of files in event payloads)',
  }),
};

export const webhookKeyRoutes = webhookRoutesUnder(
  '/api/integration/v1',
  keyWith('events'),
  z.object({}),
  'integration: webhooks',
);
export const webhookAdminRoutes = webhookRoutesUnder(
  '/api/admin/portals/:portal',
  adminKey,
  portalParamSchema,
  'integration: webhooks (admin)',
);
