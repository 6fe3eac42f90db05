import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';

describe('zod in the browser', () => {
  it('is jitless: it never tries `new Function`, which the CSP (script-src self) refuses', async () => {
    await import('./zod-config');
    expect(z.config().jitless).toBe(true);
  });

  it('is configured by the entry before anything else runs', () => {
    const main = readFileSync(join(__dirname, '../main.tsx'), 'utf8');
    const firstImport = main.split('\n').find((l) => l.startsWith('import '));
    expect(firstImport).toBe("import './app/zod-config';");
  });
});
