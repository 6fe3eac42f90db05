import { describe, expect, it } from 'vitest';
import { AnswerCache } from './answer-cache';

describe('AnswerCache', () => {
  it('answers only for the same version, within the time limit', () => {
    const c = new AnswerCache({ maxBytes: 1000, ttlMs: 100 });
    c.set('k', 3, 'body', 0);
    expect(c.get('k', 3, 50)).toBe('body');
    expect(c.get('k', 4, 50)).toBeUndefined();
    expect(c.size).toBe(0); // a newer version was seen: the entry is gone
    c.set('k', 4, 'body4', 0);
    expect(c.get('k', 4, 100)).toBeUndefined(); // expired
    c.set('k', 5, 'body5', 1000);
    expect(c.get('k', 5, 999)).toBeUndefined(); // a clock that went back does not trust the entry
  });

  it('keeps the newer answer when a slower request stores an older one', () => {
    const c = new AnswerCache({ maxBytes: 1000, ttlMs: 100 });
    c.set('k', 7, 'new', 0);
    c.set('k', 6, 'old', 1);
    expect(c.get('k', 7, 2)).toBe('new');
    // A request that still sees the old version gets no answer, and leaves the newer entry alone.
    expect(c.get('k', 6, 2)).toBeUndefined();
    expect(c.get('k', 7, 2)).toBe('new');
  });

  it('drops the least recently used entries beyond its byte budget', () => {
    const c = new AnswerCache({ maxBytes: 100, ttlMs: 1000 });
    c.set('a', 1, 'x'.repeat(20), 0);
    c.set('b', 1, 'y'.repeat(20), 0);
    c.set('c', 1, 'z'.repeat(20), 0);
    expect(c.get('a', 1, 1)).toBeDefined(); // a is now the most recent
    c.set('d', 1, 'w'.repeat(20), 0);
    c.set('e', 1, 'v'.repeat(20), 0); // 100 bytes: still fits
    c.set('f', 1, 'u'.repeat(20), 0); // over: b (least recent) leaves
    expect(c.get('b', 1, 1)).toBeUndefined();
    expect(c.get('a', 1, 1)).toBeDefined();
    expect(c.size).toBe(5);
    c.set('huge', 1, 'h'.repeat(60), 0); // over a quarter of the budget: not kept
    expect(c.get('huge', 1, 1)).toBeUndefined();
  });

  it('keeps nothing with a zero budget', () => {
    const c = new AnswerCache({ maxBytes: 0, ttlMs: 1000 });
    expect(c.enabled).toBe(false);
    c.set('k', 1, 'b', 0);
    expect(c.get('k', 1, 1)).toBeUndefined();
  });
});
