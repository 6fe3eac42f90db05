import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { BlobStore, contentDisposition, isSha256, type ByteRange, type DirectDownload } from './files';

export interface S3Location {
  bucket: string;
  /** Key prefix without slashes at its ends; '' for the bucket's root. */
  prefix: string;
}

/** `s3://bucket/some/prefix` → its bucket and prefix, or undefined when it is not one. */
export function parseS3Url(url: string): S3Location | undefined {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) return undefined;
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1]!, prefix };
}

export interface S3Options extends S3Location {
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Seconds a presigned download link lives; undefined: downloads are proxied by the API. */
  presignSeconds?: number;
  /** Only for tests: otherwise the SDK's default chain (AWS_ACCESS_KEY_ID, profiles, roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Parts of a streamed upload: 5 MB (S3's least), two in flight, so one upload holds 10 MB at most. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

const notFound = (e: unknown) =>
  e instanceof S3ServiceException && (e.$metadata.httpStatusCode === 404 || e.name === 'NoSuchKey');

/**
 * The file store in an S3-compatible bucket (FILE_STORE=s3://bucket/prefix): blobs at
 * `prefix/blobs/<sha256>`, staged bytes at `prefix/tmp/<uuid>`. Staging streams the bytes with
 * lib-storage's multipart upload (an object appears only when the upload completes; a failed one is
 * aborted), hashing them on the way; filing them is a server-side copy to their hash's key, so a blob's
 * key only ever holds complete, verified bytes. Credentials come from the standard AWS variables.
 */
export class S3FileStore extends BlobStore {
  readonly description: string;
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly blobPrefix: string;
  private readonly tmpPrefix: string;

  constructor(private readonly opts: S3Options) {
    super();
    const base = opts.prefix === '' ? '' : `${opts.prefix}/`;
    this.blobPrefix = `${base}blobs/`;
    this.tmpPrefix = `${base}tmp/`;
    this.description = `s3://${opts.bucket}/${opts.prefix}${opts.endpoint ? ` at ${opts.endpoint}` : ''}`;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      // Checksums only where the operation requires them: many S3-compatible servers refuse the
      // streaming (aws-chunked) checksums the SDK adds by default, and the blob's name is its SHA-256.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  keyOf(sha256: string): string {
    return this.blobPrefix + sha256;
  }

  protected async writeStaged(input: Readable, meter: Transform): Promise<string> {
    const key = this.tmpPrefix + randomUUID();
    const body = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.opts.bucket, Key: key, Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    const [fed, sent] = await Promise.allSettled([pipeline(input, meter, body), upload.done()]);
    if (fed.status === 'fulfilled' && sent.status === 'fulfilled') return key;
    await upload.abort().catch(() => undefined);
    // A single-part upload may have completed before the failure was seen.
    await this.dropStaged(key).catch(() => undefined);
    throw fed.status === 'rejected' ? fed.reason : (sent as PromiseRejectedResult).reason;
  }

  protected async dropStaged(tmp: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: tmp }));
  }

  async place(tmp: string, sha256: string): Promise<void> {
    if (!(await this.exists(sha256)))
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.opts.bucket,
          Key: this.keyOf(sha256),
          CopySource: `${this.opts.bucket}/${tmp.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
    await this.dropStaged(tmp);
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable> {
    const r = await this.client.send(
      new GetObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.keyOf(sha256),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return r.Body as Readable;
  }

  /** A HEAD of a blob nobody has: tells whether the bucket answers to these credentials, costs nothing. */
  async probe(): Promise<void> {
    await this.exists('0'.repeat(64));
  }

  async exists(sha256: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: this.keyOf(sha256) }));
      return true;
    } catch (e) {
      if (notFound(e)) return false;
      throw e;
    }
  }

  async remove(sha256: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: this.keyOf(sha256) }));
  }

  private async *objects(prefix: string): AsyncIterable<{ key: string; modified: Date }[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.opts.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      yield (page.Contents ?? []).map((o) => ({ key: o.Key ?? '', modified: o.LastModified ?? new Date(0) }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async *listBlobs(): AsyncIterable<string[]> {
    for await (const page of this.objects(this.blobPrefix)) {
      const shas = page.map((o) => o.key.slice(this.blobPrefix.length)).filter(isSha256);
      if (shas.length > 0) yield shas;
    }
  }

  async removeDeadStaging(before: Date): Promise<number> {
    let removed = 0;
    for await (const page of this.objects(this.tmpPrefix))
      for (const o of page)
        if (o.modified < before) {
          await this.dropStaged(o.key);
          removed++;
        }
    await this.abortDeadUploads(before);
    return removed;
  }

  /**
   * Multipart uploads of killed processes: never visible as objects, but their parts take room until
   * aborted. A bucket lifecycle rule (AbortIncompleteMultipartUpload) does it too; some S3-compatible
   * servers do not list uploads, which is then left to that rule.
   */
  private async abortDeadUploads(before: Date): Promise<void> {
    let uploads;
    try {
      uploads = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.opts.bucket, Prefix: this.tmpPrefix }),
      );
    } catch {
      return;
    }
    for (const u of uploads.Uploads ?? [])
      if (u.Key && u.UploadId && (u.Initiated ?? new Date(0)) < before)
        await this.client
          .send(
            new AbortMultipartUploadCommand({ Bucket: this.opts.bucket, Key: u.Key, UploadId: u.UploadId }),
          )
          .catch(() => undefined);
  }

  override async directUrl(sha256: string, as: DirectDownload): Promise<string | undefined> {
    if (this.opts.presignSeconds === undefined) return undefined;
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.opts.bucket,
        Key: this.keyOf(sha256),
        ResponseContentType: as.contentType,
        ResponseContentDisposition: contentDisposition(as.disposition, as.name),
      }),
      { expiresIn: this.opts.presignSeconds },
    );
  }

  override close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}
