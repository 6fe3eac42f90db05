/**
 * `npm run bench:reports`: the desk's reports (issue 28 item 14: "queries fast at 1,000,000 tickets,
 * each report p99 ≤ 300 ms"). Loads the base of bench/lib/generate.ts into a throwaway PostgreSQL (or
 * the database of BENCH_DATABASE_URL), then puts 1,000,000 tickets into ONE portal (p001) over three
 * years, as a busy helpdesk's: 80 % closed with their close instant, first answers and due times,
 * 8 groups, 20 agents, 50 companies, 5 types, 4 priorities, a rating on one closed ticket in five.
 * The tickets are loaded with the rollup's triggers (0060) off and the rollup then rebuilt as the
 * migration's backfill does (timed). Then, as an admin of that portal, one request at a time (a person
 * opening the page), each report in each case below `--samples` times after a warm-up, through the
 * whole app, against two servers on the same database: one reading the tickets (REPORTS_ROLLUP=off,
 * the reports before 0060) and one reading the rollup, in turns; prints p50 / p99 of each and whether
 * their answers (JSON and CSV) are the same bytes.
 *
 *   npm run bench:reports -- [--tickets N] [--samples S] [--kinds volume,times,ratings]
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
    /** Some reports only: `volume,times`. */
    kinds: { type: 'string', default: 'volume,times,ratings' },
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
  // As a database that had its tickets before 0060: the rollup is the backfill's, timed below.
  const triggers = [
    'tickets ticket_report_days_ins',
    'tickets ticket_report_days_upd',
    'ticket_ratings ticket_report_ratings_ins',
  ];
  for (const t of triggers) await q(`alter table ${t.split(' ')[0]} disable trigger ${t.split(' ')[1]}`);
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
  for (const t of triggers) await q(`alter table ${t.split(' ')[0]} enable trigger ${t.split(' ')[1]}`);
  const rebuilt = Date.now();
  await q('select ticket_report_rebuild(null)');
  backfillS = (Date.now() - rebuilt) / 1000;
  log(`rollup rebuilt (the migration's backfill) in ${backfillS.toFixed(0)} s`);
  log('vacuum analyze');
  await q('vacuum analyze tickets');
  await q('vacuum analyze ticket_ratings');
  await q('vacuum analyze ticket_report_days');
}

let backfillS: number | null = null;

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
  const rawDir = mkdtempSync(join(tmpdir(), 'sportello-reports-raw-'));
  const pgc: ThrowawayPg = await startThrowawayPg();
  const server = await startServer(
    { DATA_DIR: dir, DEMO_DATA: 'false', LOG_LEVEL: 'warn', DATABASE_URL: pgc.url },
    await freePort(),
    'bench/lib/bench-server.ts',
    'ignore',
  );
  children.add(server.child);
  const b = server.baseUrl;
  let raw: Awaited<ReturnType<typeof startServer>> | null = null;
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
    // The reports before 0060: a second server on the same database, reading the tickets.
    raw = await startServer(
      {
        DATA_DIR: rawDir,
        DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
        DATABASE_URL: pgc.url,
        REPORTS_ROLLUP: 'off',
      },
      await freePort(),
      'bench/lib/bench-server.ts',
      'ignore',
    );
    children.add(raw.child);
    const token = await adminToken(b, db);
    const rows: string[] = [];
    let worst = 0;
    let different = 0;
    const loadStart = loadavg()[0]!;
    for (const kind of opt.kinds.split(',')) {
      for (const c of CASES) {
        const path = `/api/staff/portals/${BENCH_PORTAL}/reports/${kind}`;
        const get = async (base: string, csv = false) => {
          const url = `${base}${path}${csv ? '.csv' : ''}?${c.q}`;
          const t0 = performance.now();
          const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body}`);
          return { ms: performance.now() - t0, body };
        };
        const same =
          (await get(raw.baseUrl)).body === (await get(b)).body &&
          (await get(raw.baseUrl, true)).body === (await get(b, true)).body;
        if (!same) different++;
        for (let i = 0; i < 2; i++) {
          await get(raw.baseUrl);
          await get(b);
        }
        const before: number[] = [];
        const after: number[] = [];
        // In turns, so that the machine's load weighs on both alike.
        for (let i = 0; i < SAMPLES; i++) {
          before.push((await get(raw.baseUrl)).ms);
          after.push((await get(b)).ms);
        }
        before.sort((x, y) => x - y);
        after.sort((x, y) => x - y);
        const p99 = pct(after, 0.99);
        worst = Math.max(worst, p99);
        const f = (v: number) => v.toFixed(0);
        log(
          `${kind}, ${c.name}: tickets p50 ${f(pct(before, 0.5))} p99 ${f(pct(before, 0.99))} ms; ` +
            `rollup p50 ${f(pct(after, 0.5))} p99 ${f(p99)} ms${same ? '' : ' — ANSWERS DIFFER'}`,
        );
        rows.push(
          `| ${kind} | ${c.name} | ${f(pct(before, 0.5))} | ${f(pct(before, 0.99))} | ${f(pct(after, 0.5))} | ` +
            `${f(p99)} | ${p99 <= TARGET_MS ? 'met' : '**not met**'} | ${same ? 'yes' : '**no**'} |`,
        );
      }
    }
    const L = [
      `PostgreSQL, ${TICKETS.toLocaleString('en')} tickets in one portal over 3 years; ${SAMPLES} requests per case ` +
        `and server one at a time, the two servers in turns, after 3 warm-up ones; ` +
        (backfillS === null ? '' : `the rollup's backfill took ${backfillS.toFixed(0)} s; `) +
        `load average at the start ${loadStart.toFixed(1)}, at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
      '',
      '| report | case | tickets p50 ms | tickets p99 ms | rollup p50 ms | rollup p99 ms | rollup ≤ 300 ms | same answer |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      (worst <= TARGET_MS
        ? '**Every report met** from the rollup in this run.'
        : `**Not met** from the rollup in this run: worst p99 ${worst.toFixed(0)} ms.`) +
        (different
          ? ` **${different} cases answered differently.**`
          : ' Every answer the same, JSON and CSV.'),
    ];
    console.log(L.join('\n'));
  } finally {
    if (raw) {
      raw.child.kill('SIGTERM');
      await Promise.race([raw.exited, sleep(20_000)]);
      raw.child.kill('SIGKILL');
    }
    await db.end();
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(20_000)]);
    server.child.kill('SIGKILL');
    pgc.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(rawDir, { recursive: true, force: true });
  }
}

const abort = (code: number) => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(code);
};
process.once('SIGINT', () => abort(130));
process.once('SIGTERM', () => abort(143));
await main();
