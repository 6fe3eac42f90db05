import { describe, expect, it } from 'vitest';
import { cleanFileName } from './files';

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
