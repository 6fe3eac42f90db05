import { randomUUID } from 'node:crypto';
import { constants, createWriteStream, mkdirSync } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobStore, isSha256, type ByteRange } from './files';

/**
 * The file store on local disk, `DATA_DIR/files`: blobs at `ab/cd/<sha256>`, staged bytes in `tmp/`
 * (same file system, so filing them is a rename: a blob's path only ever holds complete bytes).
 * The only code that knows where files live on disk.
 */
export class LocalFileStore extends BlobStore {
  readonly tmpDir: string;
  readonly description: string;
  readonly kind = 'local';

  /** The installation's store: `files` in DATA_DIR (the one place that names that directory). */
  static inDataDir(dataDir: string): LocalFileStore {
    return new LocalFileStore(join(resolve(dataDir), 'files'));
  }

  constructor(readonly root: string) {
    super();
    this.tmpDir = join(root, 'tmp');
    this.description = `local ${root}`;
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  protected async writeStaged(input: Readable, meter: Transform): Promise<string> {
    const tmp = join(this.tmpDir, randomUUID());
    const out = createWriteStream(tmp, { mode: 0o600 });
    try {
      await pipeline(input, meter, out);
      const fh = await open(tmp, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      return tmp;
    } catch (e) {
      // A pipeline refused at its first chunk fails while the file may still be opening: the stream
      // creates it after that. Remove it once the stream has closed it, or it stays for good.
      if (!out.closed) await new Promise<void>((closed) => out.once('close', () => closed()));
      await rm(tmp, { force: true });
      throw e;
    }
  }

  protected async dropStaged(tmp: string): Promise<void> {
    await rm(tmp, { force: true });
  }

  async place(tmp: string, sha256: string): Promise<void> {
    const dest = this.pathOf(sha256);
    if (await this.exists(sha256)) return rm(tmp, { force: true });
    await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
    await rename(tmp, dest);
  }

  async read(sha256: string, range?: ByteRange): Promise<Readable> {
    // Opened first, so a missing blob rejects here instead of failing the answer half sent.
    const fh = await open(this.pathOf(sha256), 'r');
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  /** Staging is where every upload is written first. */
  probe(): Promise<void> {
    return access(this.tmpDir, constants.W_OK);
  }

  async exists(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      () => true,
      () => false,
    );
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  async *listBlobs(): AsyncIterable<string[]> {
    let batch: string[] = [];
    for (const a of await safeReaddir(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(a)) continue;
      for (const b of await safeReaddir(join(this.root, a))) {
        for (const name of await safeReaddir(join(this.root, a, b))) {
          if (!isSha256(name)) continue;
          batch.push(name);
          if (batch.length >= 500) {
            yield batch;
            batch = [];
          }
        }
      }
    }
    if (batch.length > 0) yield batch;
  }

  async removeDeadStaging(before: Date): Promise<number> {
    let removed = 0;
    for (const name of await safeReaddir(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      try {
        if ((await stat(path)).mtimeMs < before.getTime()) {
          await rm(path, { force: true });
          removed++;
        }
      } catch {
        // Renamed into place or removed meanwhile.
      }
    }
    return removed;
  }
}

async function safeReaddir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
