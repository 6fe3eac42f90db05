import type { ErrorCode } from '@sportello/contracts';

/**
 * An error the client may see: status plus a stable `code` the client maps to translated text. Codes
 * are the one list of packages/contracts/src/errors.ts.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code: ErrorCode = 'bad_request', details?: unknown) =>
  new AppError(400, code, message, details);
export const unauthorized = (message = 'Authentication required', code: ErrorCode = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message = 'You may not do this', code: ErrorCode = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found', code: ErrorCode = 'not_found') =>
  new AppError(404, code, message);
export const conflict = (message: string, code: ErrorCode = 'conflict') => new AppError(409, code, message);
export const tooMany = (message: string, code: ErrorCode = 'too_many_requests', retryAfterSeconds?: number) =>
  new AppError(429, code, message, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds });
/** The server is saturated: the client should come back after `retryAfterSeconds` (Retry-After). */
export const unavailable = (message: string, code: string, retryAfterSeconds: number) =>
  new AppError(503, code, message, { retryAfterSeconds });
