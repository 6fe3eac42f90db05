/**
 * E-mail as a channel (issue 26, docs/email.md), against the real IMAP server (TEST_IMAP_URL, as the
 * API tests) and a real server process on a throwaway PostgreSQL (fsync on; BENCH_DATABASE_URL: an
 * empty database of your own instead):
 *
 * 1. latency: a customer's reply APPENDed to the support folder, until it is their comment in the
 *    customer's conversation and in the desk's (both routes polled every 25 ms), one message at a time,
 *    the reader idling on the folder (target p99 ≤ 5 s);
 * 2. SMTP: messages sent to `INBOUND_SMTP_PORT` with nodemailer over several connections, each answered
 *    250 only once it is recorded and written (the ingress ingests before it answers), the rate per
 *    address raised by `INBOUND_SMTP_RATE` (target ≥ 50/s);
 * 3. crash: messages queued in a folder before the reader opens it, the server killed (SIGKILL) halfway
 *    through and started again; every message must be exactly one comment or ticket.
 *
 *   TEST_IMAP_URL=imap://user:pass@host:port npm run bench:email [-- --latency 50 --smtp 1000
 *     --connections 8 --drain 1000]   (a part given 0 messages is left out)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { freePort, startThrowawayPg } from './lib/pg';
import { startServer, type RunningServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    latency: { type: 'string', default: '50' },
    smtp: { type: 'string', default: '1000' },
    connections: { type: 'string', default: '8' },
    drain: { type: 'string', default: '1000' },
  },
});
const IMAP_URL = process.env.TEST_IMAP_URL;
if (!IMAP_URL) throw new Error('TEST_IMAP_URL is not set (imap://user:pass@host:port)');
const imapUrl = new URL(IMAP_URL);
const ADMIN_KEY = 'bench-admin-key-0123456789';
const SUPPORT = 'assistenza@sportello.example';
// Demo data: user `demo` (demo@sportello.example) holds contact 11, administrator of its company.
const CUSTOMER = 'demo@sportello.example';
const RUN = randomUUID().slice(0, 8);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function call<T>(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A customer's message: a reply to `ticketNumber` (by its subject), or a new mail when none. */
function letter(marker: string, ticketNumber: string | undefined): Buffer {
  const head =
    `From: Marco Rossi <${CUSTOMER}>\r\nTo: ${SUPPORT}\r\n` +
    `Message-ID: <${marker}@bench.sportello.example>\r\nMIME-Version: 1.0\r\n` +
    `Content-Type: text/plain; charset=utf-8\r\n`;
  // The marker once: in the reply's text (its comment), in a new mail's subject (its ticket's title).
  return Buffer.from(
    ticketNumber
      ? `${head}Subject: Re: Nuova risposta al ticket ${ticketNumber}\r\n\r\n` +
          `Grazie, provo subito. ${marker}\r\n\r\nIl giorno lun, Assistenza ha scritto:\r\n> Riavviare.\r\n`
      : `${head}Subject: Stampante ferma ${marker}\r\n\r\nLa stampante non stampa da stamattina.\r\n`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'sportello-bench-email-'));
const pgDb = await startThrowawayPg({ fsync: true });
const db = new pg.Client({ connectionString: pgDb.url });
const imap = new ImapFlow({
  host: imapUrl.hostname,
  port: Number(imapUrl.port),
  secure: false,
  doSTARTTLS: false,
  auth: { user: decodeURIComponent(imapUrl.username), pass: decodeURIComponent(imapUrl.password) },
  logger: false,
});
const folders: string[] = [];
const port = await freePort();
const smtpPort = await freePort();
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: pgDb.url,
  DEMO_DATA: 'true',
  PORTAL_ADMIN_KEY: ADMIN_KEY,
  INBOUND_SMTP_PORT: String(smtpPort),
  INBOUND_SMTP_RATE: '1000000',
  // Not sent anywhere: the outbox worker writes the customers' and agents' e-mails as files.
  SMTP_URL: '',
};
let server: RunningServer | undefined;
const lines: string[] = [];
const rows: string[] = [];
let crashOk = true;
const out = (s: string) => {
  lines.push(s);
  console.log(s);
};

try {
  out(`bench:email ${new Date().toISOString()}; load average at the start ${load()}`);
  server = await startServer(env, port);
  const base = server.baseUrl;
  await db.connect();
  await imap.connect();
  const newFolder = async (name: string) => {
    const f = `bench-${RUN}-${name}`;
    await imap.mailboxCreate(f);
    folders.push(f);
    return f;
  };
  const useFolder = (folder: string) =>
    call(base, 'PUT', '/api/admin/portals/demo/email/mailbox', ADMIN_KEY, {
      address: SUPPORT,
      imapHost: imapUrl.hostname,
      imapPort: Number(imapUrl.port),
      imapSecurity: 'none',
      imapUser: decodeURIComponent(imapUrl.username),
      password: decodeURIComponent(imapUrl.password),
      folder,
    });
  const { token } = await call<{ token: string }>(base, 'POST', '/api/auth/login', '', {
    userName: 'demo',
    password: 'Sportello-Demo-2026',
  });
  const staff = await call<{ token: string }>(base, 'POST', '/api/staff/auth/login', '', {
    email: 'sara.conti@sportello.example',
    password: 'Sportello-Demo-2026',
  });
  const tickets = await call<{ id: number; ticketNumber: string }[]>(
    base,
    'GET',
    '/api/demo/11/tickets',
    token,
  );
  const numbers = tickets.map((t) => t.ticketNumber);
  const { ticketNumber } = await call<{ ticketNumber: string }>(
    base,
    'GET',
    '/api/demo/11/tickets/1001',
    token,
  );
  const seenBy = async (path: string, auth: string, marker: string) =>
    (await call<{ comments: { message: string }[] }>(base, 'GET', path, auth)).comments.some((c) =>
      c.message.includes(marker),
    );
  const visible = async (marker: string) =>
    (await seenBy('/api/demo/11/tickets/1001', token, marker)) &&
    (await seenBy('/api/staff/portals/demo/tickets/1001', staff.token, marker));

  // The support mailbox (the SMTP receiver takes its address only once it is set).
  const live = await newFolder('live');
  await useFolder(live);

  // ------------------------------------------------------------ 1. APPEND → comment, IDLE
  if (Number(opt.latency) > 0) {
    // The reader takes the new settings at its next pass (≤ 30 s): a first message waits for it.
    const warm = `live-${RUN}-warm`;
    const warmStart = performance.now();
    await imap.append(live, letter(warm, ticketNumber));
    while (!(await visible(warm))) {
      if (performance.now() - warmStart > 120_000)
        throw new Error('the reader did not read the folder in 120 s');
      await sleep(200);
    }
    out(
      `reader on the folder after ${((performance.now() - warmStart) / 1000).toFixed(1)} s (its pass, ≤ 30 s)`,
    );
    const latencies: number[] = [];
    for (let i = 0; i < Number(opt.latency); i++) {
      const marker = `live-${RUN}-${i}`;
      const t0 = performance.now();
      await imap.append(live, letter(marker, ticketNumber));
      while (!(await visible(marker))) {
        if (performance.now() - t0 > 60_000) throw new Error(`${marker} not visible in 60 s`);
        await sleep(25);
      }
      latencies.push(performance.now() - t0);
      await sleep(200);
    }
    const lat = [...latencies].sort((a, b) => a - b);
    const latencyRow =
      `| APPEND → comment on both screens (IDLE), ${lat.length} messages | p50 ${pct(lat, 50).toFixed(0)} ms, ` +
      `p99 ${pct(lat, 99).toFixed(0)} ms, max ${lat.at(-1)!.toFixed(0)} ms | p99 ≤ 5 s | ` +
      `${pct(lat, 99) <= 5000 ? '**met**' : 'not met'} |`;
    out(latencyRow);
    rows.push(latencyRow);
  }
  // ------------------------------------------------------------ 2. SMTP ingress
  if (Number(opt.smtp) > 0) {
    const n = Number(opt.smtp);
    const connections = Number(opt.connections);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: connections,
      maxMessages: Infinity,
    });
    const smtpStart = performance.now();
    const sent = await Promise.allSettled(
      Array.from({ length: n }, (_, i) => {
        const marker = `smtp-${RUN}-${i}`;
        return transport.sendMail({
          envelope: { from: CUSTOMER, to: [SUPPORT] },
          raw: letter(marker, i % 5 === 0 ? undefined : numbers[i % numbers.length]),
        });
      }),
    );
    const smtpSeconds = (performance.now() - smtpStart) / 1000;
    transport.close();
    const refused = sent.filter((s) => s.status === 'rejected');
    if (refused.length) console.log('first refusal:', (refused[0] as PromiseRejectedResult).reason);
    const smtpDone = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from inbound_emails where via = 'smtp' and status = 'done' and message_key like $1`,
          [`%smtp-${RUN}-%`],
        )
      ).rows[0]!.n,
    );
    const smtpRate = smtpDone / smtpSeconds;
    const smtpRow =
      `| SMTP ingress, ${n} messages over ${connections} connections (1 in 5 a new ticket) | ` +
      `${smtpRate.toFixed(1)} messages/s accepted and written (${smtpDone} done, ${refused.length} refused, ` +
      `${smtpSeconds.toFixed(1)} s) | ≥ 50/s | ${smtpRate >= 50 && refused.length === 0 ? '**met**' : 'not met'} |`;
    out(smtpRow);
    rows.push(smtpRow);
  }
  // ------------------------------------------------------------ 3. a queue drained across a SIGKILL
  if (Number(opt.drain) > 0) {
    const total = Number(opt.drain);
    const queue = await newFolder('queue');
    const appendStart = performance.now();
    for (let i = 0; i < total; i++)
      await imap.append(
        queue,
        letter(`drain-${RUN}-${i}`, i % 5 === 0 ? undefined : numbers[i % numbers.length]),
      );
    out(`${total} messages appended in ${((performance.now() - appendStart) / 1000).toFixed(1)} s`);
    const recorded = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `select count(*) as n from inbound_emails where message_key like $1`,
            [`%drain-${RUN}-%`],
          )
        ).rows[0]!.n,
      );
    const drainStart = performance.now();
    await useFolder(queue);
    let before = 0;
    while ((before = await recorded()) < total / 2) {
      if (performance.now() - drainStart > 600_000) throw new Error(`only ${before} read in 10 min`);
      await sleep(100);
    }
    const killedAt = performance.now();
    server.child.kill('SIGKILL');
    await server.exited;
    const atKill = await recorded();
    const firstRate = atKill / ((killedAt - drainStart) / 1000);
    server = await startServer(env, port);
    const restartedAt = performance.now();
    let after = atKill;
    let resumedAt: number | undefined;
    while ((after = await recorded()) < total) {
      if (after > atKill && resumedAt === undefined) resumedAt = performance.now();
      if (performance.now() - restartedAt > 600_000) break;
      await sleep(200);
    }
    const doneAt = performance.now();
    resumedAt ??= doneAt;
    // Every message once: a comment whose text holds its marker, or a ticket whose title does.
    const { rows: perMarker } = await db.query<{ marker: string; n: string }>(
      `select marker, count(*) as n from (
         select substring(message from $1) as marker from ticket_comments where message like $2
         union all
         select substring(title from $1) from tickets where title like $2) m
       group by marker`,
      [`drain-${RUN}-[0-9]+`, `%drain-${RUN}-%`],
    );
    const counts = new Map(perMarker.map((r) => [r.marker, Number(r.n)]));
    const doubled = perMarker.filter((r) => Number(r.n) > 1).length;
    const lost = Array.from({ length: total }, (_, i) => `drain-${RUN}-${i}`).filter(
      (m) => !counts.has(m),
    ).length;
    const notDone = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from inbound_emails where message_key like $1 and status <> 'done'`,
          [`%drain-${RUN}-%`],
        )
      ).rows[0]!.n,
    );
    out(
      `drain: ${atKill} recorded at the SIGKILL after ${((killedAt - drainStart) / 1000).toFixed(1)} s ` +
        `(${firstRate.toFixed(1)}/s, from the settings' change), server up again ` +
        `${((restartedAt - killedAt) / 1000).toFixed(1)} s later, reading resumed after ` +
        `${((resumedAt - restartedAt) / 1000).toFixed(1)} s (the dead process's lease expiring, ≤ 90 s), ` +
        `all ${after} after ${((doneAt - resumedAt) / 1000).toFixed(1)} s more`,
    );
    const drainRow =
      `| ${total} queued messages read across a SIGKILL and a restart (1 in 5 a new ticket) | ` +
      `${counts.size} once, ${lost} lost, ${doubled} doubled, ${notDone} not done | every message once | ` +
      `${lost === 0 && doubled === 0 && notDone === 0 && counts.size === total ? '**met**' : 'not met'} |`;
    out(drainRow);
    rows.push(drainRow);
    crashOk = drainRow.endsWith('**met** |');
  }
  out(`load average at the end ${load()}`);
  console.log(['', '| measure | figure | target | status |', '|---|---|---|---|', ...rows].join('\n'));
  if (!crashOk) process.exitCode = 1;
} finally {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  for (const f of folders) await imap.mailboxDelete(f).catch(() => undefined);
  await imap.logout().catch(() => undefined);
  await db.end().catch(() => undefined);
  pgDb.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
