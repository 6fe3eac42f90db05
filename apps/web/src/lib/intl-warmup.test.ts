import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('warmUpIntl', () => {
  it('starts the formatting data worker once', async () => {
    const started: { url: string }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        constructor(url: URL, options: WorkerOptions) {
          expect(options.type).toBe('module');
          started.push(Object.assign(this, { url: String(url) }));
        }
      },
    );
    const { warmUpIntl } = await import('./intl-warmup');
    warmUpIntl();
    warmUpIntl();
    expect(started).toHaveLength(1);
    expect(started[0]!.url).toMatch(/intl-warmup\.worker\.ts/);
  });

  it('does nothing where workers cannot start', async () => {
    vi.stubGlobal('Worker', undefined);
    const { warmUpIntl } = await import('./intl-warmup');
    expect(() => warmUpIntl()).not.toThrow();
  });
});
