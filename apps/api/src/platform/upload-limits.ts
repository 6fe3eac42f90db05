/**
 * Bounds on the upload routes (the multipart scope of route.ts), on either database:
 *
 * - **In flight**: each upload holds a socket and a temp file from its headers to its answer; past
 *   MAX_UPLOADS_IN_FLIGHT a new one is answered `503 server_busy` with Retry-After before its body is
 *   read (700 slow uploads at once ran the process out of descriptors: EMFILE, and 500s).
 * - **Pace**: a body must bring at least MIN_UPLOAD_BYTES_PER_SECOND over every window of
 *   UPLOAD_RATE_WINDOW_MS, or its connection is closed (as the idle timeout does for a silent one): a
 *   trickle of a byte every few seconds no longer holds its slot for the whole request timeout.
 */
import type { App, AppContext } from './context';
import { unavailable } from './errors';

/** 8 KiB/s: a poor mobile uplink still sends several times that. */
export const MIN_UPLOAD_BYTES_PER_SECOND = 8 * 1024;
export const UPLOAD_RATE_WINDOW_MS = 10_000;
/** Uploads end in seconds: a refused one may try again soon. */
const RETRY_AFTER_SECONDS = 5;

export function installUploadLimits(scope: App, ctx: AppContext, windowMs = UPLOAD_RATE_WINDOW_MS): void {
  const cap = ctx.config.MAX_UPLOADS_IN_FLIGHT;
  let inFlight = 0;
  scope.addHook('onRequest', (req, reply, done) => {
    if (inFlight >= cap)
      return done(
        unavailable(
          'Too many files are being received now: try again in a moment',
          'server_busy',
          RETRY_AFTER_SECONDS,
        ),
      );
    inFlight++;
    // What the socket has read (a listener on the body would start it flowing before the parser reads).
    const socket = req.raw.socket;
    let atWindowStart = socket.bytesRead;
    const timer = setInterval(() => {
      if (req.raw.complete || socket.destroyed) return clearInterval(timer);
      if (socket.bytesRead - atWindowStart < (MIN_UPLOAD_BYTES_PER_SECOND * windowMs) / 1000) {
        clearInterval(timer);
        req.log.info({ bytesRead: socket.bytesRead }, 'upload body too slow: connection closed');
        socket.destroy();
        return;
      }
      atWindowStart = socket.bytesRead;
    }, windowMs);
    timer.unref();
    // 'close' comes once, whether the answer was sent or the client went away.
    reply.raw.once('close', () => {
      inFlight--;
      clearInterval(timer);
    });
    done();
  });
}
