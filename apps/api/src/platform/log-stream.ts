import pino from 'pino';

/** Lines gather up to this many bytes before they are written (a dozen access lines)… */
const BATCH_BYTES = 4096;
/** …or until this much time has passed: a quiet server's lines still show within the second. */
const FLUSH_MS = 500;

/**
 * Where the server's log lines go (stdout). Asynchronous and batched: a synchronous stdout costs one
 * blocking write per line, and an unbatched asynchronous one a write (with its trip through libuv's
 * thread pool) per line or two; gathered a few KB at a time, the access line of a small answer costs
 * a third less (bench/RESULTS.md, session 9). What is still gathered when the process exits is written
 * then (pino flushes its destinations synchronously on exit).
 */
export function logDestination(fd = 1): pino.DestinationStream {
  const stream = pino.destination({ dest: fd, sync: false, minLength: BATCH_BYTES });
  const timer = setInterval(() => {
    try {
      stream.flush();
    } catch {
      // Closed between its end and its 'close' event: nothing left to write.
    }
  }, FLUSH_MS);
  timer.unref();
  stream.once('close', () => clearInterval(timer));
  return stream;
}
