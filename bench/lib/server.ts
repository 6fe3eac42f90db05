import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
}

/**
 * Starts the API server (tsx, sources) on a port and waits for /api/health; `script` may name the
 * benchmark's server (bench/lib/bench-server.ts), which wraps the same app.
 */
export async function startServer(
  env: Record<string, string>,
  port: number,
  script = 'apps/api/src/server.ts',
): Promise<RunningServer> {
  // One process (not the tsx CLI, which runs the server as a child): a SIGKILL must hit the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
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
