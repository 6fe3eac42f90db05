/**
 * `npm run bench:reports`: the desk's reports (issue 28 item 14: "queries fast at 1,000,000 tickets,
 * each report p99 ≤ 300 ms"). Loads the base of bench/lib/generate.ts into a throwaway PostgreSQL (or
 * the database of BENCH_DATABASE_URL), then puts 1,000,000 tickets into ONE portal (p001) over three
 * years, as a busy helpdesk's: 80 % closed with their close instant, first answers and due times,
 * 8 groups, 20 agents, 50 companies, 5 types, 4 priorities, a rating on one closed ticket in five.
 * Then, as an admin of that portal, one request at a time (a person opening the page), each report in
 * each case below `--samples` times after a warm-up, through the whole app; prints p50 / p99 per case.
 *
 *   npm run bench:reports -- [--tickets N] [--samples S]
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { call } from './lib/cannon';
import { BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort, startThrowawayPg, type ThrowawayPg } from './lib/pg';
import { startServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    tickets: { type: 'string', default: '1000000' },
    samples: { type: 'string', default: '60' },
  },
});
const TICKETS = Number(opt.tickets);
const SAMPLES = Number(opt.samples);
const TARGET_MS = 300;
const ADMIN_EMAIL = 'reports.admin@example.com';
const CHUNK = 100_000;
/** The newest ticket's creation: the report ranges end here. */
const NOW = '2026-11-20T10:00:00Z';
const children = new Set<ChildProcess>();
const log = (...a: unknown[]) => console.error('[reports]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 1,000,000 tickets of portal p001, set-based, `CHUNK` per statement. */
async function load(db: pg.Client): Promise<void> {
  const q = (text: string) => db.query(text);
  const have = await q(`select count(*)::int as n from tickets where ext_id >= 10000000`);
  if ((have.rows[0] as { n: number }).n >= TICKETS) return;
  await q(`insert into assignee_groups (portal_id, ext_id, name)
    select p.id, k, 'Group ' || k from portals p cross join generate_series(1, 8) k where p.key = '${BENCH_PORTAL}'
    on conflict do nothing`);
  await q(`insert into agents (portal_id, ext_id, display_name, first_name, last_name, email)
    select p.id, k, 'Agent ' || k, 'Agent', 'No. ' || k, 'agent' || k || '@example.com'
    from portals p cross join generate_series(3, 20) k where p.key = '${BENCH_PORTAL}' on conflict do nothing`);
  for (let from = 1; from <= TICKETS; from += CHUNK) {
    const to = Math.min(TICKETS, from + CHUNK - 1);
    const started = Date.now();
    // Creation spread over 1,096 days; a ticket closes after 0 … 5,000 minutes (80 % are closed), is
    // first answered after 0 … 600 minutes, due 480 and 2,400 minutes after creation.
    await q(`insert into tickets (portal_id, company_id, ext_id, title, ticket_number, created_on, type_id,
        status_step_id, creator_contact_id, assigned_group_id, assigned_user_id, priority, closed_at,
        first_responded_at, first_response_due_at, resolution_due_at)
      select p.id, co.id, 10000000 + g.i, 'Report ticket ' || g.i, 'R-' || g.i, g.created, tt.id, ss.id, ct.id,
        ag.id, a.id, (g.i % 4)::smallint,
        case when g.closed then g.created + (g.i % 5000) * interval '1 minute' end,
        case when g.i % 20 <> 0 then g.created + (g.i % 600) * interval '1 minute' end,
        g.created + interval '480 minutes', g.created + interval '2400 minutes'
      from (select i, i % 10 < 8 as closed,
              timestamptz '${NOW}' - (i % 1096) * interval '1 day' - (i % 1440) * interval '1 minute' as created
            from generate_series(${from}, ${to}) i) g
      join portals p on p.key = '${BENCH_PORTAL}'
      join companies co on co.portal_id = p.id and co.ext_id = g.i % 50 + 1
      join contacts ct on ct.company_id = co.id and ct.ext_id = (co.ext_id - 1) * 2 + 1
      join ticket_types tt on tt.portal_id = p.id and tt.ext_id = g.i % 5 + 1
      join status_steps ss on ss.portal_id = p.id and ss.ext_id = case when g.closed then 4 else g.i % 3 + 1 end
      left join assignee_groups ag on ag.portal_id = p.id and ag.ext_id = g.i % 9
      left join agents a on a.portal_id = p.id and a.ext_id = g.i % 21`);
    await q(`insert into ticket_ratings (ticket_id, portal_id, rating, created_at, updated_at)
      select t.id, t.portal_id, (t.ext_id % 5 + 1)::smallint, t.closed_at + interval '1 hour',
        t.closed_at + interval '1 hour'
      from tickets t where t.ext_id between ${10000000 + from} and ${10000000 + to} and t.closed
        and t.ext_id % 5 = 0`);
    log(`tickets ${to.toLocaleString('en')} (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  log('vacuum analyze');
  await q('vacuum analyze tickets');
  await q('vacuum analyze ticket_ratings');
}

async function adminToken(b: string, db: pg.Client): Promise<string> {
  await db.query(`insert into staff_users (email, display_name, password_hash, password_changed_at, status)
    select '${ADMIN_EMAIL}', 'Reports Admin', u.password_hash, now(), 'active' from users u
    where u.user_name = '${BENCH_USER}' on conflict do nothing`);
  await db.query(`insert into staff_memberships (staff_user_id, portal_id, role, agent_id)
    select s.id, p.id, 'admin', null from staff_users s, portals p
    where s.email = '${ADMIN_EMAIL}' and p.key = '${BENCH_PORTAL}' on conflict do nothing`);
  const { token } = await call<{ token: string }>(`${b}/api/staff/auth/login`, {
    json: { email: ADMIN_EMAIL, password: BENCH_PASSWORD },
  });
  return token;
}

const CASES: { name: string; q: string }[] = [
  { name: '30 days by day', q: 'from=2026-10-22&to=2026-11-20' },
  { name: '90 days by day, group filter', q: 'from=2026-08-23&to=2026-11-20&group=3' },
  { name: '366 days by week', q: 'from=2025-11-20&to=2026-11-20&granularity=week' },
  {
    name: '366 days by week, by agent',
    q: 'from=2025-11-20&to=2026-11-20&granularity=week&breakdown=agent',
  },
];

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-reports-'));
  const pgc: ThrowawayPg = await startThrowawayPg();
  const server = await startServer(
    { DATA_DIR: dir, DEMO_DATA: 'false', LOG_LEVEL: 'warn', DATABASE_URL: pgc.url },
    await freePort(),
    'bench/lib/bench-server.ts',
    'ignore',
  );
  children.add(server.child);
  const b = server.baseUrl;
  const db = new pg.Client({ connectionString: pgc.url });
  await db.connect();
  try {
    // The base (portals, companies, contacts, users) and a few tickets of every portal.
    await call(`${b}/bench/admin/grow`, { json: { tickets: 1000 } });
    for (;;) {
      await sleep(1000);
      const j = await call<{ running: boolean; error: string | null }>(`${b}/bench/admin/job`);
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
    }
    const started = Date.now();
    log(`loading ${TICKETS.toLocaleString('en')} tickets into ${BENCH_PORTAL}`);
    await load(db);
    log(`loaded in ${Math.round((Date.now() - started) / 1000)} s`);
    const token = await adminToken(b, db);
    const rows: string[] = [];
    let worst = 0;
    for (const kind of ['volume', 'times', 'ratings']) {
      for (const c of CASES) {
        const url = `${b}/api/staff/portals/${BENCH_PORTAL}/reports/${kind}?${c.q}`;
        const once = async () => {
          const t0 = performance.now();
          const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
          return performance.now() - t0;
        };
        for (let i = 0; i < 3; i++) await once();
        const times: number[] = [];
        for (let i = 0; i < SAMPLES; i++) times.push(await once());
        times.sort((x, y) => x - y);
        const p50 = pct(times, 0.5);
        const p99 = pct(times, 0.99);
        worst = Math.max(worst, p99);
        log(`${kind}, ${c.name}: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms`);
        rows.push(
          `| ${kind} | ${c.name} | ${p50.toFixed(0)} | ${p99.toFixed(0)} | ${p99 <= TARGET_MS ? 'met' : '**not met**'} |`,
        );
      }
    }
    const L = [
      `PostgreSQL, ${TICKETS.toLocaleString('en')} tickets in one portal over 3 years; ${SAMPLES} requests per case ` +
        `one at a time after 3 warm-up ones; load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
      '',
      '| report | case | p50 ms | p99 ms | ≤ 300 ms |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      worst <= TARGET_MS
        ? '**Every report met** in this run.'
        : `**Not met** in this run: worst p99 ${worst.toFixed(0)} ms.`,
    ];
    console.log(L.join('\n'));
  } finally {
    await db.end();
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(20_000)]);
    server.child.kill('SIGKILL');
    pgc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const abort = (code: number) => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(code);
};
process.once('SIGINT', () => abort(130));
process.once('SIGTERM', () => abort(143));
await main();
