import {
  createHash,
  createHmac,
  createSecretKey,
  randomUUID,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { open, rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { blobs } from '../db/schema';
import { AppError } from './errors';

/** Bytes written to a temp file and hashed, not yet filed under their hash (see FileStore.record). */
export interface StagedBlob {
  sha256: string;
  size: number;
  /** The temp file; gone once `record` placed it or `discard` dropped it. */
  tmp: string;
  /** Set by `record`: the bytes are under their hash (for the caller's transaction to commit). */
  placed?: boolean;
}

export const payloadTooLarge = (maxBytes: number) =>
  new AppError(413, 'payload_too_large', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);

/**
 * Uploads not attached to a ticket or comment yet: deleted after `ttlMs` by the sweeper, and a contact
 * may hold at most `maxCount` of them and `maxUploads` times the largest upload in bytes.
 */
export const PENDING_UPLOADS = { ttlMs: 24 * 3600_000, maxCount: 20, maxUploads: 4 };

/** Namespace of the per-blob advisory locks. */
const BLOB_LOCK = 7_270_010;

/**
 * Takes the blob's lock for the rest of the transaction: placing and removing bytes are serialised.
 * Hashes share 1,024 locks, so an import recording many thousand blobs in one transaction stays far
 * below PostgreSQL's lock table (max_locks_per_transaction × connections).
 */
export async function lockBlob(tx: Tx | Db, sha256: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${BLOB_LOCK}, hashtext(${sha256}) & 1023)`);
}

/**
 * Format and bidirectional control characters (right-to-left override, zero-width marks, isolates),
 * other control characters and line/paragraph separators: they make `invoice\u202Efdp.exe` read as
 * `invoiceexe.pdf` and have no business in a file name.
 */
const UNSAFE_NAME_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A display name without path, control or bidi characters or surrounding blanks (uploads and imports). */
export function cleanFileName(raw: string | undefined): string {
  const name = basename((raw ?? '').replace(/\\/g, '/'))
    .replace(UNSAFE_NAME_CHARS, '')
    .trim()
    .slice(0, 200);
  return name === '' || name === '.' || name === '..' ? 'file' : name;
}

/**
 * Content-addressed file store under DATA_DIR/files. Bytes are staged (written to a temp file,
 * fsynced, hashed) outside any transaction; `record`, inside the transaction that adds the `files`
 * row, takes the blob's advisory lock, adds the `blobs` row and renames the temp file to its SHA-256.
 * Nothing ever deletes a blob synchronously after a failed request (a concurrent request of the same
 * bytes may have committed a row to it): the sweeper removes blobs no row references, under the same
 * lock, after re-reading the rows. See file-sweeper.ts.
 */
export class FileStore {
  readonly tmpDir: string;
  constructor(readonly root: string) {
    this.tmpDir = join(root, 'tmp');
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async stageBuffer(bytes: Buffer | Uint8Array): Promise<StagedBlob> {
    return this.stage(Readable.from([Buffer.from(bytes)]));
  }

  /** Streams `input` to a temp file; above `maxBytes` it throws 413 and keeps nothing. */
  async stage(input: Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<StagedBlob> {
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
    const out = createWriteStream(tmp, { mode: 0o600 });
    try {
      await pipeline(input, meter, out);
      // @fastify/multipart truncates instead of failing when its own limit is hit.
      if ((input as Readable & { truncated?: boolean }).truncated) throw payloadTooLarge(maxBytes);
      const fh = await open(tmp, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      return { sha256: hash.digest('hex'), size, tmp };
    } catch (e) {
      // A pipeline refused at its first chunk fails while the file may still be opening: the stream
      // creates it after that. Remove it once the stream has closed it, or it stays for good.
      if (!out.closed) await new Promise<void>((closed) => out.once('close', () => closed()));
      rmSync(tmp, { force: true });
      throw e;
    }
  }

  /**
   * Inside the caller's transaction (before its `files` row): locks the blob, records its row and
   * files the bytes under their hash, unless identical bytes are already there. The lock is held to
   * the commit, so the sweeper cannot remove the bytes between this check and the caller's row.
   */
  async record(tx: Tx, blob: StagedBlob, now: Date): Promise<void> {
    await lockBlob(tx, blob.sha256);
    await tx
      .insert(blobs)
      .values({ sha256: blob.sha256, size: blob.size, createdAt: now })
      .onConflictDoNothing();
    const dest = this.pathOf(blob.sha256);
    if (existsSync(dest)) rmSync(blob.tmp, { force: true });
    else {
      mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
      await rename(blob.tmp, dest);
    }
    blob.placed = true;
  }

  /**
   * Stages and files bytes without a transaction or lock: only for seeding a store nobody else uses
   * yet (benchmarks, tests), whose caller writes the `blobs` and `files` rows itself.
   */
  async putBuffer(bytes: Buffer | Uint8Array): Promise<{ sha256: string; size: number }> {
    const blob = await this.stageBuffer(bytes);
    const dest = this.pathOf(blob.sha256);
    mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
    await rename(blob.tmp, dest);
    return { sha256: blob.sha256, size: blob.size };
  }

  /** Hashes whose transaction failed after `record`: the sweeper checks them on its next pass. */
  readonly suspects = new Set<string>();

  /**
   * After a failed transaction: drops the temp file, and leaves placed bytes to the sweeper, which
   * removes them only if no committed row references them (another request may share the bytes).
   */
  discard(blob: StagedBlob | undefined): void {
    if (!blob) return;
    rmSync(blob.tmp, { force: true });
    if (blob.placed) this.suspects.add(blob.sha256);
  }

  async size(sha256: string): Promise<number> {
    return (await stat(this.pathOf(sha256))).size;
  }

  read(sha256: string): Readable {
    return createReadStream(this.pathOf(sha256));
  }
}

/**
 * Whom a link was handed to: the session that read it and the contact it was read as. `view`: the
 * session is a staff admin's "see as contact" view (view_sessions), written `v<id>`.
 */
export interface UrlBinding {
  sessionId: number;
  contactId: number;
  view?: boolean;
}

const bindingText = (b: UrlBinding) => `${b.view ? 'v' : ''}${b.sessionId}.${b.contactId}`;

/** `k=[v]<session>.<contact>` of a bound link, or undefined when the value is not one. */
export function parseBinding(k: string | undefined): UrlBinding | undefined {
  const m = k === undefined ? null : /^(v?)(\d{1,10})\.(\d{1,10})$/.exec(k);
  if (!m) return undefined;
  return { sessionId: Number(m[2]), contactId: Number(m[3]), ...(m[1] ? { view: true } : {}) };
}

/**
 * Signs `/api/files/{id}/{name}` links: HMAC over id, expiry and (for links handed to a signed-in
 * contact) the binding, so a link opens one file until it expires. A bound link also stops working
 * when its session ends (logout, expiry) or its user no longer holds the contact: the files route
 * checks that in the database (docs/security.md, "File links").
 */
/** Signatures kept at most (a few MB): a list asked again within the hour signs nothing again. */
const MAC_MEMO_MAX = 50_000;

export class FileUrlSigner {
  private readonly key: KeyObject;
  /**
   * Signatures by what they sign. Expiries are whole hours, so a list's links are the same at every
   * request within an hour: a list of 20 invoices spent more on 20 HMACs than on its statement.
   */
  private readonly macs = new Map<string, string>();

  constructor(
    secret: string,
    private readonly ttlSeconds = 6 * 3600,
  ) {
    // Imported once: createHmac with a string key imports it on every call.
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  private mac(fileId: number, exp: number, bind: UrlBinding | undefined): string {
    const bound = bind ? `:${bindingText(bind)}` : '';
    return createHmac('sha256', this.key).update(`file:${fileId}:${exp}${bound}`).digest('base64url');
  }

  /** `mac` of a link being signed, kept (a link being checked is the caller's input: never kept). */
  private keptMac(fileId: number, exp: number, bind: UrlBinding | undefined): string {
    const key = `${fileId}:${exp}:${bind ? bindingText(bind) : ''}`;
    let mac = this.macs.get(key);
    if (mac === undefined) {
      mac = this.mac(fileId, exp, bind);
      if (this.macs.size >= MAC_MEMO_MAX) this.macs.clear();
      this.macs.set(key, mac);
    }
    return mac;
  }

  /**
   * Expiry is rounded up to the hour so the same file keeps one URL for a while (browser cache).
   * `bind` takes a tenant context: with its session known, the link is bound to it.
   */
  sign(
    fileId: number,
    name: string,
    now: Date,
    opts: {
      bind?: { sessionId?: number; viewSessionId?: number; contactId: number };
      ttlSeconds?: number;
    } = {},
  ): string {
    const ttl = opts.ttlSeconds ?? this.ttlSeconds;
    const exp = Math.ceil((now.getTime() / 1000 + ttl) / 3600) * 3600;
    const b = opts.bind;
    const bind: UrlBinding | undefined =
      b?.sessionId !== undefined
        ? { sessionId: b.sessionId, contactId: b.contactId }
        : b?.viewSessionId !== undefined
          ? { sessionId: b.viewSessionId, contactId: b.contactId, view: true }
          : undefined;
    const k = bind ? `&k=${bindingText(bind)}` : '';
    return `/api/files/${fileId}/${encodeURIComponent(name)}?e=${exp}${k}&s=${this.keptMac(fileId, exp, bind)}`;
  }

  verify(
    fileId: number,
    exp: number,
    sig: string,
    now: Date,
    bind?: UrlBinding,
  ): 'ok' | 'expired' | 'invalid' {
    const expected = Buffer.from(this.mac(fileId, exp, bind));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return exp * 1000 < now.getTime() ? 'expired' : 'ok';
  }
}

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name, without control or bidi characters. */
export function contentDisposition(kind: 'inline' | 'attachment', raw: string): string {
  const name = cleanFileName(raw);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
