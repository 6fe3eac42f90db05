/**
 * "An incremental ticket update p99 ≤ 20 ms" (issue 12): one back office changes tickets one call at a
 * time through `PATCH /api/integration/v1/tickets/:id` (step, assignee, next planned activity: each
 * call a real change, so each writes its row, its event and its audit row), over HTTP on 127.0.0.1,
 * one request after another. Run:
 *
 *   npx tsx bench/entity-update.ts [tickets] [updates]     default 2,000 tickets, 1,000 updates
 *
 * On the embedded PGlite (in memory) unless DATABASE_URL names a PostgreSQL server (its database is
 * used as it is: give it an empty one). With ROLLUP_COMPARE=1 the updates run in blocks of 100 with the
 * reports' rollup trigger (0060) off and on in turns, and both figures are printed: its write cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/client';
import { migrate } from '../apps/api/src/db/migrate';
import { importDocument } from '../apps/api/src/modules/admin/import.service';
import { generatedDocument } from '../apps/api/src/modules/admin/import.test-support';
import { systemClock } from '../apps/api/src/platform/clock';
import type { AppContext } from '../apps/api/src/platform/context';
import { FileUrlSigner } from '../apps/api/src/platform/files';
import { openFileStore } from '../apps/api/src/platform/file-store';

const TICKETS = Number(process.argv[2] ?? 2000);
const UPDATES = Number(process.argv[3] ?? 1000);
const WARMUP = 50;
const ADMIN_KEY = 'bench-admin-key-0123456789';

const dir = mkdtempSync(join(tmpdir(), 'sportello-bench-entity-'));
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL });
await migrate(database);
const secret = 'bench-secret-'.padEnd(40, 'x');
const ctx: AppContext = {
  config: loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PORTAL_ADMIN_KEY: ADMIN_KEY }),
  database,
  clock: systemClock,
  fileStore: openFileStore(loadConfig({ DATA_DIR: dir })),
  signer: new FileUrlSigner(secret),
  secret,
};

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const app = await buildApp(ctx);
try {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const started = performance.now();
  await importDocument(ctx, generatedDocument(TICKETS, 'bench'));
  console.log(`imported ${TICKETS} tickets in ${Math.round(performance.now() - started)} ms`);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  const keyRes = await fetch(`${base}/api/admin/portals/bench/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read', 'write'] }),
  });
  const { secret: key } = (await keyRes.json()) as { secret: string };

  // The same key reading one ticket: what a request costs on this machine now, with no write.
  const reads: number[] = [];
  for (let i = 0; i < WARMUP + UPDATES; i++) {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/integration/v1/tickets/${10_000 + (i % TICKETS)}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    if (i >= WARMUP) reads.push(performance.now() - t0);
  }

  const times: number[] = [];
  const timesOff: number[] = [];
  const compare = process.env.ROLLUP_COMPARE === '1';
  const rollup = (on: boolean) =>
    database.withConnection((q) =>
      q.query(`alter table tickets ${on ? 'enable' : 'disable'} trigger ticket_report_days_upd`),
    );
  const statements = database.stats.statements;
  for (let i = 0; i < WARMUP + UPDATES * (compare ? 2 : 1); i++) {
    // Blocks of 100 with the trigger off, then on (after the warm-up, which runs with it on).
    const off = compare && i >= WARMUP && Math.floor((i - WARMUP) / 100) % 2 === 0;
    if (compare && i >= WARMUP && (i - WARMUP) % 100 === 0) await rollup(!off);
    const id = 10_000 + ((i * 7919) % TICKETS);
    const body = {
      statusStepId: (i % 3) + 1,
      assignedUserId: i % 2 === 0 ? 1 : null,
      nextPlannedActivityInfo: `Intervento ${i}`,
    };
    const t0 = performance.now();
    const res = await fetch(`${base}/api/integration/v1/tickets/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`PATCH ticket ${id}: ${res.status}`);
    if (i >= WARMUP) (off ? timesOff : times).push(ms);
  }
  if (compare) await rollup(true);
  const perUpdate = (database.stats.statements - statements) / (WARMUP + UPDATES * (compare ? 2 : 1));
  const f = (n: number) => n.toFixed(2);
  const line = (label: string, list: number[]) => {
    list.sort((a, b) => a - b);
    console.log(
      `${label} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${TICKETS} tickets): p50 ${f(pct(list, 50))} ms, ` +
        `p95 ${f(pct(list, 95))} ms, p99 ${f(pct(list, 99))} ms, max ${f(list[list.length - 1]!)} ms`,
    );
  };
  line(`${UPDATES} ticket reads  `, reads);
  if (compare) line(`${UPDATES} ticket updates, rollup trigger off`, timesOff);
  line(`${UPDATES} ticket updates${compare ? ', rollup trigger on ' : ''}`, times);
  console.log(`drizzle statements per update: ${perUpdate.toFixed(1)}`);
  const counts = await database.withConnection((q) =>
    q.query<{ audit: number; events: number }>(
      `select (select count(*)::int from audit_log) as audit,
        (select count(*)::int from events where type = 'ticket.updated') as events`,
    ),
  );
  console.log(`audit rows ${counts.rows[0]?.audit}, ticket.updated events ${counts.rows[0]?.events}`);
} finally {
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
