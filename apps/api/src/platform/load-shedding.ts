import type { App, AppContext } from './context';
import { unavailable } from './errors';

/** Seconds a refused client is asked to wait: the queue drains in well under that. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The embedded database runs one statement at a time. Past its capacity every request used to join
 * one queue (p99 7.4 s at 100 connections, timeouts at a million tickets, memory growing with the
 * waiting requests). Past PGLITE_QUEUE_LIMIT waiting statements a new API request is refused before it
 * does any work (nothing half done), with 503 and Retry-After; what is admitted is answered quickly.
 * `/api/health` is never refused: a busy server is not a dead one.
 */
export function installLoadShedding(app: App, ctx: AppContext): void {
  const depth = ctx.database.queueDepth;
  if (!depth) return;
  app.addHook('onRequest', (req, _reply, done) => {
    if (
      depth() >= ctx.config.PGLITE_QUEUE_LIMIT &&
      /^\/api\//i.test(req.url) &&
      !/^\/api\/health(\/|\?|$)/i.test(req.url)
    ) {
      done(unavailable('The server is busy: try again in a moment', 'server_busy', RETRY_AFTER_SECONDS));
      return;
    }
    done();
  });
}
