import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { jobBackoffMs, JobRunner, type ClaimRequest, type JobOptions, type Settled } from './jobs';

interface Job {
  id: number;
  key: string;
  attempts: number;
  createdAt: Date;
}

const OPTS: JobOptions = {
  pollMs: 20,
  batchSize: 10,
  leaseMs: 60_000,
  concurrency: 10,
  perKey: 2,
  perKeyHeld: 2,
  timeoutMs: 0,
  baseBackoffMs: 1000,
  maxBackoffMs: 60_000,
  jitter: 0,
  maxAttempts: 3,
  retryWindowMs: Number.POSITIVE_INFINITY,
};

/** A queue in memory: the claim honours the request as a table's statement would. */
function memoryQueue(jobs: Job[], run: (job: Job, signal: AbortSignal) => Promise<string>) {
  const due = [...jobs];
  const recorded: Settled<Job, string>[][] = [];
  const claims: ClaimRequest[] = [];
  return {
    recorded,
    claims,
    due,
    queue: {
      name: 'memory',
      claim: async (req: ClaimRequest) => {
        claims.push(req);
        const taken: Job[] = [];
        const per: Record<string, number> = { ...req.held };
        for (const j of [...due]) {
          if (taken.length >= req.limit || (per[j.key] ?? 0) >= req.perKeyHeld) continue;
          per[j.key] = (per[j.key] ?? 0) + 1;
          taken.push(j);
          due.splice(due.indexOf(j), 1);
        }
        return taken;
      },
      keyOf: (j: Job) => j.key,
      attemptsOf: (j: Job) => j.attempts,
      createdAtOf: (j: Job) => j.createdAt,
      run,
      record: async (s: Settled<Job, string>[]) => void recorded.push(s),
    },
  };
}

const log = pino({ level: 'silent' });
const now = () => new Date('2026-11-20T10:00:00Z');
const job = (id: number, key: string, attempts = 0): Job => ({ id, key, attempts, createdAt: now() });

describe('the job runner', () => {
  it('runs keys side by side: a job that hangs holds its own key only, outcomes recorded as each ends', async () => {
    const hang = new Promise<string>(() => {});
    const m = memoryQueue(
      [job(1, 'slow'), job(2, 'slow'), job(3, 'slow'), job(4, 'fast'), job(5, 'fast'), job(6, 'fast')],
      (j) => (j.key === 'slow' ? hang : Promise.resolve(`ok ${j.id}`)),
    );
    const runner = new JobRunner(m.queue, OPTS, log, { now });
    runner.start();
    for (let i = 0; i < 100 && m.recorded.flat().length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    const done = m.recorded.flat();
    expect(done.map((s) => s.job.id).sort()).toEqual([4, 5, 6]);
    expect(done.every((s) => s.ok)).toBe(true);
    // The slow key holds two (its perKey), never more: the third stays in the table.
    expect(m.due.map((j) => j.id)).toEqual([3]);
    expect(m.claims.at(-1)!.held).toEqual({ slow: 2 });
    void runner.stop();
  });

  it('retries with back-off, gives up after maxAttempts or past the retry window', async () => {
    const m = memoryQueue([job(1, 'a', 0), job(2, 'a', 2)], () => Promise.reject(new Error('down')));
    const runner = new JobRunner(m.queue, OPTS, log, { now });
    expect(await runner.runOnce()).toBe(2);
    const [first, last] = m.recorded.flat().sort((a, b) => a.job.id - b.job.id);
    expect(first).toMatchObject({ ok: false, attempts: 1, givenUp: false, message: 'down' });
    expect(first?.ok === false && first.nextAt?.toISOString()).toBe('2026-11-20T10:00:01.000Z');
    expect(last).toMatchObject({ ok: false, attempts: 3, givenUp: true, nextAt: null });

    const windowed = memoryQueue([job(1, 'a', 5)], () => Promise.reject(new Error('down')));
    const r2 = new JobRunner(windowed.queue, { ...OPTS, maxAttempts: Infinity, retryWindowMs: 10_000 }, log, {
      now,
    });
    await r2.runOnce();
    // The 6th failure's next try (32 s later) would come past the 10 s window.
    expect(windowed.recorded.flat()[0]).toMatchObject({ givenUp: true, attempts: 6 });
  });

  it('fails a job that does not end within its timeout, and aborts its signal', async () => {
    let aborted = false;
    const m = memoryQueue([job(1, 'a')], (_j, signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise(() => {});
    });
    const runner = new JobRunner(m.queue, { ...OPTS, timeoutMs: 50 }, log, { now });
    await runner.runOnce();
    expect(m.recorded.flat()[0]).toMatchObject({
      ok: false,
      message: 'memory: did not finish within 0.05 s',
    });
    expect(aborted).toBe(true);
  });

  it('backs off doubling, capped, with its jitter around the delay', () => {
    const o = { baseBackoffMs: 1000, maxBackoffMs: 60_000, jitter: 0.25 };
    expect(jobBackoffMs(4, { ...o, jitter: 0 })).toBe(8000);
    expect(jobBackoffMs(4, o, () => 0)).toBe(6000);
    expect(jobBackoffMs(4, o, () => 1)).toBe(10_000);
    expect(jobBackoffMs(30, { ...o, jitter: 0 })).toBe(60_000);
  });
});
