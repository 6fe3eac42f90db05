/**
 * The real API (buildApp, as server.ts builds it) plus, in the same process and on the same database
 * handle, the references of the benchmark and a few loopback-only admin calls. PGlite is one process,
 * so the references and the data generator must live in the server that holds it.
 *
 *   GET  /bench/const            a constant through the whole app (its hooks, headers, logging)
 *   GET  /bench/admin/stats      … and `bareUrl`: a bare Fastify (no plugin, no hook, no logger) in
 *                                this process answering the same constant: the framework's ceiling
 *   GET  /bench/sql/:case        replays the statements the real route ran for that case (captured
 *                                once through the drizzle logger), same driver, and answers the rows
 *   POST /bench/admin/capture    {case, url, token}: runs the real request once, records its statements
 *   POST /bench/admin/grow       {tickets}: starts growing the data; GET /bench/admin/job polls it
 *   GET  /bench/admin/stats      statements sent so far, RSS, heap
 *   POST /bench/admin/list-cache {mb}: the API's list cache budget (0: off)
 *   POST /bench/admin/explain    {case}: explain (analyze, buffers) of the case's last statement
 *   POST /bench/admin/verify     {messages, fileIds}: how many acknowledged writes are in the database
 *   POST /bench/admin/sql        {text}: one scalar (row counts)
 *   POST /bench/admin/staff      {portal, password}: the demo's two desk agents (README) on that portal,
 *                                for the desk's page (bench/page.ts)
 *
 * Env as server.ts: DATA_DIR, DATABASE_URL, PORT, HOST. Never run it on a public interface.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { buildApp } from '../../apps/api/src/app';
import { loadConfig } from '../../apps/api/src/config';
import { openDatabase } from '../../apps/api/src/db/client';
import { migrate } from '../../apps/api/src/db/migrate';
import { systemClock } from '../../apps/api/src/platform/clock';
import type { AppContext } from '../../apps/api/src/platform/context';
import { FileUrlSigner } from '../../apps/api/src/platform/files';
import { openFileStore } from '../../apps/api/src/platform/file-store';
import { logDestination } from '../../apps/api/src/platform/log-stream';
import { loadDemoStaff } from '../../apps/api/src/modules/admin/demo-staff';
import { growTo, rowCounts } from './generate';

interface Statement {
  text: string;
  params: unknown[];
}

const config = loadConfig();
const dataDir = resolve(config.DATA_DIR);
mkdirSync(dataDir, { recursive: true });
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
await migrate(database);
const secret = 'bench-secret-'.padEnd(48, 'x');
const ctx: AppContext = {
  config,
  database,
  clock: systemClock,
  fileStore: openFileStore({ ...config, DATA_DIR: dataDir }),
  signer: new FileUrlSigner(secret),
  secret,
};
// Logged as server.ts logs.
const app = await buildApp(ctx, { logger: { level: config.LOG_LEVEL, stream: logDestination() } });

// The counting logger object is shared by every prepared query: wrapping its method sees them all. Only
// statements of the captured request's own async context are kept (a load run may still be draining).
const capture = new AsyncLocalStorage<Statement[]>();
const logger = (
  database.db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void } } }
).session.logger;
const countQuery = logger.logQuery.bind(logger);
logger.logQuery = (text, params) => {
  countQuery(text, params);
  capture.getStore()?.push({ text, params: [...params] });
};

const cases = new Map<string, Statement[]>();

// On PostgreSQL the replay prepares each statement once per connection (a named statement), as the API
// prepares its hot statements: the reference gets the database's best case, not a re-planned one.
const replayPool = config.DATABASE_URL
  ? new (await import('pg')).default.Pool({ connectionString: config.DATABASE_URL, max: 10 })
  : null;

async function runStatement(s: Statement): Promise<unknown[]> {
  if (replayPool) {
    // Named by its text: a re-captured case with other SQL gets another name.
    const name = `bench_${createHash('sha256').update(s.text).digest('hex').slice(0, 24)}`;
    return (await replayPool.query({ name, text: s.text, values: s.params })).rows;
  }
  return database.withConnection(async (raw) => (await raw.query(s.text, s.params)).rows);
}

const constant = async () => ({ ok: true, service: 'sportello', n: 42 });
app.get('/bench/const', constant);

// The same constant from a bare Fastify in this process (same runtime, same build): what the framework
// alone costs, so the app's own per-request cost reads as a ratio that holds across machines.
const bare = Fastify();
bare.get('/bench/const', constant);
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

app.get<{ Params: { name: string } }>('/bench/sql/:name', async (req, reply) => {
  const list = cases.get(req.params.name);
  if (!list) return reply.code(404).send({ code: 'no_case' });
  let rows: unknown[] = [];
  for (const s of list) rows = await runStatement(s);
  return rows;
});

app.post<{ Body: { name: string; url: string; token: string } }>('/bench/admin/capture', async (req) => {
  const { name, url, token } = req.body;
  const statements: Statement[] = [];
  const res = await capture.run(statements, () =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }),
  );
  cases.set(name, statements);
  return {
    status: res.statusCode,
    bytes: res.body.length,
    statements: statements.length,
    texts: statements.map((s) => s.text.replace(/\s+/g, ' ').slice(0, 160)),
  };
});

let job: { running: boolean; done: number; error: string | null; result: unknown } = {
  running: false,
  done: 0,
  error: null,
  result: null,
};
app.post<{ Body: { tickets: number } }>('/bench/admin/grow', async (req, reply) => {
  if (job.running) return reply.code(409).send({ code: 'busy' });
  job = { running: true, done: 0, error: null, result: null };
  void growTo(database, ctx.fileStore, req.body.tickets, (n) => (job.done = n))
    .then(async (r) => {
      job.result = { ...r, counts: await rowCounts(database) };
    })
    .catch((e: unknown) => (job.error = String((e as Error).stack ?? e)))
    .finally(() => (job.running = false));
  return { started: true };
});
app.get('/bench/admin/job', async () => job);

/** The list cache budget of the running API (LIST_CACHE_MB; 0 turns the cache off). */
app.post<{ Body: { mb: number } }>('/bench/admin/list-cache', async (req) => {
  ctx.config.LIST_CACHE_MB = req.body.mb;
  return { mb: ctx.config.LIST_CACHE_MB };
});

app.get('/bench/admin/stats', async () => {
  const m = process.memoryUsage();
  return {
    statements: database.stats.statements,
    rss: m.rss,
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    kind: database.kind,
    bareUrl,
  };
});

app.post<{ Body: { name: string } }>('/bench/admin/explain', async (req, reply) => {
  const list = cases.get(req.body.name);
  const last = list?.[list.length - 1];
  if (!last) return reply.code(404).send({ code: 'no_case' });
  const rows = (await database.withConnection((raw) =>
    raw.query(`explain (analyze, buffers) ${last.text}`, last.params),
  )) as { rows: { 'QUERY PLAN': string }[] };
  return { plan: rows.rows.map((r) => r['QUERY PLAN']).join('\n') };
});

app.post<{ Body: { messages: string[]; fileIds: number[]; portalKey: string } }>(
  '/bench/admin/verify',
  async (req) => {
    const { messages, fileIds, portalKey } = req.body;
    const r = (await database.db.execute(sql`
      select
        (select count(*) from ticket_comments c where c.message = any(${sql.param(messages)}::text[])) as comments,
        (select count(*) from files f join portals p on p.id = f.portal_id
          where p.key = ${portalKey} and f.id = any(${sql.param(fileIds)}::int[])) as files`)) as unknown as {
      rows: { comments: string | number; files: string | number }[];
    };
    return { comments: Number(r.rows[0]!.comments), files: Number(r.rows[0]!.files) };
  },
);

app.post<{ Body: { text: string } }>('/bench/admin/sql', async (req) => {
  const r = (await database.db.execute(sql.raw(req.body.text))) as unknown as {
    rows: Record<string, unknown>[];
  };
  return { value: Object.values(r.rows[0] ?? {})[0] ?? null };
});

/** The demo's desk agents (marco.ferri@…, sara.conti@…) on a bench portal, linked to its agents 1 and 2. */
app.post<{ Body: { portal: string; password: string } }>('/bench/admin/staff', async (req) => {
  await loadDemoStaff(database.db, req.body.portal, req.body.password, new Date());
  return { ok: true };
});

const stop = async () => {
  await app.close();
  await bare.close();
  await replayPool?.end();
  await database.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());

await app.listen({ port: config.PORT, host: '127.0.0.1' });
