import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects: the API runs in node on in-memory PGlite, the web app in jsdom.
export default defineConfig({
  test: {
    // Vitest's default outside watch mode is one worker less than the cores: one on a 2-core machine,
    // where the API files then ran one at a time while most of them wait on a database or a timer.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'api',
          root: 'apps/api',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          env: { TZ: 'UTC' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
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
