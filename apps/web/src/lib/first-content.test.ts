import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The module keeps its state for the page's life: each case loads it afresh.
const load = async () => {
  vi.resetModules();
  return import('./first-content');
};

afterEach(() => vi.useRealTimers());

describe('first-content', () => {
  it('lets everything through at once unless the first page holds it', async () => {
    const m = await load();
    const done = vi.fn();
    await m.importAfterContent(async () => done());
    expect(done).toHaveBeenCalled();
  });

  it('holds what waits until the content is shown, then lets it through after that frame', async () => {
    vi.useFakeTimers();
    const m = await load();
    m.holdForContent();
    const done = vi.fn();
    void m.afterContent().then(done);
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).not.toHaveBeenCalled();
    m.contentShown();
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toHaveBeenCalled();
  });

  it('holds no longer than its limit when the content never says it is shown', async () => {
    vi.useFakeTimers();
    const m = await load();
    m.holdForContent();
    const done = vi.fn();
    void m.afterContent().then(done);
    await vi.advanceTimersByTimeAsync(m.HOLD_LIMIT_MS - 1);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalled();
  });

  it('useAfterContent: true at once unless held, else false until the content is shown', async () => {
    const free = await load();
    expect(renderHook(() => free.useAfterContent()).result.current).toBe(true);

    vi.useFakeTimers();
    const m = await load();
    m.holdForContent();
    const { result } = renderHook(() => m.useAfterContent());
    expect(result.current).toBe(false);
    await act(async () => {
      m.contentShown();
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(result.current).toBe(true);
    // A component mounted afterwards starts with it.
    expect(renderHook(() => m.useAfterContent()).result.current).toBe(true);
  });
});
