/**
 * The one building block of background work on a queue table (the outbox, webhook deliveries, the
 * e-mail reader): a loop that claims due rows, runs each, and records how each ended. See "Background
 * jobs" in docs/architecture.md.
 *
 * - **Lease**: `claim` takes due rows with `for update skip locked` and moves their next attempt past
 *   the lease in the same statement, so processes sharing the database never take the same row and no
 *   transaction stays open while a job runs. A process that dies mid-job leaves the row to be claimed
 *   again when the lease ends: at least once.
 * - **Keys**: jobs of one key (an outbox channel, a webhook endpoint) run at most `perKey` at once and
 *   hold at most `perKeyHeld` claimed; keys never wait on each other: a job that hangs holds its own
 *   key's slots only, up to `timeoutMs`.
 * - **Outcomes** are recorded as each job ends (those that end together in one `record` call), never
 *   at the end of a batch.
 * - **Retry**: a failure is tried again after `backoffMs` (doubling from `baseBackoffMs` up to
 *   `maxBackoffMs`, with optional jitter), until `maxAttempts` failures or, with `retryWindowMs`, until
 *   the next try would come later than that after the job was made: then it is given up.
 */
import type { FastifyBaseLogger } from 'fastify';

export type JobKey = string | number;

export interface JobOptions {
  /** Longest sleep between passes when nothing wakes the loop. */
  pollMs: number;
  /** Rows claimed by one pass at most. */
  batchSize: number;
  /** A claimed row is hidden from other workers this long (longer than a job may take). */
  leaseMs: number;
  /** Jobs running at once in this process, all keys together. */
  concurrency: number;
  /** Jobs of one key running at once. */
  perKey: number;
  /** Jobs of one key claimed and not yet ended (running or waiting their turn). */
  perKeyHeld: number;
  /** A job not ended after this long fails (and is retried); 0: no limit. */
  timeoutMs: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** ± this fraction of randomness on each delay (0.25: 75 %–125 %), so retries do not come in step. */
  jitter: number;
  /** Failures after which a job is given up (Infinity: only the retry window decides). */
  maxAttempts: number;
  /** A job whose next try would come this long after it was made is given up (Infinity: never). */
  retryWindowMs: number;
}

/** Delay after the `failures`-th failure: base·2^(n−1), capped, with ±`jitter` randomness. */
export function jobBackoffMs(
  failures: number,
  o: Pick<JobOptions, 'baseBackoffMs' | 'maxBackoffMs' | 'jitter'>,
  random = Math.random,
): number {
  const raw = Math.min(o.maxBackoffMs, o.baseBackoffMs * 2 ** Math.max(0, failures - 1));
  return o.jitter > 0 ? Math.round(raw * (1 - o.jitter + 2 * o.jitter * random())) : raw;
}

/** What a claim may take: at most `limit` rows, and per key `perKeyHeld` minus what it holds already. */
export interface ClaimRequest {
  limit: number;
  now: Date;
  leaseUntil: Date;
  perKeyHeld: number;
  /** Rows of each key this process holds (claimed, not ended): `{ [key]: count }`, for a JSON parameter. */
  held: Record<string, number>;
}

/** How one job ended. `attempts` counts this one; `nextAt` is the retry's time (null: done or given up). */
export type Settled<J, R> = { job: J; latencyMs: number; attempts: number; endedAt: Date } & (
  | { ok: true; result: R }
  | { ok: false; error: unknown; message: string; nextAt: Date | null; givenUp: boolean }
);

/** A queue: its table's statements and its work. */
export interface JobQueue<J, R = void> {
  /** For log lines. */
  readonly name: string;
  /** Claims due rows as the request allows (`for update skip locked`, next attempt moved to the lease). */
  claim(req: ClaimRequest): Promise<J[]>;
  keyOf(job: J): JobKey;
  /** Failures before this attempt. */
  attemptsOf(job: J): number;
  /** When the job was made (for `retryWindowMs`). */
  createdAtOf?(job: J): Date;
  /** Does the work; throws to fail. `signal` aborts at the timeout. */
  run(job: J, signal: AbortSignal): Promise<R>;
  /** Writes outcomes (the jobs that ended since the last call, in one go). */
  record(settled: Settled<J, R>[]): Promise<void>;
}

interface Lane<J> {
  running: number;
  waiting: J[];
}

/** Runs a JobQueue: one loop per process and queue, woken by `kick`, `wake` or every `pollMs`. */
export class JobRunner<J, R = void> {
  private readonly lanes = new Map<JobKey, Lane<J>>();
  private running = 0;
  private held = 0;
  private active = false;
  private loopDone: Promise<void> | undefined;
  private sleeping: (() => void) | undefined;
  private again = false;
  private pending: Settled<J, R>[] = [];
  private recording: Promise<void> | undefined;
  /** Resolves when nothing is held any more. */
  private idle: (() => void)[] = [];

  constructor(
    private readonly queue: JobQueue<J, R>,
    readonly opts: JobOptions,
    private readonly log: FastifyBaseLogger,
    private readonly env: {
      now: () => Date;
      /** Resolves on an outside wake-up (a NOTIFY) or after `ms`. */
      wait?: (ms: number) => Promise<void>;
    },
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    this.loopDone = this.loop();
  }

  /** Runs a pass now (or right after the one in flight) instead of at the next tick. */
  kick(): void {
    this.again = true;
    this.sleeping?.();
  }

  /** Stops claiming, and waits for the jobs in flight to end and be recorded. */
  async stop(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.sleeping?.();
    await this.loopDone;
    await this.drain();
  }

  /** One pass, waited for: claims what is due and answers once those jobs ended and are recorded. */
  async runOnce(): Promise<number> {
    const n = await this.pass();
    await this.drain();
    return n;
  }

  private async drain(): Promise<void> {
    if (this.held > 0) await new Promise<void>((r) => this.idle.push(r));
    await this.flush();
  }

  private async loop(): Promise<void> {
    while (this.active) {
      this.again = false;
      let claimed = 0;
      let room = 0;
      try {
        room = this.room();
        claimed = room > 0 ? await this.pass() : 0;
      } catch (err) {
        this.log.error({ err, queue: this.queue.name }, 'job pass failed');
      }
      if (!this.active) break;
      // A full claim means more may be due: go on at once (if there is room).
      if (this.again || (claimed > 0 && claimed >= room && this.room() > 0)) continue;
      await this.sleep(this.opts.pollMs);
    }
  }

  private room(): number {
    return Math.min(this.opts.batchSize, this.opts.concurrency * 2 - this.held);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      // A wake-up of an earlier sleep (a wait that ended late) does not cut this one short.
      const wake = () => {
        clearTimeout(timer);
        if (this.sleeping === wake) this.sleeping = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeping = wake;
      void this.env.wait?.(ms).then(wake);
    });
  }

  /** Claims what the room allows and starts it; answers how many were claimed. */
  private async pass(): Promise<number> {
    const limit = this.room();
    if (limit <= 0) return 0;
    const now = this.env.now();
    const held: Record<string, number> = {};
    for (const [key, lane] of this.lanes) held[String(key)] = lane.running + lane.waiting.length;
    const jobs = await this.queue.claim({
      limit,
      now,
      leaseUntil: new Date(now.getTime() + this.opts.leaseMs),
      perKeyHeld: this.opts.perKeyHeld,
      held,
    });
    for (const job of jobs) {
      const key = this.queue.keyOf(job);
      let lane = this.lanes.get(key);
      if (!lane) this.lanes.set(key, (lane = { running: 0, waiting: [] }));
      lane.waiting.push(job);
      this.held++;
    }
    this.pump();
    return jobs.length;
  }

  /** Starts waiting jobs while their key and the process have room, oldest key first. */
  private pump(): void {
    for (const [key, lane] of this.lanes) {
      while (
        lane.waiting.length > 0 &&
        lane.running < this.opts.perKey &&
        this.running < this.opts.concurrency
      ) {
        const job = lane.waiting.shift()!;
        lane.running++;
        this.running++;
        void this.execute(job).finally(() => {
          lane.running--;
          this.running--;
          this.held--;
          if (lane.running === 0 && lane.waiting.length === 0) this.lanes.delete(key);
          this.pump();
          if (this.held === 0) for (const r of this.idle.splice(0)) r();
          // Room for more: look again now rather than at the next tick.
          if (this.active) this.kick();
        });
      }
    }
  }

  private async execute(job: J): Promise<void> {
    const started = performance.now();
    const abort = new AbortController();
    const t = this.opts.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let settled: Settled<J, R>;
    const attempts = this.queue.attemptsOf(job) + 1;
    try {
      const work = this.queue.run(job, abort.signal);
      const result =
        t > 0
          ? await Promise.race([
              work,
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => {
                  const e = new Error(`${this.queue.name}: did not finish within ${t / 1000} s`);
                  abort.abort(e);
                  reject(e);
                }, t);
              }),
            ])
          : await work;
      settled = { job, ok: true, result, attempts, latencyMs: 0, endedAt: this.env.now() };
    } catch (error) {
      const endedAt = this.env.now();
      const nextMs = endedAt.getTime() + jobBackoffMs(attempts, this.opts);
      const created = this.queue.createdAtOf?.(job)?.getTime() ?? endedAt.getTime();
      const givenUp = attempts >= this.opts.maxAttempts || nextMs - created > this.opts.retryWindowMs;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      settled = {
        job,
        ok: false,
        error,
        message,
        attempts,
        latencyMs: 0,
        endedAt,
        givenUp,
        nextAt: givenUp ? null : new Date(nextMs),
      };
    } finally {
      clearTimeout(timer);
    }
    settled.latencyMs = Math.round(performance.now() - started);
    this.pending.push(settled);
    await this.flush();
  }

  /** Records what ended; outcomes that end while a record is written go in the next one. */
  private async flush(): Promise<void> {
    while (this.recording) await this.recording;
    if (this.pending.length === 0) return;
    const batch = this.pending.splice(0);
    this.recording = this.queue
      .record(batch)
      .catch((err: unknown) => {
        // The rows stay claimed until their lease ends, then run again (at least once).
        this.log.error({ err, queue: this.queue.name, jobs: batch.length }, 'recording job outcomes failed');
      })
      .finally(() => (this.recording = undefined));
    await this.recording;
  }
}
