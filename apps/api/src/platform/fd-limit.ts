import { readFileSync } from 'node:fs';

/**
 * File descriptors kept back from client connections: the embedded database's own files (bounded by
 * its max_files_per_process, see db/client.ts), uploads and downloads being streamed, outbox files,
 * logs and the pool of a PostgreSQL server.
 */
export const FD_RESERVE = 300;

/** The soft RLIMIT_NOFILE of this process (Linux /proc), or undefined when unknown or unlimited. */
export function openFileLimit(limitsText?: string): number | undefined {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return undefined;
    }
  }
  const m = /^Max open files\s+(\S+)/m.exec(text);
  const soft = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(soft) && soft > 0 ? soft : undefined;
}

/**
 * How many connections the server accepts at once. Slow clients holding connections up to the fd
 * limit made every file open fail (database files included) and ticket creation answer 500; above
 * this number Node closes new connections at once instead, and the process keeps the descriptors it
 * needs to answer the ones it has.
 */
export function connectionLimit(softLimit = openFileLimit()): number | undefined {
  if (softLimit === undefined) return undefined;
  return Math.max(16, softLimit - FD_RESERVE);
}
