import { describe, expect, it } from 'vitest';
import { htmlBatches, JSON_BATCH } from './support';

describe('htmlBatches', () => {
  it('cuts at JSON_BATCH rows, and earlier when the HTML of a batch grows past 32 million characters', () => {
    const small = Array.from({ length: JSON_BATCH * 2 + 1 }, (_, i) => ({ i, html: 'x' }));
    expect(htmlBatches(small, (r) => r.html).map((b) => b.length)).toEqual([JSON_BATCH, JSON_BATCH, 1]);

    const big = 'x'.repeat(1_000_000); // the longest description or message the document allows
    const rows = Array.from({ length: 70 }, (_, i) => ({ i, html: i % 2 ? big : null }));
    const batches = htmlBatches(rows, (r) => r.html);
    expect(batches.flat()).toEqual(rows);
    for (const b of batches)
      expect(b.reduce((n, r) => n + (r.html?.length ?? 0), 0)).toBeLessThanOrEqual(32e6);
    expect(batches.length).toBe(2);
  });

  it('keeps a single row over the limit in a batch of its own', () => {
    const rows = [{ html: 'x'.repeat(40_000_000) }, { html: 'y' }];
    expect(htmlBatches(rows, (r) => r.html).map((b) => b.length)).toEqual([1, 1]);
  });
});
