import type { FastifyReply } from 'fastify';
import type { App, AppContext } from './context';
import { unavailable } from './errors';

/** Seconds a refused client is asked to wait: the admitted requests drain in well under that. */
const RETRY_AFTER_SECONDS = 1;

const isApi = (url: string) => /^\/api\//i.test(url) && !/^\/api\/health(\/|\?|$)/i.test(url);

const busy = () =>
  unavailable('The server is busy: try again in a moment', 'server_busy', RETRY_AFTER_SECONDS);

/**
 * The embedded database runs in this process, one statement at a time, each blocking the event loop
 * while it runs; PGlite answers through microtasks only, so a request, once started, runs to its answer
 * before the loop does anything else. Started together, the requests read in one turn of the loop made
 * that turn last as long as all of them, and while it lasted nothing was read, accepted (Node accepts
 * one connection per turn) or refused: past its capacity every request waited unseen in its socket
 * (p99 7.4 s at 100 connections, timeouts, new connections accepted a few per second).
 *
 * So an API request read waits here, counted, and starts on a later turn of the loop, in arrival order.
 * Each turn starts requests for a slice of time (a quarter of PGLITE_MAX_WAIT_MS) and leaves the rest
 * for the next turn, so the loop keeps reading sockets, accepting connections and running timers. A
 * request is refused with 503 and Retry-After, before it has done any work (nothing half done):
 *
 * - by time (PGLITE_MAX_WAIT_MS): when its turn comes after waiting longer than the bound, so an
 *   admitted request starts within the bound, and a refusal comes within it too;
 * - by count (PGLITE_QUEUE_LIMIT): at once, with that many API requests waiting or in progress, which
 *   bounds the memory they hold.
 *
 * `/api/health` never waits and is never refused: a busy server is not a dead one. PostgreSQL runs
 * outside the process: there the loop stays free while statements run, and requests wait in the
 * pool's queue, not here.
 */
export function installLoadShedding(app: App, ctx: AppContext): void {
  if (ctx.database.kind !== 'pglite') return;
  const { PGLITE_QUEUE_LIMIT: limit, PGLITE_MAX_WAIT_MS: maxWaitMs } = ctx.config;
  const sliceMs = maxWaitMs / 4;
  let inProgress = 0;

  // When the current turn began starting requests: set by a marker that runs first in each turn that
  // has requests to start (immediates run in the order they were set; those set during a turn's
  // immediates run on the next turn, after the loop has read the sockets again).
  let turnStartedAt = 0;
  let markerSet = false;
  const markTurn = () => {
    markerSet = false;
    turnStartedAt = performance.now();
  };
  /** Runs `f` on the next immediates phase, after the marker of that turn. */
  const soon = (f: () => void) => {
    if (!markerSet) {
      markerSet = true;
      setImmediate(markTurn);
    }
    setImmediate(f);
  };

  function tryStart(readAt: number, reply: FastifyReply, start: (err?: Error) => void): void {
    const now = performance.now();
    if (now - readAt > maxWaitMs || reply.raw.destroyed) start(busy());
    else if (now - turnStartedAt > sliceMs) soon(() => tryStart(readAt, reply, start));
    else start();
  }

  app.addHook('onRequest', (req, reply, done) => {
    if (!isApi(req.url)) return done();
    if (inProgress >= limit) return done(busy());
    inProgress++;
    // 'close' comes once, whether the answer was sent or the client went away.
    reply.raw.once('close', () => inProgress--);
    const readAt = performance.now();
    soon(() => tryStart(readAt, reply, done));
  });
}
