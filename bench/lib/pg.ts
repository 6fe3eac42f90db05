import { execFileSync, execSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayPg {
  url: string;
  stop(): void;
}

export const freePort = () =>
  new Promise<number>((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => res(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });

/**
 * A throwaway PostgreSQL cluster on a loopback port, run as the `postgres` user (it refuses root), as
 * .ci/run does. Uses DATABASE_URL-style `BENCH_DATABASE_URL` instead when that is set.
 */
export async function startThrowawayPg(opts: { fsync?: boolean } = {}): Promise<ThrowawayPg> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: () => {} };
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort() : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions[versions.length - 1]}/bin` : '';
  if (!bin)
    throw new Error('PostgreSQL is not installed (apt-get install -y postgresql), or set BENCH_DATABASE_URL');
  const root = mkdtempSync(join(tmpdir(), 'sportello-bench-pg-'));
  mkdirSync(join(root, 'sock'));
  const uid = Number(execSync('id -u postgres').toString().trim());
  const gid = Number(execSync('id -g postgres').toString().trim());
  for (const p of [root, join(root, 'sock')]) chownSync(p, uid, gid);
  const port = await freePort();
  const asPg = (cmd: string) =>
    execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', cmd], { stdio: 'pipe' });
  asPg(`${bin}/initdb -D ${root}/data --auth=trust --username=postgres -E UTF8 --locale=C.UTF-8`);
  const fsync = opts.fsync === false ? '-c fsync=off -c synchronous_commit=off' : '';
  asPg(
    `${bin}/pg_ctl -D ${root}/data -l ${root}/log -w -o "-p ${port} -c listen_addresses=127.0.0.1 -k ${root}/sock -c max_connections=300 -c shared_buffers=512MB ${fsync}" start`,
  );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        asPg(`${bin}/pg_ctl -D ${root}/data -m fast -w stop`);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
