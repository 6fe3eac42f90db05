import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanFileName, FileStore } from './files';

describe('FileStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'sportello-store-'));
  const store = new FileStore(root);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stages bytes in a temp file with their SHA-256', async () => {
    const a = await store.stageBuffer(Buffer.from('hello'));
    expect(a.sha256).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(a.size).toBe(5);
    expect(existsSync(a.tmp)).toBe(true);
    store.discard(a);
    expect(existsSync(a.tmp)).toBe(false);
    // Nothing was placed, so nothing is left for the sweeper either.
    expect(store.suspects.size).toBe(0);
  });

  it('refuses a stream above the limit and keeps nothing', async () => {
    const big = Readable.from([Buffer.alloc(1024), Buffer.alloc(1024)]);
    await expect(store.stage(big, 1500)).rejects.toMatchObject({ statusCode: 413 });
    expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    // Refused at the first chunk, while the temp file may still be opening: nothing left behind either.
    for (let i = 0; i < 20; i++) {
      await expect(store.stage(Readable.from([Buffer.alloc(64)]), 10)).rejects.toMatchObject({
        statusCode: 413,
      });
      expect(readdirSync(join(root, 'tmp'))).toEqual([]);
    }
  });
});

describe('cleanFileName', () => {
  it('drops paths, control, format and bidirectional characters', () => {
    expect(cleanFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('a\u200Bb\u2066c\u2069\u200Fd\u061C.txt')).toBe('abcd.txt');
    expect(cleanFileName('line\u2028break\u2029.txt')).toBe('linebreak.txt');
    expect(cleanFileName('\u202E')).toBe('file');
    expect(cleanFileName('perché è così.pdf')).toBe('perché è così.pdf');
  });
});
