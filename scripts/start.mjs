// `npm start`: builds the web app when its build is missing or older than its sources, then runs the
// API server (TypeScript, through tsx) in this same process so signals reach it directly.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const built = join(web, 'dist/index.html');

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = statSync(path);
    t = Math.max(t, s.isDirectory() ? newest(path) : s.mtimeMs);
  }
  return t;
}

if (!process.env.WEB_DIST) {
  const sources = Math.max(
    newest(join(web, 'src')),
    newest(join(root, 'packages/contracts/src')),
    statSync(join(web, 'index.html')).mtimeMs,
  );
  if (!existsSync(built) || statSync(built).mtimeMs < sources) {
    console.log('Building the web app…');
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  }
}

const { register } = await import('tsx/esm/api');
register();
await import(join(root, 'apps/api/src/server.ts'));
