/** An error the client may see: status plus a stable `code` the client maps to translated text. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'bad_request', details?: unknown) =>
  new AppError(400, code, message, details);
export const unauthorized = (message = 'Authentication required', code = 'unauthorized') =>
  new AppError(401, code, message);
export const forbidden = (message = 'You may not do this', code = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const tooMany = (message: string, code = 'too_many_requests', retryAfterSeconds?: number) =>
  new AppError(429, code, message, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds });
/** The server is saturated: the client should come back after `retryAfterSeconds` (Retry-After). */
export const unavailable = (message: string, code: string, retryAfterSeconds: number) =>
  new AppError(503, code, message, { retryAfterSeconds });
