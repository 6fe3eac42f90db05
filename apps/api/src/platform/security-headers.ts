import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { App } from './context';

/**
 * The headers helmet sets for `options`, computed once. @fastify/helmet built a new helmet middleware
 * on every request (parsing and validating the CSP directives each time): with a dozen setHeader
 * calls it was a quarter of the CPU of a small answer. Our policy has no per-request part (no nonces,
 * no directive functions), so its headers are the same for every answer.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (e?: unknown) => (failed = e));
  if (failed) throw failed;
  return headers;
}

/**
 * Sends helmet's headers for `options` on every answer (routes, 404s, errors, static files); a route
 * may still replace one (the file route's own sandbox CSP).
 */
export function installSecurityHeaders(app: App, options: HelmetOptions): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
