import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The API's test files that replace a module (`vi.mock`), found by reading them. Those run each in a
 * module graph of its own (vitest's default); every other API file shares its worker's graph
 * (`isolate: false`): each file imported the whole API and compiled the embedded database's WebAssembly
 * again, most of the API suite's time (1,050 s of CI's 2 workers, 330 s shared). Their tests open their
 * own app and database and stub no global, so sharing the modules changes nothing they check.
 */
const API_ROOT = fileURLToPath(new URL('apps/api/', import.meta.url));
const API_MOCKING = readdirSync(join(API_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('src', f))
  .filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(API_ROOT, f), 'utf8')));
const api = {
  root: API_ROOT,
  environment: 'node',
  env: { TZ: 'UTC' },
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// The API runs in node on in-memory PGlite (two projects, as above), the web app in jsdom.
export default defineConfig({
  test: {
    // Vitest's default outside watch mode is one worker less than the cores: one on a 2-core machine,
    // where the API files then ran one at a time while most of them wait on a database or a timer.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: { ...api, name: 'api', include: ['src/**/*.test.ts'], exclude: API_MOCKING, isolate: false },
      },
      { test: { ...api, name: 'api-mocks', include: API_MOCKING } },
      {
        test: {
          name: 'contracts',
          root: 'packages/contracts',
          environment: 'node',
          include: ['src/**/*.test.ts'],
        },
      },
      'apps/web',
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          environment: 'node',
          include: ['**/*.e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One browser journey at a time: the server under test has one embedded database.
          fileParallelism: false,
        },
      },
    ],
  },
});
