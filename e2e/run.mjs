// Browser journeys: builds the SPA, starts `npm start`'s server on a fresh data directory with the demo
// data, waits for it, runs the e2e vitest project against it in Debian's Chromium, and stops it.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const freePort = () =>
  new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });

execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'sportello-e2e-'));
const shots = join(root, '.e2e/screenshots');
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });
const baseUrl = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  PORTAL_ADMIN_KEY: 'e2e-admin-key-0123456789',
  LOG_LEVEL: 'warn',
  DEMO_DATA: 'true',
  // admin-access.e2e.ts delivers webhooks to a receiver on loopback.
  WEBHOOK_ALLOW_PRIVATE: 'true',
  // The journeys are about behaviour, not load (as the API tests, test/harness.ts): beside the unit tests
  // on two cores a request may wait its turn past the 250 ms bound, and a journey must not see the 503
  // that the embedded database's overload bound answers then (docs/operations.md, "Under overload").
  PGLITE_MAX_WAIT_MS: '60000',
  // The SLA journeys wait for a breach to be told: the sweep looks every second, not every 30 s.
  SLA_SWEEP_SECONDS: '1',
};
delete env.DATABASE_URL;
const server = spawn(process.execPath, ['scripts/start.mjs'], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
let serverExited = false;
server.on('exit', () => (serverExited = true));

async function waitReady() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (serverExited) throw new Error('the server exited before it was ready');
    try {
      const r = await fetch(`${baseUrl}/api/health`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not become ready in 180 s');
}

let code;
try {
  await waitReady();
  const runner = spawn(
    process.execPath,
    [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'e2e', ...process.argv.slice(2)],
    {
      cwd: root,
      env: { ...env, E2E_BASE_URL: baseUrl, E2E_DATA_DIR: dataDir, E2E_SCREENSHOTS: shots },
      stdio: 'inherit',
    },
  );
  code = await new Promise((res) => runner.on('exit', (c) => res(c ?? 1)));
} finally {
  server.kill('SIGTERM');
  await new Promise((res) => (serverExited ? res() : server.on('exit', res)));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
