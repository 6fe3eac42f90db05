import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
}

/** The build helpers of scripts/build-api.mjs (plain JavaScript, so typed here). */
interface BuildApi {
  apiBuildIsStale(): boolean;
  buildApi(): Promise<void>;
  apiEntry: string;
  bundle(o: { entryPoints: Record<string, string>; outdir: string }): Promise<void>;
}
const buildScript = join(root, 'scripts/build-api.mjs');

/**
 * The command that runs `script` as a user's server runs: compiled JavaScript (the API's own build for
 * apps/api/src/server.ts, a bundle made the same way under bench/.data/build for the benchmark's
 * server). BENCH_TSX=1 runs the TypeScript through tsx instead, to compare.
 */
async function serverCommand(script: string): Promise<string[]> {
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it exits (where the time went).
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  return [...prof, ...(await command(script))];
}

async function command(script: string): Promise<string[]> {
  // A bundle built beforehand (another commit's server, to compare): run as it is.
  if (script.endsWith('.js')) return ['--enable-source-maps', script];
  if (process.env.BENCH_TSX === '1') return ['--import', 'tsx', script];
  const b = (await import(buildScript)) as BuildApi;
  if (script === 'apps/api/src/server.ts') {
    if (b.apiBuildIsStale()) await b.buildApi();
    return ['--enable-source-maps', b.apiEntry];
  }
  const name = basename(script).replace(/\.ts$/, '');
  const outdir = join(root, 'bench/.data/build');
  await b.bundle({ entryPoints: { [name]: join(root, script) }, outdir });
  // Beside the bundle, where migrate.ts looks for them.
  cpSync(join(root, 'apps/api/src/db/migrations'), join(outdir, 'migrations'), { recursive: true });
  return ['--enable-source-maps', join(outdir, `${name}.js`)];
}

/**
 * Starts the API server (compiled, see serverCommand) on a port and waits for /api/health; `script` may
 * name the benchmark's server (bench/lib/bench-server.ts), which wraps the same app.
 */
export async function startServer(
  env: Record<string, string>,
  port: number,
  script = 'apps/api/src/server.ts',
  /** The server's log: inherited, or discarded (a load run at LOG_LEVEL=info writes lines per request). */
  stdout: 'inherit' | 'ignore' = 'inherit',
): Promise<RunningServer> {
  // One process (not the tsx CLI, which runs the server as a child): a SIGKILL must hit the server itself.
  const child = spawn(process.execPath, await serverCommand(script), {
    cwd: root,
    // WEB_DIST: a bundle outside apps/api would look for the web app relative to itself.
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      WEB_DIST: join(root, 'apps/web/dist'),
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const exited = new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
  let done = false;
  void exited.then(() => (done = true));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (done) throw new Error('server exited during start');
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { child, baseUrl, exited };
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start in 120 s');
}
