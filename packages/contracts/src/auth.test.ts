import { describe, expect, it } from 'vitest';
import { confirmRequestSchema, passwordChangeRequestSchema, PASSWORD_MIN_LENGTH } from './auth';
import { issueCode } from './errors';

// 9 characters as people count them, 10 UTF-16 code units: the two counts must agree on both sides.
const nineWithEmoji = '12345678😀';
const tenWithEmoji = '123456789😀';

const codes = (r: { success: boolean; error?: { issues: unknown[] } }) =>
  r.success ? [] : r.error!.issues.map(issueCode);

describe('password rules in the shared schemas', () => {
  it('counts characters, not UTF-16 units, against the minimum', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(10);
    const short = confirmRequestSchema.safeParse({
      token: 't',
      password: nineWithEmoji,
      passwordRepeat: nineWithEmoji,
    });
    expect(codes(short)).toEqual(['password_too_short']);
    const ok = confirmRequestSchema.safeParse({
      token: 't',
      password: tenWithEmoji,
      passwordRepeat: tenWithEmoji,
    });
    expect(ok.success).toBe(true);
    expect(
      codes(passwordChangeRequestSchema.safeParse({ currentPassword: 'x', newPassword: nineWithEmoji })),
    ).toEqual(['password_too_short']);
  });

  it('refuses a repeat that differs, naming the repeat field', () => {
    const r = confirmRequestSchema.safeParse({
      token: 't',
      password: 'long-enough-1',
      passwordRepeat: 'long-enough-2',
    });
    expect(codes(r)).toEqual(['passwords_differ']);
    expect(r.error!.issues[0]!.path).toEqual(['passwordRepeat']);
  });
});
