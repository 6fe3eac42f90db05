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
 * The web app's pages whose address carries a key (apps/web router.tsx: a document to sign, a booking
 * link, its cancellation, a task link). The server answers them outside its routes (the app's page, or
 * its drawn frame), so there is no route pattern to read the key's position from: these say it.
 */
const PAGE_SECRETS = [
  /^(\/[^/]+\/documents\/)[^/]+/i,
  /^(\/appointments\/[^/]+\/cancellation\/)[^/]+/i,
  /^(\/appointments\/[^/]+\/)[^/]+/i,
  /^(\/tasks\/[^/]+\/)[^/]+/i,
];

/**
 * The request's URL with secret path segments and query values replaced. Path segments are matched
 * to the route's pattern (`/api/signing/:company/:documentkey` …) by position, so a secret is
 * recognised by the name of its parameter, whatever its value looks like; the web app's pages, which
 * have no route pattern, by PAGE_SECRETS.
 */
export function redactedUrl(url: string, routePattern: string | undefined): string {
  const q = url.indexOf('?');
  const secrets = routePattern ? secretSegments(routePattern) : NONE;
  const path = q === -1 ? url : url.slice(0, q);
  const page = routePattern ? undefined : PAGE_SECRETS.find((re) => re.test(path));
  // Most lines: a route with no secret in its path and no query, written as it came.
  if (q === -1 && secrets.length === 0 && !page) return url;
  let out = page ? path.replace(page, `$1${REDACTED}`) : path;
  if (secrets.length > 0) {
    const segments = path.split('/');
    for (const i of secrets) if (i < segments.length) segments[i] = REDACTED;
    out = segments.join('/');
  }
  if (q === -1) return out;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of [...params.keys()]) if (SECRET_QUERY.has(name.toLowerCase())) params.set(name, REDACTED);
  return `${out}?${params.toString()}`;
}

const NONE: readonly number[] = [];
/** Per route pattern, the positions of its secret segments: worked out once, read on every log line. */
const secretPositions = new Map<string, readonly number[]>();
function secretSegments(routePattern: string): readonly number[] {
  let found = secretPositions.get(routePattern);
  if (!found) {
    const positions: number[] = [];
    routePattern.split('/').forEach((p, i) => {
      if (p.startsWith(':') && SECRET_PARAMS.has(p.slice(1).toLowerCase())) positions.push(i);
    });
    found = positions.length > 0 ? positions : NONE;
    // The patterns are the app's routes: a bounded set.
    secretPositions.set(routePattern, found);
  }
  return found;
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
