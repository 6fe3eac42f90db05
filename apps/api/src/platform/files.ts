import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { open, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from './errors';

export interface StoredBlob {
  sha256: string;
  size: number;
  /** True when this call wrote the bytes (nobody had them): a failed transaction should discard them. */
  isNew: boolean;
}

export const payloadTooLarge = (maxBytes: number) =>
  new AppError(413, 'payload_too_large', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);

/**
 * Content-addressed file store under DATA_DIR/files: bytes are written to a temp file, fsynced and
 * renamed to their SHA-256, so a crash never leaves a half-written blob under a real name.
 */
export class FileStore {
  private readonly tmpDir: string;
  constructor(private readonly root: string) {
    this.tmpDir = join(root, 'tmp');
    mkdirSync(this.tmpDir, { recursive: true });
  }

  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async putBuffer(bytes: Buffer | Uint8Array): Promise<StoredBlob> {
    const { Readable } = await import('node:stream');
    return this.putStream(Readable.from([Buffer.from(bytes)]));
  }

  /** Streams `input` to the store; above `maxBytes` it throws 413 and keeps nothing. */
  async putStream(input: Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<StoredBlob> {
    const tmp = join(this.tmpDir, randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > maxBytes) return cb(payloadTooLarge(maxBytes));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(input, meter, createWriteStream(tmp));
      // @fastify/multipart truncates instead of failing when its own limit is hit.
      if ((input as Readable & { truncated?: boolean }).truncated) throw payloadTooLarge(maxBytes);
      const fh = await open(tmp, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      const sha256 = hash.digest('hex');
      const dest = this.pathOf(sha256);
      if (existsSync(dest)) {
        rmSync(tmp, { force: true });
        return { sha256, size, isNew: false };
      }
      mkdirSync(join(dest, '..'), { recursive: true });
      await rename(tmp, dest);
      return { sha256, size, isNew: true };
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
  }

  /** Removes bytes written by a request whose transaction failed. */
  discard(blob: StoredBlob): void {
    if (blob.isNew) rmSync(this.pathOf(blob.sha256), { force: true });
  }

  async size(sha256: string): Promise<number> {
    return (await stat(this.pathOf(sha256))).size;
  }

  read(sha256: string): Readable {
    return createReadStream(this.pathOf(sha256));
  }
}

/** Signs `/api/files/{id}/{name}` links: HMAC over id and expiry, so a link opens one file until it expires. */
export class FileUrlSigner {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 6 * 3600,
  ) {}

  private mac(fileId: number, exp: number): string {
    return createHmac('sha256', this.secret).update(`file:${fileId}:${exp}`).digest('base64url');
  }

  /** Expiry is rounded up to the hour so the same file keeps one URL for a while (browser cache). */
  sign(fileId: number, name: string, now: Date): string {
    const exp = Math.ceil((now.getTime() / 1000 + this.ttlSeconds) / 3600) * 3600;
    return `/api/files/${fileId}/${encodeURIComponent(name)}?e=${exp}&s=${this.mac(fileId, exp)}`;
  }

  verify(fileId: number, exp: number, sig: string, now: Date): 'ok' | 'expired' | 'invalid' {
    const expected = Buffer.from(this.mac(fileId, exp));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return exp * 1000 < now.getTime() ? 'expired' : 'ok';
  }
}
