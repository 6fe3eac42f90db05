import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('warmUpIntl', () => {
  it('starts the formatting data worker once, and ends it when it says it is done', async () => {
    const started: { url: string; terminate: ReturnType<typeof vi.fn>; onmessage?: () => void }[] = [];
    vi.stubGlobal(
      'Worker',
      class {
        terminate = vi.fn();
        onmessage?: () => void;
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
    started[0]!.onmessage?.();
    expect(started[0]!.terminate).toHaveBeenCalled();
  });

  it('does nothing where workers cannot start', async () => {
    vi.stubGlobal('Worker', undefined);
    const { warmUpIntl } = await import('./intl-warmup');
    expect(() => warmUpIntl()).not.toThrow();
  });
});
