import { describe, expect, it } from 'vitest';
import { connectionLimit, FD_RESERVE, openFileLimit } from './fd-limit';

describe('connection limit from the fd limit', () => {
  it('reads the soft limit and keeps a reserve for the process’s own files', () => {
    const limits =
      'Limit                     Soft Limit           Hard Limit           Units\n' +
      'Max open files            1024                 1048576              files\n';
    expect(openFileLimit(limits)).toBe(1024);
    expect(connectionLimit(1024)).toBe(1024 - FD_RESERVE);
    expect(connectionLimit(200)).toBe(16);
    expect(openFileLimit('Max open files            unlimited            unlimited            files\n')).toBe(
      undefined,
    );
  });
});
