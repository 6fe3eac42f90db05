import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('npm run import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a document with a NUL in a text before touching the database', async () => {
    const file = join(dir, 'doc.json');
    writeFileSync(file, '{"formatVersion":1,"portals":[{"webPortalName":"A\\u0000B"}],"users":[]}');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/import.ts', file], {
      cwd: root,
      env: { ...process.env, DATA_DIR: join(dir, 'data'), DATABASE_URL: '' },
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((res) => child.on('exit', res));
    expect(code).toBe(1);
    expect(err).toContain('control character');
  }, 60_000);
});
