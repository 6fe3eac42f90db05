import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { basename } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { blobs } from '../db/schema';
import { AppError } from './errors';

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

/** Bytes staged (written where the store keeps unfiled bytes, and hashed), not filed yet. */
export interface StagedBlob {
  sha256: string;
  size: number;
  /** The store's name for the staged bytes; gone once `record` filed them or `discard` dropped them. */
  tmp: string;
  /** Set by `record`: the bytes are under their hash (for the caller's transaction to commit). */
  placed?: boolean;
}

/** Bytes `start` to `end` of a blob, both included (an HTTP `Range`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a download is served as, for a store that hands the browser a link of its own. */
export interface DirectDownload {
  name: string;
  contentType: string;
  disposition: 'inline' | 'attachment';
}

/**
 * The content-addressed store of every file's bytes: `LocalFileStore` (DATA_DIR/files) or
 * `S3FileStore` (FILE_STORE=s3://…), chosen once at start by `openFileStore`; nothing else knows which.
 *
 * Bytes are staged (streamed to a staging place, hashed, the size limit applied while they flow)
 * outside any transaction; `record`, inside the transaction that adds the `files` row, takes the blob's
 * advisory lock, adds the `blobs` row and files the bytes under their SHA-256. Bytes under a hash are
 * only ever complete ones: a failed or killed upload leaves staged bytes at most, which the sweeper
 * removes. Nothing deletes a blob synchronously after a failed request (a concurrent request of the
 * same bytes may have committed a row to it): the sweeper removes blobs no row references, under the
 * same lock, after re-reading the rows. See file-sweeper.ts.
 */
export interface FileStore {
  /** For logs and the operator: where the bytes are (no credentials). */
  readonly description: string;
  /** Which store, for `GET /api/health` alone. */
  readonly kind: 'local' | 's3';
  /** Resolves when the store answers and takes bytes (the health report's check); rejects otherwise. */
  probe(): Promise<void>;
  /** Hashes whose transaction failed after `record`: the sweeper checks them on its next pass. */
  readonly suspects: Set<string>;
  /** Streams `input` to the staging place; above `maxBytes` it throws 413 and keeps nothing. */
  stage(input: Readable, maxBytes?: number): Promise<StagedBlob>;
  stageBuffer(bytes: Buffer | Uint8Array): Promise<StagedBlob>;
  /**
   * Inside the caller's transaction (before its `files` row): locks the blob, records its row and
   * files the bytes under their hash, unless identical bytes are already there. The lock is held to
   * the commit, so the sweeper cannot remove the bytes between this check and the caller's row.
   */
  record(tx: Tx, blob: StagedBlob, now: Date): Promise<void>;
  /**
   * After a failed transaction: drops the staged bytes, and leaves placed bytes to the sweeper, which
   * removes them only if no committed row references them (another request may share the bytes).
   */
  discard(blob: StagedBlob | undefined): Promise<void>;
  /**
   * Stages and files bytes without a transaction or lock: only for seeding a store nobody else uses
   * yet (benchmarks, tests, `npm run files -- copy`), whose caller writes the `blobs` rows itself.
   */
  putBuffer(bytes: Buffer | Uint8Array): Promise<{ sha256: string; size: number }>;
  /** Files staged bytes under `sha256` outside a transaction (the copy tool: a blob row exists). */
  place(tmp: string, sha256: string): Promise<void>;
  /** The blob's bytes, or the range of them; rejects when the blob is not there. */
  read(sha256: string, range?: ByteRange): Promise<Readable>;
  /** The blob's first `n` bytes at most (a PDF's or an image's signature). */
  head(sha256: string, n: number): Promise<Buffer>;
  /** The whole blob in memory: only for files a step reads whole anyway (PDF signing). */
  readAll(sha256: string): Promise<Buffer>;
  exists(sha256: string): Promise<boolean>;
  /** Removes the blob's bytes; only the sweeper calls it, holding the blob's lock. */
  remove(sha256: string): Promise<void>;
  /** Every hash with bytes in the store, in batches (the sweeper's reconciliation, the copy tool). */
  listBlobs(): AsyncIterable<string[]>;
  /** Removes staged bytes older than `before` (requests that died); answers how many. */
  removeDeadStaging(before: Date): Promise<number>;
  /**
   * A link the browser may fetch the bytes from itself, where the store and the operator allow it
   * (S3_PRESIGNED_DOWNLOADS); undefined means the API serves the bytes.
   */
  directUrl(sha256: string, as: DirectDownload): Promise<string | undefined>;
  close(): Promise<void>;
}

const SHA = /^[0-9a-f]{64}$/;
export const isSha256 = (s: string) => SHA.test(s);

/** What both stores share: hashing and limiting while staging, recording under the lock, reading. */
export abstract class BlobStore implements FileStore {
  abstract readonly description: string;
  abstract readonly kind: 'local' | 's3';
  abstract probe(): Promise<void>;
  readonly suspects = new Set<string>();

  /** Writes what `source` gives to a new staging place and answers its name; keeps nothing on error. */
  protected abstract writeStaged(input: Readable, meter: Transform): Promise<string>;
  protected abstract dropStaged(tmp: string): Promise<void>;
  abstract place(tmp: string, sha256: string): Promise<void>;
  abstract read(sha256: string, range?: ByteRange): Promise<Readable>;
  abstract exists(sha256: string): Promise<boolean>;
  abstract remove(sha256: string): Promise<void>;
  abstract listBlobs(): AsyncIterable<string[]>;
  abstract removeDeadStaging(before: Date): Promise<number>;

  async stage(input: Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<StagedBlob> {
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
    const tmp = await this.writeStaged(input, meter);
    // @fastify/multipart truncates instead of failing when its own limit is hit.
    if ((input as Readable & { truncated?: boolean }).truncated) {
      await this.dropStaged(tmp);
      throw payloadTooLarge(maxBytes);
    }
    return { sha256: hash.digest('hex'), size, tmp };
  }

  stageBuffer(bytes: Buffer | Uint8Array): Promise<StagedBlob> {
    return this.stage(Readable.from([Buffer.from(bytes)]));
  }

  async record(tx: Tx, blob: StagedBlob, now: Date): Promise<void> {
    await lockBlob(tx, blob.sha256);
    await tx
      .insert(blobs)
      .values({ sha256: blob.sha256, size: blob.size, createdAt: now })
      .onConflictDoNothing();
    await this.place(blob.tmp, blob.sha256);
    blob.placed = true;
  }

  async putBuffer(bytes: Buffer | Uint8Array): Promise<{ sha256: string; size: number }> {
    const blob = await this.stageBuffer(bytes);
    await this.place(blob.tmp, blob.sha256);
    return { sha256: blob.sha256, size: blob.size };
  }

  async discard(blob: StagedBlob | undefined): Promise<void> {
    if (!blob) return;
    if (blob.placed) this.suspects.add(blob.sha256);
    // What cannot be dropped now (the store unreachable) the sweeper drops once it is old.
    await this.dropStaged(blob.tmp).catch(() => undefined);
  }

  async head(sha256: string, n: number): Promise<Buffer> {
    const stream = await this.read(sha256, { start: 0, end: n - 1 });
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of stream) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= n) break;
      }
    } finally {
      stream.destroy();
    }
    return Buffer.concat(chunks).subarray(0, n);
  }

  async readAll(sha256: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.read(sha256)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  directUrl(_sha256: string, _as: DirectDownload): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  close(): Promise<void> {
    return Promise.resolve();
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
