// Schemas of the desk's access administration (issue 14 item 5): the portal's staff users and their
// roles, and the portal's API keys and webhook endpoints, for a staff admin of the portal.
import { z } from 'zod';
import { errorSchema, extIdSchema, isoDateTime, rowIdParam } from './common';
import {
  portalParamSchema,
  apiKeyCreateSchema,
  apiKeyListSchema,
  apiKeyRotateSchema,
  apiKeySchema,
  apiKeyWithSecretSchema,
  webhookEndpointSchema,
  webhookRoutesUnder,
} from './integration';
import { defineRoute } from './route';
import {
  staffDisplayNameSchema,
  staffMemberParamsSchema,
  staffPortalParamsSchema,
  staffRoleSchema,
} from './staff';

const staffAdmin = { guard: 'staff', role: 'admin' } as const;
const root = '/api/staff/portals/:company/admin';

/** Codes of this area. */
export const accessErrorCodes = {
  /** 409: the change would leave the portal without an admin (demote or remove its last one). */
  lastAdmin: 'last_admin',
  /** 409, resend: the member already signs in (nothing to accept). */
  alreadyActive: 'staff_already_active',
} as const;

/** A member of the portal's staff as the administration lists it. */
export const accessMemberSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  role: staffRoleSchema,
  /**
   * invited: has not used this portal's desk yet (whether the address signs in elsewhere is not told);
   * active: has.
   */
  status: z.enum(['invited', 'active']),
  /** The assignee groups (back-office ids) the member works in. */
  groupIds: z.array(z.number().int()),
  memberSince: isoDateTime,
  /** The member's last use of this portal's desk (within 5 minutes), never a sign-in elsewhere. */
  lastSignInAt: isoDateTime.nullable(),
});
export type AccessMember = z.infer<typeof accessMemberSchema>;
export const accessMemberListSchema = z.array(accessMemberSchema);

export const accessInviteSchema = z
  .object({
    email: z.string().trim().min(3).max(320),
    /**
     * The name customers see on the member's replies (the member changes it on their desk profile).
     * A person already on another portal's staff keeps the name they set.
     */
    displayName: staffDisplayNameSchema,
    role: staffRoleSchema,
    groupIds: z.array(extIdSchema).max(200).default([]),
  })
  .strict();
export type AccessInvite = z.input<typeof accessInviteSchema>;

/**
 * The same whether or not the address already signs in elsewhere (the person is then added and told so
 * by e-mail, with no password link): another portal's staff is not this portal's to learn of.
 */
export const accessInviteAnswerSchema = z.object({ member: accessMemberSchema });
export type AccessInviteAnswer = z.infer<typeof accessInviteAnswerSchema>;

/** `POST /api/admin/portals/:portal/staff`: the installation's operator invites a person (the first admin). */
export const installationInviteSchema = z
  .object({
    email: z.string().trim().min(3).max(320),
    /** The name customers see on the member's replies; without it, the import's agent's or the e-mail's. */
    displayName: staffDisplayNameSchema.optional(),
    role: staffRoleSchema.default('agent'),
  })
  .strict();
export type InstallationInvite = z.input<typeof installationInviteSchema>;

/**
 * What `npm run staff -- invite` prints: the single-use password link (valid 7 days), in this answer
 * only (the same link is e-mailed); for a person who already signs in elsewhere, the portal's desk page.
 */
export const installationInviteAnswerSchema = z.object({
  link: z.string().max(2000),
  /** The person already had a password (another portal's staff): added, password untouched. */
  alreadyActive: z.boolean(),
  email: z.string().max(320),
  displayName: z.string().max(200),
  role: staffRoleSchema,
  /** The portal's agent of the import with this e-mail became this staff user. */
  matchedAgent: z.boolean(),
});
export type InstallationInviteAnswer = z.infer<typeof installationInviteAnswerSchema>;

/**
 * On removing a member or taking their admin role: `revokeMade` also revokes the API keys they made and
 * disables the webhook endpoints they made, in the same transaction (see accessMadeSchema). Without it
 * those keep working, listed to the portal's other admins in the e-mail the change sends them.
 */
const revokeMade = z.boolean().default(false);

export const accessRoleSchema = z
  .object({ role: staffRoleSchema, revokeMade: revokeMade.optional() })
  .strict();

export const accessRemoveSchema = z.object({ revokeMade }).strict();
export type AccessRemove = z.input<typeof accessRemoveSchema>;

/**
 * What a member made that still works: the portal's live API keys and enabled webhook endpoints they
 * created in the desk, and the enabled endpoints created through one of their keys. They outlive the
 * member unless revoked; the desk offers it when removing them.
 */
export const accessMadeSchema = z.object({
  apiKeys: z.array(apiKeySchema),
  webhookEndpoints: z.array(webhookEndpointSchema),
});
export type AccessMade = z.infer<typeof accessMadeSchema>;

export const accessKeyParamsSchema = staffPortalParamsSchema.extend({
  keyId: rowIdParam,
});

export const accessRoutes = {
  members: defineRoute({
    method: 'GET',
    path: `${root}/staff`,
    params: staffPortalParamsSchema,
    responses: { 200: accessMemberListSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: "The portal's staff with role, status, groups and last sign-in",
  }),
  invite: defineRoute({
    method: 'POST',
    path: `${root}/staff`,
    params: staffPortalParamsSchema,
    body: accessInviteSchema,
    responses: { 201: accessInviteAnswerSchema, 400: errorSchema, 409: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'Invite a person to the staff by e-mail with a role and groups (the invitation is e-mailed)',
    description: '400 invalid_email, unknown_reference (a group). An existing member keeps an admin role.',
  }),
  resend: defineRoute({
    method: 'POST',
    path: `${root}/staff/:staffid/resend`,
    params: staffMemberParamsSchema,
    responses: { 200: accessInviteAnswerSchema, 404: errorSchema, 409: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'Send the invitation again (a new link; the earlier one stops working)',
    description: '404 staff_not_found; 409 staff_already_active (the member has used this portal already).',
  }),
  setRole: defineRoute({
    method: 'PUT',
    path: `${root}/staff/:staffid/role`,
    params: staffMemberParamsSchema,
    body: accessRoleSchema,
    responses: { 200: accessMemberSchema, 404: errorSchema, 409: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: "Change a member's role",
    description:
      '409 last_admin when it would leave the portal without an admin. Taking the admin role: ' +
      '`revokeMade` as on removal, and the other admins are e-mailed.',
  }),
  made: defineRoute({
    method: 'GET',
    path: `${root}/staff/:staffid/made`,
    params: staffMemberParamsSchema,
    responses: { 200: accessMadeSchema, 404: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'The live API keys and enabled webhook endpoints a member made (outlive them unless revoked)',
    description: '404 staff_not_found.',
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: `${root}/staff/:staffid`,
    params: staffMemberParamsSchema,
    body: accessRemoveSchema.nullish(),
    responses: { 204: null, 404: errorSchema, 409: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'Remove a member from the portal; they lose it at once',
    description:
      'A person left without any portal has no account any more (no password: any portal may invite ' +
      'them again) and every session of theirs ends. `revokeMade: true` also revokes the API keys and ' +
      'disables the webhook endpoints they made, in the same transaction (each audited). The other ' +
      'admins are e-mailed what the member made and whether it still works. 409 last_admin.',
  }),
  keys: defineRoute({
    method: 'GET',
    path: `${root}/keys`,
    params: staffPortalParamsSchema,
    responses: { 200: apiKeyListSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: "The portal's API keys (prefixes, scopes, last use; never secrets)",
  }),
  createKey: defineRoute({
    method: 'POST',
    path: `${root}/keys`,
    params: staffPortalParamsSchema,
    body: apiKeyCreateSchema,
    responses: { 201: apiKeyWithSecretSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'Create an API key; its secret is in this answer only',
  }),
  rotateKey: defineRoute({
    method: 'POST',
    path: `${root}/keys/:keyId/rotate`,
    params: accessKeyParamsSchema,
    body: apiKeyRotateSchema.nullish(),
    responses: { 200: apiKeyWithSecretSchema, 404: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'A new secret for the key; the old one works `graceHours` more (default 24, 0: none)',
  }),
  revokeKey: defineRoute({
    method: 'POST',
    path: `${root}/keys/:keyId/revoke`,
    params: accessKeyParamsSchema,
    responses: { 200: apiKeySchema, 404: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'Revoke the key (both secrets) at once',
  }),
};

/** The webhook endpoints and their delivery log, for a staff admin of the `:company` portal. */
export const webhookStaffRoutes = webhookRoutesUnder(
  root,
  staffAdmin,
  staffPortalParamsSchema,
  'staff: admin',
);

/** The installation key's way to a portal's staff: the first admin of a portal, while the server runs. */
export const staffInstallationRoutes = {
  invite: defineRoute({
    method: 'POST',
    path: '/api/admin/portals/:portal/staff',
    params: portalParamSchema,
    body: installationInviteSchema,
    responses: { 201: installationInviteAnswerSchema, 404: errorSchema, 409: errorSchema },
    access: { guard: 'adminKey' },
    tags: ['staff (admin)'],
    summary: "Invite a person to a portal's staff desk as agent or admin; the link is in this answer only",
    description:
      'Bearer PORTAL_ADMIN_KEY. What `npm run staff -- invite` does, on the running server: the person, the ' +
      'membership and the invitation e-mail in one transaction, and the single-use link (valid 7 days) ' +
      'answered once. 404 portal_not_found; 400 invalid_email; 409 staff_disabled.',
  }),
};
