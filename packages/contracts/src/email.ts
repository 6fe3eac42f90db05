// E-mail as a channel (issue 26, docs/email.md): the portal's support mailbox and the messages read
// from it that wait for someone (unknown senders, mails a contact may not act on, unreadable ones).
import { z } from 'zod';
import { errorSchema, extIdParam, extIdSchema, isoDateTime } from './common';
import { userInviteSchema } from './entities';
import { portalParamSchema } from './integration';
import { binaryAnswer, defineRoute, type Access } from './route';
import { staffPortalParamsSchema } from './staff';

/** Codes of this area. */
export const emailErrorCodes = {
  /** 404: the portal has no support mailbox set. */
  noMailbox: 'no_mailbox',
  /** 409: another portal already uses this support address. */
  mailboxAddressTaken: 'mailbox_address_taken',
  /** 404: no such inbound message in the portal, or it does not wait any more. */
  inboundNotFound: 'inbound_not_found',
  /** 404: attach: no contact with this id in the portal. */
  contactNotFound: 'contact_not_found',
  /** 404: attach: no ticket with this id in the portal, or not of the contact's company. */
  ticketNotFound: 'ticket_not_found',
  /** 409: attach: the message cannot become a comment or ticket (unreadable, blank…); `message` says why. */
  inboundRefused: 'inbound_refused',
  /** 404: the address is not marked bouncing in the portal. */
  bounceNotFound: 'bounce_not_found',
  /** 404: invite: no company with this id in the portal. */
  companyNotFound: 'company_not_found',
  /** 409: invite: the sender's address is a contact of that company already (attach the message to it). */
  contactExists: 'contact_exists',
} as const;

const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim());

const mailboxFields = {
  /** The address customers write to (and the Reply-To of ticket e-mails, plus-addressed). */
  address: z.email().max(254),
  imapHost: text(253).pipe(z.string().regex(/^[A-Za-z0-9.:[\]-]*$/, 'host name or address')),
  imapPort: z.number().int().min(1).max(65535),
  /** tls: TLS from the first byte (port 993); starttls: upgrade after connecting (143); none: tests only. */
  imapSecurity: z.enum(['tls', 'starttls', 'none']),
  imapUser: text(320),
  password: z.string().max(1000),
  folder: text(200).pipe(z.string().min(1)),
  /** Off: nothing is read and ticket e-mails carry no Reply-To. */
  enabled: z.boolean(),
};

/** What a portal admin sets. `password` absent: keep the stored one; `''`: forget it. */
export const mailboxSettingsSchema = z.object({
  ...mailboxFields,
  imapPort: mailboxFields.imapPort.default(993),
  imapSecurity: mailboxFields.imapSecurity.default('tls'),
  password: mailboxFields.password.optional(),
  folder: mailboxFields.folder.default('INBOX'),
  enabled: mailboxFields.enabled.default(true),
});
/** "Test connection" with settings not saved yet: each one sent replaces the stored one. */
export const mailboxTestBodySchema = z.object(mailboxFields).partial();
export type MailboxSettings = z.infer<typeof mailboxSettingsSchema>;

/** The mailbox as stored; the password never leaves the server. */
export const mailboxSchema = z.object({
  address: z.string(),
  imapHost: z.string(),
  imapPort: z.number().int(),
  imapSecurity: z.enum(['tls', 'starttls', 'none']),
  imapUser: z.string(),
  hasPassword: z.boolean(),
  folder: z.string(),
  enabled: z.boolean(),
  /** The last time the reader finished a pass, and what went wrong on the last one. */
  lastReadAt: isoDateTime.nullable(),
  lastError: z.string().nullable(),
  /** What a ticket e-mail's Reply-To looks like (`support+t-…@…`). */
  replyToExample: z.string(),
});
export type Mailbox = z.infer<typeof mailboxSchema>;
export const mailboxAnswerSchema = z.object({ mailbox: mailboxSchema.nullable() });

/**
 * The outcome of "Test connection", by code (the desk says it in the user's language) with the server's
 * words in `detail`.
 */
export const mailboxTestCodes = [
  'ok',
  'no_host',
  'host_not_found',
  'connection_refused',
  'timeout',
  'certificate_refused',
  'tls_failed',
  'auth_failed',
  'folder_missing',
  'password_unreadable',
  'error',
] as const;
export const mailboxTestSchema = z.object({
  ok: z.boolean(),
  code: z.enum(mailboxTestCodes),
  detail: z.string(),
  /** Messages in the folder, when it was opened. */
  messages: z.number().int().nullable(),
});
export type MailboxTest = z.infer<typeof mailboxTestSchema>;

export const inboundStatuses = [
  'done',
  'unknown',
  'waiting',
  'unprocessed',
  'bounce',
  'ignored',
  'discarded',
] as const;
export type InboundStatus = (typeof inboundStatuses)[number];

export const inboundEmailSchema = z.object({
  id: z.number().int(),
  status: z.enum(inboundStatuses),
  reason: z.string().nullable(),
  fromAddress: z.string(),
  fromName: z.string(),
  subject: z.string(),
  preview: z.string(),
  receivedAt: isoDateTime,
  /** The receiving server said SPF or DKIM failed (Authentication-Results): the sender may be forged. */
  authFailed: z.boolean(),
  /** The ticket it became or was matched to (back-office id). */
  ticketId: z.number().int().nullable(),
});
export type InboundEmail = z.infer<typeof inboundEmailSchema>;
export const inboundListSchema = z.object({
  items: z.array(inboundEmailSchema),
  /** Pass as `before` for the next page; null: no more. */
  nextBefore: z.number().int().nullable(),
});
export const inboundQuerySchema = z.object({
  status: z.enum(['unknown', 'waiting', 'unprocessed', 'bounce', 'ignored', 'done']).default('unknown'),
  before: extIdParam.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const inboundParamsSchema = staffPortalParamsSchema.extend({
  inboundId: extIdParam,
});

/**
 * An agent gives a waiting message (unknown sender, a contact who may not act) to a contact of the
 * portal: it becomes that contact's new ticket, or, with `ticketId`, their comment on that ticket of
 * their company. Both are back-office ids.
 */
export const inboundAttachBodySchema = z.object({
  contactId: extIdSchema,
  ticketId: extIdSchema.optional(),
});
export type InboundAttachBody = z.infer<typeof inboundAttachBodySchema>;

/**
 * "Invite as contact": the sender of a waiting message becomes a new contact of a company of the portal
 * (their address, this name, the ticket right), is sent the portal's invitation, and the message becomes
 * their new ticket as `attach` makes it, in one transaction. `userName` (default: the address) is the
 * sign-in name the invitation gives them.
 */
export const inboundInviteBodySchema = z.strictObject({
  companyId: extIdSchema,
  referentName: z.string().trim().min(1).max(200),
  userName: userInviteSchema.shape.userName.optional(),
});
export type InboundInviteBody = z.infer<typeof inboundInviteBodySchema>;
export const inboundInviteAnswerSchema = z.object({
  entry: inboundEmailSchema,
  /** The new contact's back-office id. */
  contactId: z.number().int(),
  /** The user the invitation went to. */
  userName: z.string(),
});
export type InboundInviteAnswer = z.infer<typeof inboundInviteAnswerSchema>;

/** An address a delivery status notification said fails (docs/email.md "Loops"). */
export const emailBounceSchema = z.object({
  address: z.string(),
  /** The report's status (`5.1.1 …`), as the notification said it. */
  reason: z.string(),
  bouncedAt: isoDateTime,
});
export type EmailBounce = z.infer<typeof emailBounceSchema>;
export const bounceListSchema = z.object({ items: z.array(emailBounceSchema) });
export const bounceQuerySchema = z.object({
  /** One address (a contact's): its bounce, if any. Absent: the portal's, newest first. */
  address: z.email().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
export const bounceParamsSchema = staffPortalParamsSchema.extend({
  address: z.email().max(320),
});

function mailboxRoutesUnder<const Root extends string, const A extends Access, P extends z.ZodObject>(
  root: Root,
  access: A,
  params: P,
  tag: string,
) {
  const tags = [tag] as const;
  return {
    get: defineRoute({
      method: 'GET',
      path: `${root}/email/mailbox`,
      params,
      responses: { 200: mailboxAnswerSchema, 404: errorSchema },
      access,
      tags,
      summary: "The portal's support mailbox (null: none set)",
    }),
    put: defineRoute({
      method: 'PUT',
      path: `${root}/email/mailbox`,
      params,
      body: mailboxSettingsSchema,
      responses: { 200: mailboxAnswerSchema, 404: errorSchema, 409: errorSchema },
      access,
      tags,
      summary: 'Set the support mailbox; the password is sealed at rest and never answered',
    }),
    remove: defineRoute({
      method: 'DELETE',
      path: `${root}/email/mailbox`,
      params,
      responses: { 204: null, 404: errorSchema },
      access,
      tags,
      summary: 'Forget the support mailbox (the messages already read stay)',
    }),
    test: defineRoute({
      method: 'POST',
      path: `${root}/email/mailbox/test`,
      params,
      body: mailboxTestBodySchema.optional(),
      responses: { 200: mailboxTestSchema, 404: errorSchema },
      access,
      tags,
      summary:
        'Connect, sign in and open the folder with the stored settings, or with those sent (not saved)',
    }),
  };
}

export const mailboxStaffRoutes = mailboxRoutesUnder(
  '/api/staff/portals/:company/admin',
  { guard: 'staff', role: 'admin' } as const,
  staffPortalParamsSchema,
  'staff: admin',
);
export const mailboxAdminRoutes = mailboxRoutesUnder(
  '/api/admin/portals/:portal',
  { guard: 'adminKey' } as const,
  portalParamSchema,
  'e-mail (admin)',
);

const staff = { guard: 'staff' } as const;
/** What waits for an agent: unknown senders, mails a contact may not act on, unreadable ones. */
export const inboundRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/email/inbound',
    params: staffPortalParamsSchema,
    query: inboundQuerySchema,
    responses: { 200: inboundListSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: 'Messages read from the support mailbox, by status, newest first',
  }),
  discard: defineRoute({
    method: 'POST',
    path: '/api/staff/portals/:company/email/inbound/:inboundId/discard',
    params: inboundParamsSchema,
    responses: { 204: null, 404: errorSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: 'Discard a message that waits (unknown sender, waiting, unprocessed)',
  }),
  attach: defineRoute({
    method: 'POST',
    path: '/api/staff/portals/:company/email/inbound/:inboundId/attach',
    params: inboundParamsSchema,
    body: inboundAttachBodySchema,
    responses: { 200: inboundEmailSchema, 404: errorSchema, 409: errorSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: "Make a waiting message a contact's new ticket, or their comment on one of their tickets",
  }),
  invite: defineRoute({
    method: 'POST',
    path: '/api/staff/portals/:company/email/inbound/:inboundId/invite',
    params: inboundParamsSchema,
    body: inboundInviteBodySchema,
    responses: { 200: inboundInviteAnswerSchema, 404: errorSchema, 409: errorSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: "Make a waiting message's sender a contact of a company, invite them, and open their ticket",
    description:
      '404 `company_not_found`, `inbound_not_found`; 409 `contact_exists` when the address is a contact of ' +
      'that company already (attach the message to it instead), `entity_exists` when the user name is ' +
      'taken, `inbound_refused` when the message cannot become a ticket. Emits `contact.created`, ' +
      '`user.invited` and `ticket.created`.',
  }),
  raw: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/email/inbound/:inboundId/raw',
    params: inboundParamsSchema,
    responses: { 200: binaryAnswer('The message as received', 'message/rfc822'), 404: errorSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: 'The whole message as received (message/rfc822)',
  }),
  bounces: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/email/bounces',
    params: staffPortalParamsSchema,
    query: bounceQuerySchema,
    responses: { 200: bounceListSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: 'Addresses whose mail bounced (one address, or the newest of the portal)',
  }),
  clearBounce: defineRoute({
    method: 'DELETE',
    path: '/api/staff/portals/:company/email/bounces/:address',
    params: bounceParamsSchema,
    responses: { 204: null, 404: errorSchema },
    access: staff,
    tags: ['staff: e-mail'],
    summary: 'Forget that an address bounced (it was corrected, or the mailbox works again)',
  }),
};
