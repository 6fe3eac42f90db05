import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './server';

/**
 * Builds the SPA into `into` (kept), or into a temporary directory that `cleanups` removes: apps/web/dist,
 * which the browser tests and the full bench build, stays untouched. Precompressed as `npm run build`
 * does, so the server answers what it answers users.
 */
export function buildWeb(
  into: string | undefined,
  cleanups: (() => void)[],
  log: (m: string) => void,
): string {
  let dist = into;
  if (dist) mkdirSync(dist, { recursive: true });
  else {
    const temp = mkdtempSync(join(tmpdir(), 'sportello-page-dist-'));
    cleanups.push(() => rmSync(temp, { recursive: true, force: true }));
    dist = temp;
  }
  log(`building the SPA into ${dist}`);
  execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir'], {
    cwd: join(root, 'apps/web'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  execFileSync(process.execPath, [join(root, 'scripts/precompress.mjs'), dist], { stdio: 'inherit' });
  return dist;
}
