// Every error code the API answers, in one typed list: the server's AppError takes only these, and
// the web app maps them to translated texts. Area codes live beside their area's schemas; the codes
// any route may answer are here.
import { accountErrorCodes } from './account';
import { peopleErrorCodes } from './admin-people';
import { appointmentErrorCodes } from './appointments';
import { authErrorCodes } from './auth';
import { emailErrorCodes } from './email';
import { entityErrorCodes } from './entities';
import { contentErrorCodes } from './admin-content';
import { accessErrorCodes } from './admin-access';
import { settingsErrorCodes } from './admin-settings';
import { ticketSetupErrorCodes } from './admin-ticket-setup';
import { integrationErrorCodes } from './integration';
import { uploadErrorCodes } from './documents';
import { portalErrorCodes } from './portals';
import { signingErrorCodes } from './signing';
import { macroErrorCodes, staffErrorCodes } from './staff-errors';
import { staffMergeErrorCodes } from './staff-merge';
import { slaCompanyErrorCodes } from './staff-sla-companies';
import { taskPageErrorCodes } from './tasks';
import { ticketErrorCodes } from './tickets';

/** Codes not owned by one area. */
export const commonErrorCodes = {
  /** 400: a malformed request the server's own checks caught (bad JSON, a NUL byte, …). */
  badRequest: 'bad_request',
  /** 400: a body that is not JSON, empty where JSON is announced, or a Content-Length that lies. */
  invalidBody: 'invalid_body',
  /** 415: a body type the route does not read (JSON and, for uploads, multipart). */
  unsupportedMediaType: 'unsupported_media_type',
  /** 400: the request does not match the route's schema; `errors` lists each problem with its path. */
  validationError: 'validation_error',
  /** 414: a path segment longer than any id or key of ours (200 characters). */
  uriTooLong: 'uri_too_long',
  /** 400: an address that is not valid percent-encoding. */
  badUrl: 'bad_url',
  /** 400: a date that is not a real one (`2026-02-30`) or out of range. */
  invalidDate: 'invalid_date',
  /** 403: generic refusal. */
  forbidden: 'forbidden',
  /** 403: the user does not hold the contact of the path. */
  notYourContact: 'not_your_contact',
  /** 403: the user holds no contact of the portal of the path. */
  notYourPortal: 'not_your_portal',
  /** 403: the contact lacks the permission flag of the route. */
  missingPermission: 'missing_permission',
  /** 403: an /api route registered without a contract (a programming error, refused rather than run). */
  noAccessRule: 'no_access_rule',
  /** 403: a signed file URL whose signature does not match. */
  badSignature: 'bad_signature',
  /** 404: generic (an unknown /api path). */
  notFound: 'not_found',
  /** 409: generic conflict. */
  conflict: 'conflict',
  /** 409, new ticket: the portal has no status step for new tickets. */
  noDefaultStep: 'no_default_step',
  /** 413: the body or the uploaded file is larger than the route accepts. */
  payloadTooLarge: 'payload_too_large',
  /** 416, file downloads: a `Range` past the end of the file (`Content-Range` then gives its size). */
  rangeNotSatisfiable: 'range_not_satisfiable',
  /** 429: generic rate limit (with Retry-After). */
  tooManyRequests: 'too_many_requests',
  /** 500: a fault of the server; details are in its log only. */
  internalError: 'internal_error',
  /** 503: the server or the database cannot answer now (with Retry-After when known). */
  unavailable: 'unavailable',
  /** 503, health: the database does not answer. */
  databaseUnavailable: 'database_unavailable',
  /** 503 with Retry-After: the process is starting (migrations run, here or in another process). */
  starting: 'starting',
  /** 503 with Retry-After: the server is saturated (the embedded database's queue); come back in a moment. */
  serverBusy: 'server_busy',
  /** 507: the disk is full (an upload could not be stored). */
  insufficientStorage: 'insufficient_storage',
  /** 400: a NUL or another control character where text may not hold one. */
  controlCharacter: 'control_character',
  /** 400: a multipart body without boundary or closing boundary. */
  invalidMultipart: 'invalid_multipart',
  /** 400: a JSON body nested deeper than the server reads. */
  jsonTooDeep: 'json_too_deep',
  /** 400, import: the document has problems, each listed in `errors`. */
  importInvalid: 'import_invalid',
  /** 409, import: data changed while importing; run it again. */
  importConflict: 'import_conflict',
  /** 503, import: PORTAL_ADMIN_KEY is not set. */
  importDisabled: 'import_disabled',
  /** 400, all tickets: `webUserIds` is not a list of user ids. */
  invalidWebUserIds: 'invalid_web_user_ids',
} as const;

export const errorCodes = {
  ...commonErrorCodes,
  ...authErrorCodes,
  ...accountErrorCodes,
  ...portalErrorCodes,
  ...ticketErrorCodes,
  ...uploadErrorCodes,
  ...signingErrorCodes,
  ...appointmentErrorCodes,
  ...taskPageErrorCodes,
  ...integrationErrorCodes,
  ...staffErrorCodes,
  ...macroErrorCodes,
  ...staffMergeErrorCodes,
  ...slaCompanyErrorCodes,
  ...entityErrorCodes,
  ...contentErrorCodes,
  ...peopleErrorCodes,
  ...accessErrorCodes,
  ...settingsErrorCodes,
  ...ticketSetupErrorCodes,
  ...emailErrorCodes,
} as const;

export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

const known = new Set<string>(Object.values(errorCodes));
/** Whether a string is one of the API's error codes. */
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && known.has(code);

/**
 * A rule stated in a shared schema may name the code the API answers when it fails: a refinement
 * with `params: { code }` (e.g. `password_too_short`). Answers that code for a zod issue, or
 * `validation_error` for an ordinary one.
 */
export function issueCode(issue: unknown): ErrorCode {
  const code = (issue as { params?: { code?: unknown } } | null)?.params?.code;
  return isErrorCode(code) ? code : commonErrorCodes.validationError;
}
