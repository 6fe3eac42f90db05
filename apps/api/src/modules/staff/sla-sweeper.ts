/**
 * The SLA breach sweep (issue 28 item 13): a loop on the job building block (platform/jobs.ts) whose
 * queue is the tickets themselves. A ticket's `sla_sweep_at` (kept by every writer through the
 * tickets core's clock) is when something of it is next to be told: a target entering "soon", or
 * passing its due time. A pass claims the due tickets with `for update skip locked` and moves their
 * `sla_sweep_at` past a lease in the same statement, so processes sharing one PostgreSQL never take
 * the same ticket; each is then swept in a transaction of its own (tickets/core/sla-sweep.ts), which
 * writes its next `sla_sweep_at`. A process that dies mid-ticket leaves it to be claimed again when the
 * lease ends; the told bits, read under the row lock, make that second look write nothing twice.
 *
 * A policy change is applied the same way, as a queued job rather than in the admin's transaction: the
 * change sets its portal's cursor (`sla_policies.recompute_after`), and each pass first marks the next
 * `recomputeBatch` open tickets after it (ext id order) for a quiet look (SLA_QUIET), so a portal of a
 * hundred thousand open tickets costs its admin one row and the sweep a bounded statement per pass. A
 * change of a company's own targets likewise queues its company (`sla_company_recomputes`).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock';
import type { AppContext } from '../../platform/context';
import { kickOutbox } from '../../platform/outbox';
import { JobRunner, type ClaimRequest, type Settled } from '../../platform/jobs';
import { queryRows } from '../../platform/sql-json';
import { SLA_QUIET, sweepSlaTicket, type SweptTicket } from '../tickets/core';

export const SLA_SWEEP_DEFAULTS = {
  /** How often a process looks for due tickets: a breach is told within this long (SLA_SWEEP_SECONDS). */
  pollMs: 30_000,
  batchSize: 200,
  /** A claimed ticket is hidden from other processes this long, then looked at again. */
  leaseMs: 2 * 60_000,
  /** Tickets swept at once per process (each one short transaction). */
  concurrency: 2,
  /** Open tickets of a changed policy's portal marked for a recompute per pass. */
  recomputeBatch: 500,
};

interface Claimed {
  id: number;
  portal_id: number;
}

export class SlaSweeper {
  private readonly runner: JobRunner<Claimed, SweptTicket>;
  private readonly clock: Clock;
  private readonly recomputeBatch: number;

  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
    options: Partial<typeof SLA_SWEEP_DEFAULTS> & { clock?: Clock } = {},
  ) {
    const { clock, ...rest } = options;
    const o = { ...SLA_SWEEP_DEFAULTS, ...rest };
    this.clock = clock ?? ctx.clock;
    this.recomputeBatch = o.recomputeBatch;
    this.runner = new JobRunner<Claimed, SweptTicket>(
      {
        name: 'sla-sweep',
        claim: (req) => this.claim(req),
        // One key per portal: a portal with a backlog of breaches holds only its own slots.
        keyOf: (row) => Number(row.portal_id),
        attemptsOf: () => 0,
        run: (row) =>
          this.ctx.database.db.transaction((tx) =>
            sweepSlaTicket(tx, this.ctx, Number(row.id), this.clock.now()),
          ),
        record: (settled) => this.record(settled),
      },
      {
        pollMs: o.pollMs,
        batchSize: o.batchSize,
        leaseMs: o.leaseMs,
        concurrency: o.concurrency,
        perKey: o.concurrency,
        perKeyHeld: o.batchSize,
        timeoutMs: 0,
        // A failed ticket is looked at again when its lease ends (the claim moved it there).
        baseBackoffMs: o.leaseMs,
        maxBackoffMs: o.leaseMs,
        jitter: 0,
        maxAttempts: Number.POSITIVE_INFINITY,
        retryWindowMs: Number.POSITIVE_INFINITY,
      },
      log,
      { now: () => this.clock.now() },
    );
  }

  start(): void {
    this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  /** One pass (tests, and the first look at start): answers how many tickets it took. */
  runOnce(): Promise<number> {
    return this.runner.runOnce();
  }

  private async claim(req: ClaimRequest): Promise<Claimed[]> {
    await this.markForRecompute();
    // A range of tickets_sla_sweep_idx, oldest due first.
    return queryRows<Claimed>(
      this.ctx.database.db,
      sql`update tickets t set sla_sweep_at = ${req.leaseUntil.toISOString()}::timestamptz
        from (select id from tickets where sla_sweep_at <= ${req.now.toISOString()}::timestamptz
          order by sla_sweep_at limit ${req.limit}::int for update skip locked) due
        where t.id = due.id
        returning t.id, t.portal_id`,
    );
  }

  /**
   * The next batch of one changed policy's open tickets, due for a quiet look at once (their creation
   * is past); the cursor moves on, or is cleared after the last batch. One portal per pass, skipped by
   * another process that holds it. Then the same for one company whose own targets changed.
   */
  async markForRecompute(): Promise<number> {
    return (await this.markPortalBatch()) + (await this.markCompanyBatch());
  }

  private async markPortalBatch(): Promise<number> {
    const n = this.recomputeBatch;
    const rows = await queryRows<{ n: number }>(
      this.ctx.database.db,
      sql`with p as (select portal_id, recompute_after from sla_policies where recompute_after is not null
          limit 1 for update skip locked),
        batch as (select t.id, t.ext_id from p join lateral (select t.id, t.ext_id from tickets t
            where t.portal_id = p.portal_id and t.ext_id > p.recompute_after and not t.closed
            order by t.ext_id limit ${n}::int) t on true),
        marked as (update tickets t set sla_sweep_at = t.created_on,
            sla_breached = t.sla_breached | ${SLA_QUIET}::smallint
          from batch where t.id = batch.id returning 1),
        moved as (update sla_policies s set recompute_after =
            case when (select count(*) from batch) < ${n}::int then null else (select max(ext_id) from batch) end
          from p where s.portal_id = p.portal_id returning 1)
      select (select count(*) from marked)::int as n, (select count(*) from moved)::int as m`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * A company's batch (0063): its open tickets after its cursor, read from tickets_inbox_company_idx
   * (the company's open tickets, sorted by ext id: a company's are few beside a portal's). The queue's
   * row goes after the last batch; a change of the company's targets meanwhile sets its cursor back.
   */
  private async markCompanyBatch(): Promise<number> {
    const n = this.recomputeBatch;
    const rows = await queryRows<{ n: number }>(
      this.ctx.database.db,
      sql`with q as (select company_id, recompute_after from sla_company_recomputes limit 1
          for update skip locked),
        batch as (select t.id, t.ext_id from q join lateral (select t.id, t.ext_id from tickets t
            where t.company_id = q.company_id and not t.closed and t.ext_id > q.recompute_after
            order by t.ext_id limit ${n}::int) t on true),
        marked as (update tickets t set sla_sweep_at = t.created_on,
            sla_breached = t.sla_breached | ${SLA_QUIET}::smallint
          from batch where t.id = batch.id returning 1),
        moved as (update sla_company_recomputes s set recompute_after = (select max(ext_id) from batch)
          from q where s.company_id = q.company_id and (select count(*) from batch) >= ${n}::int
          returning 1),
        done as (delete from sla_company_recomputes s using q
          where s.company_id = q.company_id and (select count(*) from batch) < ${n}::int returning 1)
      select (select count(*) from marked)::int as n, (select count(*) from moved)::int as m,
        (select count(*) from done)::int as d`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  private record(settled: Settled<Claimed, SweptTicket>[]): Promise<void> {
    let told = 0;
    for (const s of settled) {
      if (s.ok) told += s.result.breached.length + s.result.soon.length;
      else this.log.error({ err: s.error, ticket: s.job.id }, 'SLA sweep of a ticket failed');
    }
    // The notices' e-mails go now rather than at the outbox's next tick.
    if (told > 0) kickOutbox();
    return Promise.resolve();
  }
}
