/**
 * Secrets the server must read back (webhook signing secrets, mailbox passwords) stored encrypted:
 * AES-256-GCM under a key derived with HKDF-SHA256 from the installation's SECRET (every process shares
 * it) and a salt naming what is sealed, the owning row bound as associated data, so a value copied to
 * another portal's row does not open.
 *
 * Format: `sealed.v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts). The key id names the derived
 * key (not secret: an HKDF output of its own), so a value sealed under another SECRET is told apart from
 * a damaged one.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SEALED_PREFIX = 'sealed.v1.';

/** Why a stored value gives nothing. */
export type UnreadableReason = 'other_secret' | 'damaged';

export type Opened = { ok: true; secret: string } | { ok: false; reason: UnreadableReason };

export class SealedBox {
  private readonly key: Buffer;
  /** Names the derived key in sealed values (8 base64url characters). */
  readonly keyId: string;

  /** `salt` names the kind of secret; `aadPrefix` + the owner's id is bound to each value. */
  constructor(
    serverSecret: string,
    salt: string,
    private readonly aadPrefix: string,
  ) {
    const derive = (info: string, length: number) =>
      Buffer.from(hkdfSync('sha256', serverSecret, salt, info, length));
    this.key = derive('aes-256-gcm key v1', 32);
    this.keyId = derive('key id v1', 6).toString('base64url');
  }

  private aad(ownerId: number) {
    return Buffer.from(`${this.aadPrefix}${ownerId}`, 'utf8');
  }

  seal(plain: string, ownerId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(this.aad(ownerId));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return (
      SEALED_PREFIX +
      [
        this.keyId,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        data.toString('base64url'),
      ].join('.')
    );
  }

  open(stored: string, ownerId: number): Opened {
    if (!stored.startsWith(SEALED_PREFIX)) return { ok: false, reason: 'damaged' };
    const [kid, iv, tag, data, extra] = stored.slice(SEALED_PREFIX.length).split('.');
    if (!kid || !iv || !tag || data === undefined || extra !== undefined)
      return { ok: false, reason: 'damaged' };
    if (kid !== this.keyId) return { ok: false, reason: 'other_secret' };
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(this.aad(ownerId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
      return { ok: true, secret: plain.toString('utf8') };
    } catch {
      return { ok: false, reason: 'damaged' };
    }
  }
}
