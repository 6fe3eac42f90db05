import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStore } from './files';

describe('FileStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'sportello-store-'));
  const store = new FileStore(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stores bytes under their SHA-256 and deduplicates', async () => {
    const a = await store.putBuffer(Buffer.from('hello'));
    const b = await store.putBuffer(Buffer.from('hello'));
    expect(a.sha256).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(a.isNew).toBe(true);
    expect(b.isNew).toBe(false);
    expect(await store.size(a.sha256)).toBe(5);
  });

  it('refuses a stream above the limit and keeps nothing', async () => {
    const big = Readable.from([Buffer.alloc(1024), Buffer.alloc(1024)]);
    await expect(store.putStream(big, 1500)).rejects.toMatchObject({ statusCode: 413 });
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
  });

  it('discards new bytes of a failed request', async () => {
    const blob = await store.putBuffer(Buffer.from('to be discarded'));
    store.discard(blob);
    await expect(store.size(blob.sha256)).rejects.toThrow();
  });
});
