/**
 * `npm run bench:integration`: the integration API's figures (issue 12), on PostgreSQL, through the
 * real server process (bench/lib/bench-server.ts, its webhook worker as `npm start` runs it):
 * - event-to-webhook latency while 50 connections write (half new tickets, half comments, as five
 *   contacts of five companies): a loopback receiver verifies every delivery with the `standardwebhooks` package, as an
 *   integrator would, and times it from the event's own timestamp; every event emitted must arrive;
 * - deliveries per second: N events queued at once for one endpoint of a fast local receiver;
 * - a feed page of 1,000 events at 50 connections with E events stored (`GET /api/integration/v1/events`);
 * - the constant route of the same run (figures of different machines compare by their ratio to it).
 * The incremental update and the unchanged re-import are bench/entity-update.ts and bench/import.ts.
 *
 *   npm run bench:integration -- [--events E] [--burst N] [--duration S] [--quick]
 * On a throwaway PostgreSQL (bench/lib/pg.ts), or the empty database of BENCH_DATABASE_URL.
 */
import { createServer } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { autocannon, call, type Cannon } from './lib/cannon';
import { BENCH_CONTACT_EXT, BENCH_PASSWORD, BENCH_PORTAL, BENCH_USER } from './lib/generate';
import { freePort, startThrowawayPg, type ThrowawayPg } from './lib/pg';
import { startServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    events: { type: 'string' },
    burst: { type: 'string' },
    duration: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const QUICK = opt.quick === true;
const EVENTS = Number(opt.events ?? (QUICK ? 100_000 : 1_000_000));
const BURST = Number(opt.burst ?? (QUICK ? 5_000 : 20_000));
const DURATION = Number(opt.duration ?? (QUICK ? 5 : 10));
const CONNECTIONS = 50;
const ADMIN_KEY = 'bench-portal-admin-key-0123456789';
const children = new Set<ChildProcess>();
const log = (...a: unknown[]) => console.error('[integration]', ...a);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** The loopback receiver: verifies each delivery with the library, keeps ids and latencies. */
function receiver() {
  let wh: Webhook | undefined;
  const seen = new Set<string>();
  const latencies: number[] = [];
  const bad: number[] = [0];
  /** Only events above this id count (those of the current measurement). */
  const state = { after: 0 };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      try {
        const event = wh!.verify(body, req.headers as Record<string, string>) as {
          id: string;
          timestamp: string;
        };
        if (!seen.has(event.id)) {
          seen.add(event.id);
          latencies.push(Date.now() - Date.parse(event.timestamp));
        }
        res.writeHead(204).end();
      } catch {
        bad[0]!++;
        res.writeHead(400).end();
      }
    });
  });
  const ready = new Promise<number>((r) =>
    server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)),
  );
  return {
    server,
    ready,
    seen,
    latencies,
    bad,
    set after(id: number) {
      state.after = id;
    },
    use: (secret: string) => (wh = new Webhook(secret)),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-integration-'));
  const pg: ThrowawayPg = await startThrowawayPg();
  const server = await startServer(
    {
      DATA_DIR: dir,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      DATABASE_URL: pg.url,
      PORTAL_ADMIN_KEY: ADMIN_KEY,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    await freePort(),
    'bench/lib/bench-server.ts',
    'ignore',
  );
  children.add(server.child);
  const admin = server.baseUrl;
  const sqlValue = async (text: string) =>
    (await call<{ value: unknown }>(`${admin}/bench/admin/sql`, { json: { text } })).value;
  const rx = receiver();
  const rxPort = await rx.ready;
  let stopApp = async () => {};
  try {
    log('loading the scale data (10,000 tickets)');
    await call(`${admin}/bench/admin/grow`, { json: { tickets: 10_000 } });
    for (;;) {
      await sleep(1000);
      const j = await call<{ running: boolean; error: string | null }>(`${admin}/bench/admin/job`);
      if (j.error) throw new Error(j.error);
      if (!j.running) break;
    }
    // The server as `npm start` runs it, on the same database (processes share one behind a load
    // balancer): its webhook worker delivers; the bench server above only loads and inspects data.
    const app = await startServer(
      {
        DATA_DIR: join(dir, 'app'),
        DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
        DATABASE_URL: pg.url,
        PORTAL_ADMIN_KEY: ADMIN_KEY,
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      await freePort(),
      undefined,
      'ignore',
    );
    children.add(app.child);
    stopApp = async () => {
      app.child.kill('SIGTERM');
      await Promise.race([app.exited, sleep(20_000)]);
      app.child.kill('SIGKILL');
    };
    const b = app.baseUrl;
    const key = await call<{ secret: string }>(`${b}/api/admin/portals/${BENCH_PORTAL}/keys`, {
      json: { name: 'bench', scopes: ['read', 'events'] },
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const auth = { authorization: `Bearer ${key.secret}` };
    const endpoint = await call<{ secret: string }>(`${b}/api/integration/v1/webhooks`, {
      json: { url: `http://127.0.0.1:${rxPort}/hook` },
      headers: auth,
    });
    rx.use(endpoint.secret);
    const portalId = Number(await sqlValue(`select id from portals where key = '${BENCH_PORTAL}'`));
    const typeId = Number(
      await sqlValue(`select ext_id from ticket_types where portal_id = ${portalId} limit 1`),
    );
    // Five contacts of five companies (users of the scale data: 'bench' holds contact 1, 'user<n>'
    // contact n), each writing new tickets and comments on one of its tickets: the writes of a portal
    // spread over companies, as they are (one company's writes queue on its list counter).
    const writers = await Promise.all(
      [1, 3, 5, 7, 9].map(async (contact) => {
        const { token } = await call<{ token: string }>(`${b}/api/auth/login`, {
          json: {
            userName: contact === BENCH_CONTACT_EXT ? BENCH_USER : `user${contact}`,
            password: BENCH_PASSWORD,
          },
        });
        // A ticket of its own to comment on (the smaller scales give some contacts none).
        const created = await call<{ id: number }>(`${b}/api/${BENCH_PORTAL}/${contact}/tickets`, {
          json: { title: 'Bench conversation', taskTypeId: typeId, description: '<p>Comments go here</p>' },
          headers: { authorization: `Bearer ${token}` },
        });
        const ticketId = created.id;
        return { contact, token, ticketId };
      }),
    );
    const ticketId = writers[0]!.ticketId;

    // a. Latency while 50 connections write: the events are those above the largest id before.
    const before = Number(await sqlValue(`select coalesce(max(id), 0) from events`));
    rx.seen.clear();
    rx.latencies.length = 0;
    rx.after = before;
    log(`writing for ${DURATION} s at ${CONNECTIONS} connections`);
    const per = CONNECTIONS / (writers.length * 2);
    const runs = await Promise.all(
      writers.flatMap((w) => {
        const base = `${b}/api/${BENCH_PORTAL}/${w.contact}`;
        const common = { token: w.token, connections: per, onChild: (c: ChildProcess) => children.add(c) };
        return [
          autocannon(`${base}/tickets`, DURATION, {
            ...common,
            json: { title: 'Bench ticket', taskTypeId: typeId, description: '<p>Written by the bench</p>' },
          }),
          autocannon(`${base}/comments`, DURATION, {
            ...common,
            json: { taskId: w.ticketId, message: '<p>A comment of the bench</p>' },
          }),
        ];
      }),
    );
    // Requests still in flight when a run ends commit after it: counted until the count stands.
    const emittedNow = async () =>
      Number(await sqlValue(`select count(*) from events where portal_id = ${portalId} and id > ${before}`));
    let emitted = await emittedNow();
    const drainStart = Date.now();
    while (Date.now() - drainStart < 120_000) {
      if (rx.seen.size >= emitted) {
        await sleep(500);
        const again = await emittedNow();
        if (again === emitted && rx.seen.size >= emitted) break;
        emitted = again;
      } else await sleep(100);
    }
    const latency = {
      writes: runs.reduce((n, r) => n + r.requests, 0),
      writesPerSecond: runs.reduce((n, r) => n + r.rps, 0),
      writeErrors: runs.reduce((n, r) => n + r.errors, 0),
      emitted,
      received: rx.seen.size,
      p50: pct(rx.latencies, 50),
      p99: pct(rx.latencies, 99),
      max: Math.max(...rx.latencies),
      drainMs: Date.now() - drainStart,
      writeP99: Math.max(...runs.map((r) => r.p99)),
    };
    log('latency', latency);

    // b. Deliveries per second: BURST events queued at once.
    rx.after = Number(await sqlValue(`select coalesce(max(id), 0) from events`));
    rx.seen.clear();
    rx.latencies.length = 0;
    const endpointId = Number(
      await sqlValue(`select id from webhook_endpoints where portal_id = ${portalId}`),
    );
    await sqlValue(`with e as (insert into events (portal_id, type, occurred_at, source, data)
        select ${portalId}, 'ticket.comment_added', now(), '{"type":"contact","contactId":1}'::jsonb,
          jsonb_build_object('comment', jsonb_build_object('id', g, 'ticketId', ${ticketId},
            'message', '<p>Burst comment ' || g || ' of the benchmark, about the length of a short reply.</p>'))
        from generate_series(1, ${BURST}) g returning id)
      insert into webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
        select ${endpointId}, e.id, now(), now() from e`);
    const burstStart = Date.now();
    while (rx.seen.size < BURST && Date.now() - burstStart < 300_000) await sleep(20);
    const burst = { events: BURST, received: rx.seen.size, seconds: (Date.now() - burstStart) / 1000 };
    const perSecond = Math.round(burst.received / burst.seconds);
    log('burst', burst, perSecond, '/s');

    // c. The feed at E events.
    log(`storing ${EVENTS.toLocaleString('en')} events`);
    await sqlValue('delete from webhook_endpoints');
    const have = Number(await sqlValue(`select count(*) from events where portal_id = ${portalId}`));
    for (let done = have; done < EVENTS;) {
      const n = Math.min(100_000, EVENTS - done);
      await sqlValue(`insert into events (portal_id, type, occurred_at, source, data)
        select ${portalId}, 'ticket.comment_added', now(), '{"type":"contact","contactId":102}'::jsonb,
          jsonb_build_object('comment', jsonb_build_object('id', g, 'ticketId', g / 10,
            'message', '<p>Hello, this is comment ' || g || ' of the benchmark</p>'),
            'ticket', jsonb_build_object('id', g / 10, 'title', 'Ticket ' || (g / 10), 'companyId', 10))
        from generate_series(${done + 1}, ${done + n}) g`);
      done += n;
    }
    await sqlValue('vacuum analyze events');
    const stored = Number(await sqlValue(`select count(*) from events where portal_id = ${portalId}`));
    const middle = String(
      await sqlValue(`select xid::text || '-' || id from events where portal_id = ${portalId}
        order by xid, id offset ${Math.floor(stored / 2)} limit 1`),
    );
    const feedUrl = `${b}/api/integration/v1/events?after=${middle}&limit=1000`;
    const page = await call<{ events: unknown[] }>(feedUrl, { headers: auth });
    await autocannon(feedUrl, 2, {
      token: key.secret,
      connections: CONNECTIONS,
      onChild: (c) => children.add(c),
    });
    const feed: Cannon = await autocannon(feedUrl, DURATION, {
      token: key.secret,
      connections: CONNECTIONS,
      onChild: (c) => children.add(c),
    });
    // A back office reads its feed one page after another: the page's own time.
    const feedOne: Cannon = await autocannon(feedUrl, DURATION, {
      token: key.secret,
      connections: 1,
      onChild: (c) => children.add(c),
    });
    log('feed', feed, feedOne);

    const constUrl = `${admin}/bench/const`;
    await autocannon(constUrl, 2, { connections: CONNECTIONS, onChild: (c) => children.add(c) });
    const k = await autocannon(constUrl, DURATION, {
      connections: CONNECTIONS,
      onChild: (c) => children.add(c),
    });
    const ratio = (p99: number) => (k.p99 > 0 ? (p99 / k.p99).toFixed(1) : '–');
    const verdict = (ok: boolean) => (ok ? '**met**' : '**not met**');
    const L = [
      `PostgreSQL, the server as \`npm start\` runs it, ${CONNECTIONS} connections, ${DURATION} s per run; ` +
        `load average at the end ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}.`,
      '',
      '| target | figure | status |',
      '|---|---|---|',
      `| event-to-webhook latency p99 ≤ 1 s while ${CONNECTIONS} connections write tickets and comments | p99 ${latency.p99} ms (p50 ${latency.p50}, max ${latency.max}); ${latency.writes} writes by 5 contacts of 5 companies at ${latency.writesPerSecond}/s (p99 ${latency.writeP99} ms, ${latency.writeErrors} errors); ${latency.received} of ${latency.emitted} events received, each verified by \`standardwebhooks\` (${rx.bad[0]} refused) | ${verdict(latency.p99 <= 1000 && latency.received === latency.emitted)} |`,
      `| ≥ 1,000 deliveries/s to a fast local receiver | ${perSecond}/s (${burst.received} of ${burst.events} queued events in ${burst.seconds.toFixed(1)} s) | ${verdict(perSecond >= 1000)} |`,
      `| feed page of 1,000 events p99 ≤ 50 ms with ${stored.toLocaleString('en')} events stored | one reader: p99 ${feedOne.p99} ms (p50 ${feedOne.p50}, ${feedOne.rps} pages/s); ${CONNECTIONS} readers at once: p99 ${feed.p99} ms (p50 ${feed.p50}, ${feed.rps} pages/s, ${ratio(feed.p99)}× the constant route's p99); ${page.events.length} events a page, ${feed.errors + feedOne.errors} errors | ${verdict(feedOne.p99 <= 50)} |`,
      `| constant route (\`/bench/const\`) | ${k.rps} req/s, p50 ${k.p50} ms, p99 ${k.p99} ms | |`,
    ];
    console.log(L.join('\n'));
  } finally {
    await stopApp();
    rx.server.close();
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, sleep(20_000)]);
    server.child.kill('SIGKILL');
    for (const c of children) c.kill('SIGKILL');
    pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
