import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Path parameters that are bearer secrets: whoever reads them from a log line can use them
 * (invitation and recovery links, signing documents, booking and cancellation, task links).
 */
const SECRET_PARAMS = new Set(['token', 'documentkey', 'eventkey', 'cancelkey', 'key']);
/** Query parameters that are secrets (`s` is the signature of a file URL). */
const SECRET_QUERY = new Set(['s', 'sig', 'signature', 'token', 'key', 'code', 'otp', 'password']);
const REDACTED = '[redacted]';

/**
 * The request's URL with secret path segments and query values replaced. Path segments are matched
 * to the route's pattern (`/api/signing/:company/:documentkey` …) by position, so a secret is
 * recognised by the name of its parameter, whatever its value looks like.
 */
export function redactedUrl(url: string, routePattern: string | undefined): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  let out = path;
  if (routePattern) {
    const pattern = routePattern.split('/');
    out = path
      .split('/')
      .map((seg, i) => {
        const p = pattern[i];
        return p?.startsWith(':') && SECRET_PARAMS.has(p.slice(1).toLowerCase()) ? REDACTED : seg;
      })
      .join('/');
  }
  if (q === -1) return out;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of [...params.keys()]) if (SECRET_QUERY.has(name.toLowerCase())) params.set(name, REDACTED);
  return `${out}?${params.toString()}`;
}

/**
 * What a request log line says about the request: method, URL without secrets, client. Headers are
 * left out on purpose (Authorization, Idempotency-Key and cookies are credentials).
 */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactedUrl(req.url, req.routeOptions?.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The app's logger options with the redacting request serializer (false stays false). */
export function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: serializeRequest as never } };
}
