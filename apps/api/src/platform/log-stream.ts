import { writeSync } from 'node:fs';
import pino from 'pino';

/** Lines gather up to this many characters before they are written (fifty access lines)… */
const BATCH_CHARS = 16_384;
/** …or until this much time has passed: a quiet server's lines still show within the second. */
const FLUSH_MS = 500;

/**
 * Where the server's log lines go (stdout). Asynchronous and batched: a synchronous stdout costs one
 * blocking write per line, and an unbatched asynchronous one a write (with its trip through libuv's
 * thread pool) per line or two; gathered a few KB at a time, the access line of a small answer costs
 * a third less (bench/RESULTS.md, session 9).
 *
 * The lines are gathered here, not in pino's destination (sonic-boom): it measures the bytes of the
 * text it holds on every write, so gathering a batch there measured the batch again for each line it
 * added (bench/RESULTS.md, session 10). It gets the batch as one write.
 *
 * What is still gathered when the process exits is written then, after what the destination held
 * (pino flushes that on exit, in a handler registered as the destination is made, before ours).
 */
export function logDestination(fd = 1): pino.DestinationStream {
  // It writes each batch as it gets it (or after the write under way).
  const stream = pino.destination({ dest: fd, sync: false });
  let held: string[] = [];
  let heldChars = 0;
  const take = () => {
    const batch = held.join('');
    held = [];
    heldChars = 0;
    return batch;
  };
  const timer = setInterval(() => {
    if (held.length > 0) stream.write(take());
  }, FLUSH_MS);
  timer.unref();
  const atExit = () => {
    if (held.length === 0) return;
    try {
      stream.flushSync();
    } catch {
      // Not open yet, or closed: what it held is lost either way; ours still goes out.
    }
    writeSync(fd, take());
  };
  process.on('exit', atExit);
  stream.once('close', () => {
    clearInterval(timer);
    process.off('exit', atExit);
  });
  return {
    write(line: string) {
      held.push(line);
      heldChars += line.length;
      if (heldChars >= BATCH_CHARS) stream.write(take());
    },
  };
}
