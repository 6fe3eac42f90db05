// Schemas of the auth area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { permissionShape } from './permissions';
import { isoDateTime } from './common';
import { portalLanguageSchema, portalSettingsSchema } from './portals';
import { errorSchema } from './common';
import { defineRoute } from './route';

/** Passwords shorter than this are refused (`400 password_too_short`). */
export const PASSWORD_MIN_LENGTH = 10;
/** Upper bound so a huge body cannot make argon2 hash megabytes. */
export const PASSWORD_MAX_LENGTH = 256;

/** A password's length as people count characters: code points (an emoji is one), on both sides. */
export const passwordLength = (password: string) => [...password].length;

// The codes and the answer check live apart, free of zod: the web's sign-in loads them without schemas.
export { authErrorCodes, isSecondFactor } from './auth-codes';

/** "Remember me": a session of this many days instead of TOKEN_TTL_HOURS (which also ends with the browser). */
export const REMEMBER_DAYS = 30;

export const loginRequestSchema = z.object({
  /** User name or e-mail, matched case-insensitively. */
  userName: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  /** Keep the session REMEMBER_DAYS days (the browser keeps it too); otherwise TOKEN_TTL_HOURS. */
  remember: z.boolean().optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Answer of login, invitation/recovery confirm and password change. */
export const sessionAnswerSchema = z.object({
  /** Opaque bearer token: send as `Authorization: Bearer <token>`; keep in localStorage.token. */
  token: z.string(),
  expiresAt: isoDateTime,
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

/** The second factors a user may answer a sign-in with. */
export const secondFactorMethodSchema = z.enum(['totp', 'passkey', 'recovery']);
export type SecondFactorMethod = z.infer<typeof secondFactorMethodSchema>;

/**
 * The password was right but the account has two-factor sign-in: no session yet. Send the ticket with a
 * code (or a passkey's answer) to `POST /api/auth/login/second-factor` within 5 minutes.
 */
export const secondFactorAnswerSchema = z.object({
  secondFactor: z.object({
    ticket: z.string(),
    methods: z.array(secondFactorMethodSchema),
    expiresAt: isoDateTime,
  }),
});
export type SecondFactorAnswer = z.infer<typeof secondFactorAnswerSchema>;

/** A session, or (two-factor accounts) the ticket of a sign-in waiting for its second factor. */
export const loginAnswerSchema = z.union([sessionAnswerSchema, secondFactorAnswerSchema]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

/** A ticket of a sign-in waiting for its second factor. */
const ticketSchema = z.string().min(1).max(200);

/**
 * `POST /api/auth/login/second-factor`: one of `code` (6 digits of the authenticator app, or a recovery
 * code) or `passkey` (the browser's answer to the options of `login/passkey-options`).
 */
export const secondFactorRequestSchema = z
  .object({
    ticket: ticketSchema,
    code: z.string().trim().min(1).max(40).optional(),
    passkey: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((r) => (r.code === undefined) !== (r.passkey === undefined), {
    message: 'send either a code or a passkey answer',
  });
export type SecondFactorRequest = z.infer<typeof secondFactorRequestSchema>;

export const passkeyLoginOptionsRequestSchema = z.object({ ticket: ticketSchema });
/** WebAuthn options as JSON (`PublicKeyCredentialRequestOptionsJSON` / `…CreationOptionsJSON`). */
export const webAuthnOptionsSchema = z.record(z.string(), z.unknown());

/** One contact the user holds: a company in a portal, with its permissions and the portal's settings. */
export const meContactSchema = z.object({
  /** The back office's contact id (route value `{contactid}`). */
  contactId: z.number().int(),
  companyName: z.string(),
  ...permissionShape(() => z.boolean()),
  portalSettings: portalSettingsSchema,
});
export type MeContact = z.infer<typeof meContactSchema>;

/** `GET /api/Users/me`. */
export const meAnswerSchema = z.object({
  id: z.number().int(),
  userName: z.string(),
  /** The name the user chose in the profile; null: show the user name. */
  displayName: z.string().nullable(),
  /** The language the user chose in the profile (it overrides the portal's and the browser's). */
  language: portalLanguageSchema.nullable(),
  contacts: z.array(meContactSchema),
  /** The largest file the server takes in one upload (its MAX_UPLOAD_MB): the forms state it. */
  maxUploadBytes: z.number().int().positive(),
});
export type MeAnswer = z.infer<typeof meAnswerSchema>;

/** `POST /api/auth/recovery`: always answers `202 {status:'sent'}`, whether the user exists or not. */
export const recoveryRequestSchema = z.object({
  /** User name or e-mail. */
  userName: z.string().trim().min(1).max(320),
  /**
   * Portal key, carried into the mailed link as `&company=` so the client can brand the page; the
   * e-mail wears its branding only if the user belongs to it.
   */
  company: z.string().trim().min(1).max(40).optional(),
  /** The language of the screen the request comes from: the e-mail is written in it. */
  language: portalLanguageSchema.optional(),
});
export type RecoveryRequest = z.infer<typeof recoveryRequestSchema>;
export const recoveryAnswerSchema = z.object({ status: z.literal('sent') });
export type RecoveryAnswer = z.infer<typeof recoveryAnswerSchema>;

/** `GET /api/auth/links/{token}` params. */
export const linkParamsSchema = z.object({ token: z.string().min(1).max(200) });
/** What a single-use link is for, so /confirm can title itself; 410 link_expired / 404 link_invalid. */
export const linkCheckAnswerSchema = z.object({
  purpose: z.enum(['invite', 'recovery']),
  userName: z.string(),
});
export type LinkCheckAnswer = z.infer<typeof linkCheckAnswerSchema>;

/**
 * A new password: at least PASSWORD_MIN_LENGTH characters (`passwordLength`). The refinement names the
 * code the API answers (`password_too_short`, see `issueCode`); `minLength` states it in the OpenAPI
 * document (JSON Schema counts code points too).
 */
export const newPasswordSchema = z
  .string()
  .max(PASSWORD_MAX_LENGTH)
  .refine((p) => passwordLength(p) >= PASSWORD_MIN_LENGTH, {
    message: `must be at least ${PASSWORD_MIN_LENGTH} characters long`,
    params: { code: 'password_too_short' },
  })
  .meta({ minLength: PASSWORD_MIN_LENGTH });

/**
 * `POST /api/auth/confirm`: sets the password from an invitation or recovery link and signs the user in.
 * The password's length and the repeat's equality are rules of this schema (codes password_too_short,
 * passwords_differ), so the web form checks with it and the API answers the same codes.
 */
export const confirmRequestSchema = z
  .object({
    token: z.string().min(1).max(200),
    password: newPasswordSchema,
    passwordRepeat: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .refine((r) => r.password === r.passwordRepeat, {
    path: ['passwordRepeat'],
    message: 'Please check the entered passwords',
    params: { code: 'passwords_differ' },
  });
export type ConfirmRequest = z.infer<typeof confirmRequestSchema>;
/** A session, or the second-factor ticket: a recovery link does not get past two-factor sign-in. */
export const confirmAnswerSchema = loginAnswerSchema;

/**
 * `POST /api/auth/password` (signed in): answers a NEW session token; the old token and every other
 * session of the user are revoked, so the client must store the returned token.
 */
export const passwordChangeRequestSchema = z.object({
  currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  newPassword: newPasswordSchema,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;
export const passwordChangeAnswerSchema = sessionAnswerSchema;

// --- Routes (see route.ts) ---

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    body: loginRequestSchema,
    responses: { 200: loginAnswerSchema, 401: errorSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['auth'],
    summary: 'Sign in with user name or e-mail and password',
    description:
      '401 wrong_credentials for a wrong password and for an unknown user alike. 429 too_many_attempts ' +
      '(with Retry-After) after 5 failures for one account or 30 attempts from one address in 15 minutes. ' +
      'An account with two-factor sign-in answers {secondFactor} instead of a session.',
  }),
  secondFactor: defineRoute({
    method: 'POST',
    path: '/api/auth/login/second-factor',
    body: secondFactorRequestSchema,
    responses: { 200: sessionAnswerSchema, 401: errorSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['auth'],
    summary: 'Finish a two-factor sign-in with a code or a passkey',
    description:
      '401 wrong_code; 401 challenge_expired (unknown, used or older than 5 minutes: sign in again); ' +
      '429 too_many_attempts, counted like the password per account and address.',
  }),
  passkeyLoginOptions: defineRoute({
    method: 'POST',
    path: '/api/auth/login/passkey-options',
    body: passkeyLoginOptionsRequestSchema,
    responses: { 200: webAuthnOptionsSchema, 401: errorSchema },
    access: { guard: 'public' },
    tags: ['auth'],
    summary: "The WebAuthn options to sign a two-factor sign-in's ticket with a passkey",
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    responses: { 204: null },
    access: { guard: 'user' },
    tags: ['auth'],
    summary: 'Revoke the bearer token of this request',
  }),
  me: defineRoute({
    method: 'GET',
    path: '/api/Users/me',
    responses: { 200: meAnswerSchema },
    access: { guard: 'user' },
    tags: ['auth'],
    summary: 'The signed-in user with every contact they hold, its permissions and its portal settings',
  }),
  recovery: defineRoute({
    method: 'POST',
    path: '/api/auth/recovery',
    body: recoveryRequestSchema,
    responses: { 202: recoveryAnswerSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['auth'],
    summary: 'Mail a single-use password link (valid 1 hour) to the user, if there is one',
    description:
      'Always 202 {status:"sent"}, whether the user exists or not. 429 too_many_attempts when one ' +
      'address or one name asks too often.',
  }),
  link: defineRoute({
    method: 'GET',
    path: '/api/auth/links/:token',
    params: linkParamsSchema,
    responses: { 200: linkCheckAnswerSchema, 404: errorSchema, 410: errorSchema },
    // The single-use link token is the capability.
    access: { guard: 'public' },
    tags: ['auth'],
    summary: 'What an invitation or recovery link is for (it is not consumed)',
  }),
  confirm: defineRoute({
    method: 'POST',
    path: '/api/auth/confirm',
    body: confirmRequestSchema,
    responses: { 200: confirmAnswerSchema, 404: errorSchema, 410: errorSchema, 429: errorSchema },
    access: { guard: 'public' },
    tags: ['auth'],
    summary: 'Set the password from an invitation (7 days) or recovery (1 hour) link and sign in',
    description:
      '400 passwords_differ / password_too_short; 404 link_invalid (unknown or used); 410 link_expired. ' +
      'Every earlier session of the user is revoked.',
  }),
  password: defineRoute({
    method: 'POST',
    path: '/api/auth/password',
    body: passwordChangeRequestSchema,
    responses: { 200: passwordChangeAnswerSchema, 429: errorSchema },
    access: { guard: 'user' },
    tags: ['auth'],
    summary: 'Change the password; answers a new token and revokes every other token of the user',
    description:
      '400 wrong_password / password_too_short; 429 too_many_attempts. The token of this request is ' +
      'revoked too: store the returned one.',
  }),
};
