// `npm start`: builds the web app and the API when their builds are missing or older than their sources,
// then runs the compiled API server (apps/api/dist) in this same process so signals reach it directly.
// `npm run dev` (--dev) runs the API's TypeScript sources through tsx instead, without building it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

if (process.argv.includes('--dev')) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(join(root, 'apps/api/src/server.ts'));
} else {
  const { apiBuildIsStale, apiEntry, buildApi } = await import('./build-api.mjs');
  if (apiBuildIsStale()) {
    console.log('Building the API…');
    await buildApi();
  }
  // Stack traces of logged errors name the TypeScript sources. Node reads a module's map when the
  // module loads and consults it only when a stack is printed, so a request pays nothing for it.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(apiEntry).href);
}
