import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from './context';
import { lockBlob } from './files';

export const SWEEP_DEFAULTS = {
  /** How often a process looks for expired uploads, dead temp files and blobs of failed requests. */
  intervalMs: 10 * 60_000,
  /** How often (and at start) it also reconciles the whole store with the database. */
  fullIntervalMs: 24 * 3600_000,
  /** An upload nobody attached to a ticket or comment is deleted after this long. */
  unattachedTtlMs: 24 * 3600_000,
  /** A temp file not written to for this long belongs to a request that died (killed, timed out). */
  tmpGraceMs: 60 * 60_000,
  batch: 500,
};

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

export interface SweepCounts {
  expiredUploads: number;
  removedBlobs: number;
  removedTmp: number;
}

/**
 * Keeps the file store (local or S3: it asks the store, never the disk) in step with the database. Safe with several processes: expiring uploads is
 * one DELETE, and a blob is removed only under its advisory lock after re-reading that no `files`
 * row references it (the lock `FileStore.record` holds until its transaction commits).
 */
export class FileSweeper {
  private readonly opts: typeof SWEEP_DEFAULTS;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: Partial<typeof SWEEP_DEFAULTS> = {},
  ) {
    this.opts = { ...SWEEP_DEFAULTS, ...options };
  }

  /**
   * A pass now, then one every interval; the first pass of a day is a full one. Processes sharing the
   * database claim each pass in `file_sweeps` first, so a pass happens once, in one of them.
   */
  start(): void {
    const tick = () => {
      this.running = this.claimTurn()
        .then(async (turn) => {
          // One line per pass, in the process that ran it (two processes: one line per interval).
          if (turn) this.log.info({ ...(await this.sweep(turn)), full: turn.full }, 'file store swept');
        })
        .catch((err: unknown) => this.log.error({ err }, 'file sweep failed'))
        .finally(() => {
          this.running = undefined;
          if (this.stopped) return;
          this.timer = setTimeout(tick, this.opts.intervalMs);
          this.timer.unref();
        });
    };
    tick();
  }

  /**
   * This process's turn, or undefined when another process swept less than an interval ago (a tenth
   * of it is slack for timers firing early). One UPDATE: two processes cannot both claim it.
   */
  async claimTurn(): Promise<{ full: boolean } | undefined> {
    const now = this.ctx.clock.now();
    const due = new Date(now.getTime() - this.opts.intervalMs * 0.9).toISOString();
    const fullDue = new Date(now.getTime() - this.opts.fullIntervalMs).toISOString();
    const rows = rowsOf<{ full: boolean }>(
      await this.ctx.database.db.execute(sql`
        update file_sweeps set last_at = ${now.toISOString()}::timestamptz,
          last_full_at = case when last_full_at <= ${fullDue}::timestamptz
            then ${now.toISOString()}::timestamptz else last_full_at end
        where id = 1 and last_at <= ${due}::timestamptz
        returning last_full_at = ${now.toISOString()}::timestamptz as full`),
    );
    return rows[0] ? { full: rows[0].full } : undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  async sweep(opts: { full?: boolean } = {}): Promise<SweepCounts> {
    const now = this.ctx.clock.now();
    const counts: SweepCounts = { expiredUploads: 0, removedBlobs: 0, removedTmp: 0 };
    counts.removedTmp = await this.ctx.fileStore.removeDeadStaging(
      new Date(now.getTime() - this.opts.tmpGraceMs),
    );
    const candidates = new Set(this.ctx.fileStore.suspects);
    this.ctx.fileStore.suspects.clear();
    for (const sha of await this.expireUploads(now, counts)) candidates.add(sha);
    if (opts.full) {
      for (const sha of await this.unreferencedBlobRows()) candidates.add(sha);
      for (const sha of await this.blobsWithoutRow()) candidates.add(sha);
    }
    for (const sha of candidates) if (await this.removeIfUnreferenced(sha)) counts.removedBlobs++;
    return counts;
  }

  /** Deletes uploads older than the TTL that were never attached; answers their hashes. */
  private async expireUploads(now: Date, counts: SweepCounts): Promise<string[]> {
    const cutoff = new Date(now.getTime() - this.opts.unattachedTtlMs).toISOString();
    const shas: string[] = [];
    for (;;) {
      const rows = rowsOf<{ sha256: string }>(
        await this.ctx.database.db.execute(sql`
          delete from files where id in (
            select id from files
            where attached_at is null
              and (uploaded_by_contact_id is not null or uploaded_by_staff_id is not null)
              and created_at < ${cutoff}::timestamptz
            order by created_at limit ${this.opts.batch})
          returning sha256`),
      );
      counts.expiredUploads += rows.length;
      shas.push(...rows.map((r) => r.sha256));
      if (rows.length < this.opts.batch) return shas;
    }
  }

  private async unreferencedBlobRows(): Promise<string[]> {
    const out: string[] = [];
    let after = '';
    for (;;) {
      const rows = rowsOf<{ sha256: string }>(
        await this.ctx.database.db.execute(sql`
          select b.sha256 from blobs b
          where b.sha256 > ${after} and not exists (select 1 from files f where f.sha256 = b.sha256)
          order by b.sha256 limit ${this.opts.batch}`),
      );
      out.push(...rows.map((r) => r.sha256));
      if (rows.length < this.opts.batch) return out;
      after = rows[rows.length - 1]!.sha256;
    }
  }

  /** Bytes in the store with no `blobs` row: a process killed between placing them and its commit. */
  private async blobsWithoutRow(): Promise<string[]> {
    const out: string[] = [];
    for await (const batch of this.ctx.fileStore.listBlobs()) {
      const known = new Set(
        rowsOf<{ sha256: string }>(
          await this.ctx.database.db.execute(
            sql`select sha256 from blobs where sha256 in (${sql.join(
              batch.map((b) => sql`${b}`),
              sql`, `,
            )})`,
          ),
        ).map((r) => r.sha256),
      );
      out.push(...batch.filter((b) => !known.has(b)));
    }
    return out;
  }

  /** Removes row and bytes of a blob no `files` row references, under the blob's lock. */
  async removeIfUnreferenced(sha256: string): Promise<boolean> {
    return this.ctx.database.db.transaction(async (tx) => {
      await lockBlob(tx, sha256);
      const used = rowsOf(await tx.execute(sql`select 1 from files where sha256 = ${sha256} limit 1`));
      if (used.length > 0) return false;
      await tx.execute(sql`delete from blobs where sha256 = ${sha256}`);
      await this.ctx.fileStore.remove(sha256);
      return true;
    });
  }
}
