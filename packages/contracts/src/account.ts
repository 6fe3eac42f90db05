// Schemas and routes of the account area: the signed-in user's profile, sessions and two-factor sign-in.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, webAuthnOptionsSchema } from './auth';
import { errorSchema, isoDateTime } from './common';
import { portalLanguageSchema } from './portals';
import { defineRoute } from './route';

/** How many recovery codes a set holds (shown once; each works once). */
export const RECOVERY_CODE_COUNT = 10;

export const accountErrorCodes = {
  /** 400, e-mail change: the address is the one the account already has. */
  emailUnchanged: 'email_unchanged',
  /** 409, TOTP confirmation: no enrolment was started (or it was replaced). */
  noPendingEnrolment: 'no_pending_enrolment',
  /** 409, recovery codes: two-factor sign-in is off, there is nothing to recover. */
  twoFactorOff: 'two_factor_off',
  /** 409, passkey registration: the passkey is already registered. */
  passkeyExists: 'passkey_exists',
} as const;

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoDateTime,
  lastUsedAt: isoDateTime.nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** `GET /api/account`. */
export const profileSchema = z.object({
  userName: z.string(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  /** The address a change waits to be confirmed for (the link went there). */
  pendingEmail: z.string().nullable(),
  /** null: the portal's language. */
  language: portalLanguageSchema.nullable(),
  twoFactor: z.object({
    totp: z.boolean(),
    passkeys: z.array(passkeySchema),
    /** Unused recovery codes left. */
    recoveryCodesLeft: z.number().int(),
  }),
});
export type Profile = z.infer<typeof profileSchema>;

/** A display name: printable text, no markup, 1–80 characters; null or '' clears it. */
const displayNameSchema = z
  .string()
  .trim()
  .max(80)
  .refine((s) => !/[<>]/.test(s), { message: 'must not contain < or >' })
  .nullable();

/** `PATCH /api/account`: what is sent changes, what is left out stays. */
export const profileUpdateSchema = z.object({
  displayName: displayNameSchema.optional(),
  language: portalLanguageSchema.nullable().optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

const currentPasswordSchema = z.string().min(1).max(PASSWORD_MAX_LENGTH);

/** `POST /api/account/email`: a link goes to the new address; the old one is told. */
export const emailChangeSchema = z.object({
  email: z.email().max(320),
  password: currentPasswordSchema,
});
export type EmailChange = z.infer<typeof emailChangeSchema>;
export const sentSchema = z.object({ status: z.literal('sent') });

export const emailConfirmSchema = z.object({ token: z.string().min(1).max(200) });
export const emailConfirmAnswerSchema = z.object({ email: z.string() });

/** One session of the user (`GET /api/account/sessions`), newest activity first. */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** The session of this request. */
  current: z.boolean(),
  /** Browser and system read from its user agent ("Chrome on Windows"); null when unknown. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.enum(['desktop', 'mobile', 'tablet']).nullable(),
  /** Client address at sign-in. */
  address: z.string().nullable(),
  createdAt: isoDateTime,
  lastSeenAt: isoDateTime,
  expiresAt: isoDateTime,
  remember: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsSchema = z.array(accountSessionSchema);

export const sessionParamsSchema = z.object({ sessionid: z.uuid() });
export const passkeyParamsSchema = z.object({ passkeyid: z.uuid() });

/**
 * Proof for adding or removing a factor or renewing codes: the password, or a code (authenticator or
 * recovery). Asked again at each such change: a session alone (a borrowed browser) changes no factor.
 */
export const reauthSchema = z
  .object({
    password: currentPasswordSchema.optional(),
    code: z.string().trim().min(1).max(40).optional(),
  })
  .refine((r) => r.password !== undefined || r.code !== undefined, {
    message: 'send the password or a code',
  });
export type Reauth = z.infer<typeof reauthSchema>;

/** `POST /api/account/totp/setup`: a new secret to scan; nothing changes until a code confirms it. */
export const totpSetupSchema = z.object({
  /** Base32, for typing into the app by hand. */
  secret: z.string(),
  /** `otpauth://totp/…`, the QR code's content. */
  uri: z.string(),
});
export const totpConfirmSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'six digits'),
});

/** Recovery codes, shown once: present when this change turned two-factor sign-in on, or renewed them. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export const factorAddedSchema = z.object({ recoveryCodes: z.array(z.string()).optional() });

export const passkeyAddSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .refine((s) => !/[<>]/.test(s), { message: 'must not contain < or >' }),
  /** The browser's answer (`RegistrationResponseJSON`) to the options of `passkeys/options`. */
  response: z.record(z.string(), z.unknown()),
});

// --- Routes (see route.ts) ---

const user = { guard: 'user' } as const;
const tags = ['account'];

export const accountRoutes = {
  profile: defineRoute({
    method: 'GET',
    path: '/api/account',
    responses: { 200: profileSchema },
    access: user,
    tags,
    summary: 'The signed-in user: name, e-mail, language and two-factor sign-in',
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/api/account',
    body: profileUpdateSchema,
    responses: { 200: profileSchema },
    access: user,
    tags,
    summary: 'Change the display name or the language (e-mails are written in it)',
  }),
  email: defineRoute({
    method: 'POST',
    path: '/api/account/email',
    body: emailChangeSchema,
    responses: { 202: sentSchema, 429: errorSchema },
    access: user,
    tags,
    summary: 'Ask to change the e-mail: a link (valid 24 hours) goes to the new address, the old one is told',
    description: '400 wrong_password / email_unchanged; 429 too_many_attempts.',
  }),
  emailConfirm: defineRoute({
    method: 'POST',
    path: '/api/account/email/confirm',
    body: emailConfirmSchema,
    responses: { 200: emailConfirmAnswerSchema, 404: errorSchema, 410: errorSchema },
    // The single-use link token is the capability.
    access: { guard: 'public' },
    tags,
    summary: 'Confirm a new e-mail address with the link mailed to it',
    description: '404 link_invalid (unknown or used); 410 link_expired.',
  }),
  sessions: defineRoute({
    method: 'GET',
    path: '/api/account/sessions',
    responses: { 200: accountSessionsSchema },
    access: user,
    tags,
    summary: "The user's live sessions: browser, system, address, last seen",
  }),
  endSession: defineRoute({
    method: 'DELETE',
    path: '/api/account/sessions/:sessionid',
    params: sessionParamsSchema,
    responses: { 204: null, 404: errorSchema },
    access: user,
    tags,
    summary: 'Sign out one session of the user (this one included)',
  }),
  endAllSessions: defineRoute({
    method: 'POST',
    path: '/api/account/sessions/end-all',
    responses: { 204: null },
    access: user,
    tags,
    summary: 'Sign out everywhere: every session of the user ends, this one too',
  }),
  totpSetup: defineRoute({
    method: 'POST',
    path: '/api/account/totp/setup',
    body: reauthSchema,
    responses: { 200: totpSetupSchema, 409: errorSchema, 429: errorSchema },
    access: user,
    tags,
    summary:
      'Start adding an authenticator app (the password or a code is needed): a new secret, pending 5 minutes ' +
      'until a code confirms it',
    description:
      '400 wrong_password / wrong_code; 409 conflict when an app is already on (turn it off first); 429 ' +
      'too_many_attempts. The owner is e-mailed when the app is turned on.',
  }),
  totpConfirm: defineRoute({
    method: 'POST',
    path: '/api/account/totp',
    body: totpConfirmSchema,
    responses: { 200: factorAddedSchema, 409: errorSchema, 429: errorSchema },
    access: user,
    tags,
    summary: 'Turn the authenticator app on with its first code',
    description:
      '400 wrong_code; 409 no_pending_enrolment (none, replaced, or older than 5 minutes). Answers the ' +
      'recovery codes when this turns two-factor sign-in on.',
  }),
  totpDisable: defineRoute({
    method: 'POST',
    path: '/api/account/totp/disable',
    body: reauthSchema,
    responses: { 204: null, 429: errorSchema },
    access: user,
    tags,
    summary: 'Turn the authenticator app off (the password or a code is needed); the owner is e-mailed',
    description: '400 wrong_password / wrong_code; 429 too_many_attempts.',
  }),
  passkeyOptions: defineRoute({
    method: 'POST',
    path: '/api/account/passkeys/options',
    body: reauthSchema,
    responses: { 200: webAuthnOptionsSchema, 429: errorSchema },
    access: user,
    tags,
    summary: 'WebAuthn options to register a passkey (the password or a code is needed; valid 5 minutes)',
    description: '400 wrong_password / wrong_code; 429 too_many_attempts.',
  }),
  passkeyAdd: defineRoute({
    method: 'POST',
    path: '/api/account/passkeys',
    body: passkeyAddSchema,
    responses: { 201: factorAddedSchema, 409: errorSchema },
    access: user,
    tags,
    summary: "Register a passkey with the browser's answer to the options; the owner is e-mailed",
    description:
      '400 wrong_code (the answer does not verify); 409 no_pending_enrolment / passkey_exists. Answers ' +
      'the recovery codes when this turns two-factor sign-in on.',
  }),
  passkeyRemove: defineRoute({
    method: 'POST',
    path: '/api/account/passkeys/:passkeyid/remove',
    params: passkeyParamsSchema,
    body: reauthSchema,
    responses: { 204: null, 404: errorSchema, 429: errorSchema },
    access: user,
    tags,
    summary: 'Remove a passkey (the password or a code is needed); the owner is e-mailed',
    description: '400 wrong_password / wrong_code; 404 not_found; 429 too_many_attempts.',
  }),
  recoveryCodes: defineRoute({
    method: 'POST',
    path: '/api/account/recovery-codes',
    body: reauthSchema,
    responses: { 200: recoveryCodesSchema, 409: errorSchema, 429: errorSchema },
    access: user,
    tags,
    summary: 'A new set of recovery codes; the old ones stop working',
    description: '400 wrong_password / wrong_code; 409 two_factor_off; 429 too_many_attempts.',
  }),
};
