/**
 * A throwaway PostgreSQL cluster of a test's own, which it may stop and start (as CI's .ci/run starts
 * the suite's): fault tests cannot restart the shared server of TEST_DATABASE_URL under the other files.
 * Made with the binaries of Debian's postgresql package (or PG_BIN), as the user postgres when run as
 * root (initdb refuses root).
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports';

export interface PgCluster {
  url: string;
  /** Stops the server at once (`-m immediate` drops every connection as a crash would, `fast` as a restart). */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops it and removes its files. */
  destroy(): void;
}

/** The PostgreSQL binaries, or why there are none. */
export function pgBinaries(): { bin: string } | { reason: string } {
  if (process.env.PG_BIN) return { bin: process.env.PG_BIN };
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const bin = versions.map((v) => join(root, v, 'bin')).findLast((b) => existsSync(join(b, 'initdb')));
  return bin ? { bin } : { reason: 'no PostgreSQL binaries (install postgresql or set PG_BIN)' };
}

export async function startPgCluster(bin: string): Promise<PgCluster> {
  const root = mkdtempSync(join(tmpdir(), 'sportello-pgc-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(root, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const argv = [join(bin, cmd), ...args];
    if (asRoot) {
      const line = argv.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
      execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', line], { stdio: 'ignore' });
    } else execFileSync(argv[0]!, argv.slice(1), { stdio: 'ignore' });
  };
  const data = join(root, 'data');
  run('initdb', ['-D', data, '--auth=trust', '--username=postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${root} -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-l', join(root, 'log'), '-w', '-o', options, 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop('immediate');
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
