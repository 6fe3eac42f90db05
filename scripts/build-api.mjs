// Builds the API server into apps/api/dist: `npm start` runs this JavaScript, so a user's server compiles
// nothing at run time (tsx compiled every module at start and kept its source maps in the process). Our
// code and @sportello/contracts (TypeScript sources) are bundled into one module; packages from
// node_modules stay imports, resolved by Node as in development. The migrations are copied beside the
// bundle, where migrate.ts looks for them (`./migrations/` next to the module). The source map is a
// separate file, read by Node only when a stack trace is printed (see scripts/start.mjs).
//
//   node scripts/build-api.mjs          (or `npm run build:api`)
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const api = join(root, 'apps/api');
export const apiDist = join(api, 'dist');
/** The module `npm start` runs. */
export const apiEntry = join(apiDist, 'server.js');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

/** True when the bundle is missing or older than anything it is built from. */
export function apiBuildIsStale() {
  if (!existsSync(apiEntry)) return true;
  const sources = Math.max(
    newest(join(api, 'src')),
    newest(join(root, 'packages/contracts/src')),
    statSync(join(api, 'package.json')).mtimeMs,
    statSync(fileURLToPath(import.meta.url)).mtimeMs,
  );
  return statSync(apiEntry).mtimeMs < sources;
}

/**
 * Bundles `entryPoints` (name → TypeScript source) into `outdir` as ES modules. Shared with the
 * benchmark, which measures its server compiled the same way.
 */
export async function bundle({ entryPoints, outdir, sourceRoot = root }) {
  // esbuild is a dev dependency of apps/api: resolve it from there, wherever npm placed it.
  const { build } = createRequire(join(api, 'package.json'))('esbuild');
  await build({
    entryPoints,
    outdir,
    absWorkingDir: sourceRoot,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    outExtension: { '.js': '.js' },
    sourcemap: 'linked',
    logLevel: 'warning',
    // Packages are imported at run time; only our workspace packages (TypeScript sources) are bundled.
    plugins: [
      {
        name: 'packages-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.path.startsWith('@sportello/') || args.pluginData === 'inner') return undefined;
            const name = /^(@[^/]+\/[^/]+|[^/]+)/.exec(args.path)?.[1] ?? args.path;
            if (name === args.path) return { path: args.path, external: true };
            // A deep import (`dayjs/plugin/timezone`) of a package without an `exports` map: Node's
            // ESM resolver needs the file's own name, which tsx and bundlers guess for us.
            const { path, external } = await b.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              pluginData: 'inner',
            });
            const at = path.lastIndexOf(`node_modules/${name}/`);
            if (external || at < 0) return { path: args.path, external: true };
            const dir = path.slice(0, at + `node_modules/${name}/`.length);
            const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
            return { path: exports ? args.path : name + '/' + path.slice(dir.length), external: true };
          });
        },
      },
    ],
  });
}

export async function buildApi() {
  await buildServerInto(apiDist);
}

/**
 * The server's build (`server.js` and its migrations) into `outdir`, which must lie inside the
 * project, where Node finds the packages the bundle imports. The two-process test runs its own copy.
 */
export async function buildServerInto(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  await bundle({ entryPoints: { server: join(api, 'src/server.ts') }, outdir });
  cpSync(join(api, 'src/db/migrations'), join(outdir, 'migrations'), {
    recursive: true,
    filter: (src) => !src.includes(`${join('migrations', 'meta')}`),
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t = performance.now();
  await buildApi();
  console.log(`API built in ${Math.round(performance.now() - t)} ms: ${apiEntry}`);
}
