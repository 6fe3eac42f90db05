import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
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
 * - by time: when its turn comes after waiting longer than its budget, PGLITE_MAX_WAIT_MS plus the
 *   server's usual time per request for each request ahead of it when it arrived, at most four times
 *   PGLITE_MAX_WAIT_MS. A short queue on a slow machine is waited out (a lone user's page fires ten
 *   requests at once: a fixed 250 ms refused some of them); a long one is refused while its requests
 *   are still fresh;
 * - by count (PGLITE_QUEUE_LIMIT): at once, with that many API requests waiting or in progress, which
 *   bounds the memory they hold.
 *
 * An upload is counted for its database work only, not while its body streams (pauseForBody).
 *
 * `/api/health` never waits and is never refused: a busy server is not a dead one. PostgreSQL runs
 * outside the process: there the loop stays free while statements run, and requests wait in the
 * pool's queue, not here.
 */
/** How the shedding treats one request: counted from its headers, paused while its body streams. */
interface Admission {
  counted: boolean;
  /** Stops counting it (its body is streaming). */
  pause(): void;
  /** Starts the request again after its body (uploads): resolves on its turn, throws 503 past the bounds. */
  resume(): Promise<void>;
}

const admissions = new WeakMap<IncomingMessage, Admission>();

/**
 * An upload's body arrives at the client's pace and costs the database nothing: stop counting the
 * request while it is read (call before reading), so 32 slow uploads no longer refuse everybody else.
 */
export function pauseForBody(req: FastifyRequest): void {
  const a = admissions.get(req.raw);
  if (a?.counted) a.pause();
}

/** Counts the request again, for its database work after the body: waits its turn like a new one. */
export async function resumeAfterBody(req: FastifyRequest): Promise<void> {
  const a = admissions.get(req.raw);
  if (a && !a.counted) await a.resume();
}

export function installLoadShedding(app: App, ctx: AppContext): void {
  if (ctx.database.kind !== 'pglite') return;
  const { PGLITE_QUEUE_LIMIT: limit, PGLITE_MAX_WAIT_MS: maxWaitMs } = ctx.config;
  const sliceMs = maxWaitMs / 4;
  let inProgress = 0;

  // How long the server takes per request when busy: the time between two answers while requests were
  // in progress all along (a moving average). A request may wait the bound plus this for each request
  // ahead of it: a queue that drains at the usual pace is waited out, not refused.
  let drainMs = sliceMs;
  // The budget never passes four times the bound: a full queue (32 ahead at 250 ms each) would otherwise
  // let a request wait 8 s, past where a client gives up, and the bounded p99 under overload is lost.
  const maxBudgetMs = 4 * maxWaitMs;
  let busyMark = 0;
  const count = () => {
    if (inProgress++ === 0) busyMark = performance.now();
  };
  const done = () => {
    inProgress--;
    const now = performance.now();
    const gap = Math.min(maxWaitMs, now - busyMark);
    drainMs += (gap - drainMs) / 4;
    busyMark = now;
  };

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

  /** `ahead`: requests in progress when it arrived; the budget follows the pace measured meanwhile. */
  function tryStart(readAt: number, ahead: number, gone: () => boolean, start: (err?: Error) => void): void {
    const now = performance.now();
    if (now - readAt > Math.min(maxBudgetMs, maxWaitMs + ahead * drainMs) || gone()) start(busy());
    else if (now - turnStartedAt > sliceMs) soon(() => tryStart(readAt, ahead, gone, start));
    else start();
  }

  /** Counts a request and calls `start` on its turn (with 503 past the bounds). */
  function admit(gone: () => boolean, a: Admission, start: (err?: Error) => void): void {
    if (inProgress >= limit) return start(busy());
    const readAt = performance.now();
    const ahead = inProgress;
    count();
    a.counted = true;
    soon(() => tryStart(readAt, ahead, gone, start));
  }

  app.addHook('onRequest', (req, reply, next) => {
    if (!isApi(req.url)) return next();
    // The client went away: its answer's socket is gone (the request ends once its body is read).
    const gone = () => reply.raw.destroyed;
    const a: Admission = {
      counted: false,
      pause: () => {
        a.counted = false;
        inProgress--;
      },
      resume: () =>
        new Promise<void>((resolve, reject) => admit(gone, a, (err) => (err ? reject(err) : resolve()))),
    };
    admissions.set(req.raw, a);
    // 'close' comes once, whether the answer was sent or the client went away.
    reply.raw.once('close', () => {
      if (a.counted) done();
      a.counted = false;
    });
    admit(gone, a, next);
  });
}
