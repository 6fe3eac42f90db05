import { passwordLength, PASSWORD_MIN_LENGTH } from '@sportello/contracts';
import { badRequest } from './errors';
import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's minimum (19 MiB, 2 passes): ~15 ms here, slow enough for a stolen table.
const OPTIONS = {
  algorithm: 2 /* Argon2id (a const enum upstream) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of nothing in particular, verified when the user is unknown so timing does not tell. */
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password-0');
  await verifyPassword(await dummy, password);
}

/**
 * Checks new passwords the same way for the invitation, recovery and password change, of contacts and
 * staff. The request schemas state the same rules (newPasswordSchema), so this only guards callers that
 * skip them.
 */
export function checkNewPassword(password: string, repeat?: string): void {
  if (repeat !== undefined && password !== repeat)
    throw badRequest('Please check the entered passwords', 'passwords_differ');
  if (passwordLength(password) < PASSWORD_MIN_LENGTH)
    throw badRequest(
      `The password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
      'password_too_short',
    );
}
