import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logDestination } from './log-stream';

const dir = mkdtempSync(join(tmpdir(), 'sportello-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the log destination', () => {
  it('gathers lines but writes a quiet server’s line within the second', async () => {
    const file = join(dir, 'quiet.log');
    const stream = logDestination(openSync(file, 'w'));
    stream.write('{"msg":"one line"}\n');
    // Far under the batch: held for now (a write per line is what batching saves).
    expect(readFileSync(file, 'utf8')).toBe('');
    await new Promise((r) => setTimeout(r, 1100));
    expect(readFileSync(file, 'utf8')).toBe('{"msg":"one line"}\n');
  });

  it('writes what it still holds when the process exits', () => {
    const file = join(dir, 'exit.log');
    // A process that logs and exits at once, as the server does after a fatal error or on SIGTERM.
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { openSync } from 'node:fs';
         import { logDestination } from ${JSON.stringify(new URL('./log-stream.ts', import.meta.url).href)};
         const s = logDestination(openSync(${JSON.stringify(file)}, 'w'));
         for (let i = 0; i < 3; i++) s.write('line ' + i + '\\n');
         process.exit(0);`,
      ],
      { stdio: 'pipe' },
    );
    expect(readFileSync(file, 'utf8')).toBe('line 0\nline 1\nline 2\n');
  });
});
