import type { App, AppContext } from './context';
import { unavailable } from './errors';

/** What a client is asked to wait while the process starts (migrations take seconds, sometimes minutes). */
export const STARTING_RETRY_AFTER_SECONDS = 5;

export const startingError = () =>
  unavailable('The server is starting: try again shortly', 'starting', STARTING_RETRY_AFTER_SECONDS);

export const isServing = (ctx: AppContext) => (ctx.lifecycle?.phase ?? 'serving') === 'serving';

/**
 * server.ts listens before it migrates, so a load balancer sees a process that is starting (503 on
 * `/api/health/ready`) rather than a refused connection, and an operator can ask `/api/health` what it
 * waits for. Until the process serves, every other API request is answered 503 `starting` before it
 * touches a database whose schema may not be there yet; the SPA's files are served meanwhile.
 */
export function installStartupGate(app: App, ctx: AppContext): void {
  app.addHook('onRequest', async (req) => {
    if (isServing(ctx)) return;
    if (/^\/api\//i.test(req.url) && !/^\/api\/health(\/|\?|$)/i.test(req.url)) throw startingError();
  });
}
