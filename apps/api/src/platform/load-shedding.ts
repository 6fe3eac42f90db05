import type { App, AppContext } from './context';
import { unavailable } from './errors';

/** Seconds a refused client is asked to wait: the admitted requests drain in well under that. */
const RETRY_AFTER_SECONDS = 1;

const isApi = (url: string) => /^\/api\//i.test(url) && !/^\/api\/health(\/|\?|$)/i.test(url);

/**
 * The embedded database runs in this process, one statement at a time, each blocking the event loop
 * while it runs. Past its capacity every request used to wait its turn (p99 7.4 s at 100 connections,
 * timeouts at a million tickets, memory growing with the waiting requests). With PGLITE_QUEUE_LIMIT API
 * requests already in progress, a new one is refused before it does any work (nothing half done), with
 * 503 and Retry-After; the admitted ones are answered in a bounded time. The queue is counted in
 * requests, not statements: PGlite's own queue stays short because each statement runs synchronously. `/api/health` is never refused: a busy
 * server is not a dead one. PostgreSQL runs outside the process and has its own pool queue.
 */
export function installLoadShedding(app: App, ctx: AppContext): void {
  if (ctx.database.kind !== 'pglite') return;
  let inProgress = 0;
  app.addHook('onRequest', (req, reply, done) => {
    if (!isApi(req.url)) return done();
    if (inProgress >= ctx.config.PGLITE_QUEUE_LIMIT) {
      return done(
        unavailable('The server is busy: try again in a moment', 'server_busy', RETRY_AFTER_SECONDS),
      );
    }
    inProgress++;
    // 'close' comes once, whether the answer was sent or the client went away.
    reply.raw.once('close', () => inProgress--);
    // PGlite answers through microtasks only, so an admitted request would otherwise run to its answer
    // before the event loop reads the next socket: requests waited unparsed in socket buffers, where no
    // count sees them. One turn of the loop first lets every request that has arrived be counted.
    setImmediate(done);
  });
}
