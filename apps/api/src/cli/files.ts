/**
 * `npm run files -- copy --to <store>`: copies every blob of this installation's file store (FILE_STORE,
 * or DATA_DIR/files when unset) to another one: `s3://bucket/prefix` (with the S3_* settings and AWS
 * credentials of the environment), `local` (this DATA_DIR/files) or a directory. `--from <store>` reads
 * another store than the configured one.
 *
 * Each blob is streamed through the target's own staging, so its SHA-256 is computed on the way and
 * compared with its name before it is filed: a blob whose bytes do not match is reported and not copied.
 * Resumable: a blob already in the target was verified when it was filed, and is skipped. It reads the
 * stores only, never the database, so the server may run during the copy (see docs/operations.md for
 * the switch-over). Exit codes: 0 copied, 1 some blob failed, 2 usage/configuration.
 */
import { openFileStore } from '../platform/file-store';
import type { FileStore } from '../platform/files';
import { loadCliConfig } from './installation';
import { megabytes, Progress } from './progress';

const USAGE = 'Usage: npm run files -- copy --to <s3://bucket/prefix | local | directory> [--from <store>]';
/** Blobs copied at once: enough to hide the round trips of an object store, few enough for a small machine. */
const PARALLEL = 4;

export function parseArgs(argv: string[]): { to: string; from?: string } | undefined {
  const args = argv.filter((a) => a !== '--');
  if (args[0] !== 'copy') return undefined;
  const opts: Record<string, string> = {};
  for (let i = 1; i < args.length; i += 2) {
    const [k, v] = [args[i], args[i + 1]];
    if ((k !== '--to' && k !== '--from') || v === undefined || v.startsWith('--')) return undefined;
    opts[k.slice(2)] = v;
  }
  return opts.to ? { to: opts.to, from: opts.from } : undefined;
}

export interface CopyCounts {
  copied: number;
  skipped: number;
  failed: string[];
  bytes: number;
}

/** Copies what `source` holds into `target`, verifying each blob's SHA-256; resumable. */
export async function copyBlobs(
  source: FileStore,
  target: FileStore,
  progressOf?: (total: number) => Progress,
): Promise<CopyCounts> {
  const all: string[] = [];
  for await (const batch of source.listBlobs()) all.push(...batch);
  const progress = progressOf?.(all.length);
  const counts: CopyCounts = { copied: 0, skipped: 0, failed: [], bytes: 0 };
  let next = 0;
  const report = () =>
    progress?.update(
      counts.copied + counts.skipped + counts.failed.length,
      `${megabytes(counts.bytes)} copied, ${counts.skipped} already there`,
    );
  const worker = async () => {
    while (next < all.length) {
      const sha = all[next++]!;
      try {
        if (await target.exists(sha)) counts.skipped++;
        else {
          const staged = await target.stage(await source.read(sha));
          if (staged.sha256 !== sha) {
            await target.discard(staged);
            throw new Error(`its bytes hash to ${staged.sha256}`);
          }
          await target.place(staged.tmp, sha);
          counts.copied++;
          counts.bytes += staged.size;
        }
      } catch (e) {
        // The source's sweeper may have removed it meanwhile; anything else is reported.
        if (!(await source.exists(sha).catch(() => true))) counts.skipped++;
        else counts.failed.push(`${sha}: ${(e as Error).message}`);
      }
      report();
    }
  };
  report();
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return counts;
}

async function main(): Promise<number> {
  const parsed = parseArgs(process.argv.slice(2));
  if (!parsed) {
    console.error(USAGE);
    return 2;
  }
  const config = loadCliConfig();
  if (typeof config === 'number') return config;
  let source: FileStore, target: FileStore;
  try {
    source = openFileStore(config, parsed.from);
    target = openFileStore(config, parsed.to);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  if (source.description === target.description) {
    console.error(`The source and the target are the same store (${source.description})`);
    return 2;
  }
  console.error(`Copying ${source.description} → ${target.description}`);
  try {
    let progress = new Progress('files', 0);
    const counts = await copyBlobs(source, target, (total) => (progress = new Progress('files', total)));
    progress.done(
      `${counts.copied} copied (${megabytes(counts.bytes)}), ${counts.skipped} already there, ` +
        `${counts.failed.length} failed, in ${progress.elapsed().toFixed(1)} s`,
    );
    for (const f of counts.failed) console.error(`  not copied: ${f}`);
    return counts.failed.length > 0 ? 1 : 0;
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}

if (process.argv[1] && /cli[\\/]files\.ts$/.test(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
