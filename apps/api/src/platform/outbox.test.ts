import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import type { MailTransport } from './mail';
import {
  backoffMs,
  enqueueEmail,
  enqueueSms,
  kickOutbox,
  OutboxWorker,
  type EmailMessage,
  type OutboxWorkerOptions,
} from './outbox';
import type { SmsTransport } from './sms';

const NOW = '2026-11-20T10:00:00Z';
const ICS =
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Visita\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

interface OutboxRow {
  id: number;
  attempts: number;
  last_error: string | null;
  sent_at: unknown;
  next_attempt_at: unknown;
}

interface Eml {
  headers: Record<string, string>;
  body: string;
  parts: Eml[];
}

/** Minimal RFC 822 reading: header fields (unfolded) and the MIME parts of a multipart body. */
function parseEml(raw: string): Eml {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = Object.fromEntries(
    head
      .replace(/\r?\n[ \t]+/g, ' ')
      .split(/\r?\n/)
      .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const body = rest.join('\n\n');
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const parts: Eml[] = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((p) => parseEml(p.replace(/^\r?\n/, '')))
    : [];
  return { headers, body, parts };
}

describe('outbox worker', () => {
  let t: TestApp;
  let server: Server;
  let webhookUrl: string;
  const received: { to: string; text: string }[] = [];
  let failNext = 0;

  beforeAll(async () => {
    t = await createTestApp({ now: NOW });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (failNext > 0) {
          failNext--;
          res.writeHead(503, { 'content-type': 'text/plain' }).end('provider down');
          return;
        }
        received.push(JSON.parse(body) as { to: string; text: string });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.close();
  });
  beforeEach(async () => {
    t.clock.set(NOW);
    // Each test sees only its own messages.
    await t.ctx.database.db.execute(
      sql`update outbox set sent_at = ${NOW}::timestamptz where sent_at is null`,
    );
  });

  const db = () => t.ctx.database.db;
  const worker = (opts: OutboxWorkerOptions = {}, env: Partial<typeof t.ctx.config> = {}) =>
    new OutboxWorker({ ...t.ctx, config: { ...t.ctx.config, ...env } }, t.app.log, opts);
  const rowOf = async (id: number): Promise<OutboxRow> => {
    const r = await db().execute(
      sql`select id, attempts, last_error, sent_at, next_attempt_at from outbox where id = ${id}`,
    );
    return (r as unknown as { rows: OutboxRow[] }).rows[0]!;
  };
  const lastId = async () => {
    const r = await db().execute(sql`select max(id)::int as id from outbox`);
    return Number((r as unknown as { rows: { id: number }[] }).rows[0]!.id);
  };
  const outboxDir = () => join(t.dataDir, 'outbox');
  const filesOf = (id: number) =>
    existsSync(outboxDir()) ? readdirSync(outboxDir()).filter((f) => f.startsWith(`${id}-`)) : [];

  it('backs off 30 s, doubling, capped at one hour', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => backoffMs(n) / 1000)).toEqual([
      30, 60, 120, 240, 1920, 3600, 3600,
    ]);
  });

  it('writes an e-mail, attachments included, as a parseable .eml file when there is no SMTP', async () => {
    const message: EmailMessage = {
      to: 'mario@acme.example',
      subject: 'Appuntamento confermato – giovedì',
      text: 'Ciao Mario, a presto.',
      html: '<p>Ciao <b>Mario</b>, a presto.</p>',
      attachments: [
        {
          filename: 'invito.ics',
          contentType: 'text/calendar',
          contentBase64: Buffer.from(ICS).toString('base64'),
        },
      ],
    };
    await enqueueEmail(db(), message, t.clock.now());
    const id = await lastId();
    expect(await worker().runOnce()).toBe(1);

    const names = filesOf(id);
    expect(names).toEqual([`${id}-2026-11-20T100000000Z.eml`]);
    const raw = readFileSync(join(outboxDir(), names[0]!), 'utf8');
    const eml = parseEml(raw);
    expect(eml.headers.from).toBe('Sportello <no-reply@localhost>');
    expect(eml.headers.to).toBe('mario@acme.example');
    expect(eml.headers.subject).toMatch(/^=\?UTF-8\?/i); // non-ASCII subject is encoded
    expect(eml.headers.date).toBe('Fri, 20 Nov 2026 10:00:00 +0000');
    const flat = eml.parts.flatMap((p) => (p.parts.length ? p.parts : [p]));
    const ics = flat.find((p) => /invito\.ics/.test(p.headers['content-disposition'] ?? ''));
    expect(ics?.headers['content-type']).toMatch(/^text\/calendar/);
    const icsBody =
      ics?.headers['content-transfer-encoding'] === 'base64'
        ? Buffer.from(ics.body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : ics?.body;
    expect(icsBody?.replace(/\r\n/g, '\n')).toBe(ICS.replace(/\r\n/g, '\n'));
    expect(flat.some((p) => /text\/html/.test(p.headers['content-type'] ?? ''))).toBe(true);

    const row = await rowOf(id);
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(0);
    // Sent rows are not sent again.
    expect(await worker().runOnce()).toBe(0);
    expect(filesOf(id)).toHaveLength(1);
  });

  it('uses MAIL_FROM as the sender when set', async () => {
    await enqueueEmail(db(), { to: 'a@b.example', subject: 'x', text: 'y' }, t.clock.now());
    const id = await lastId();
    await worker({}, { MAIL_FROM: 'ACME <help@acme.example>' }).runOnce();
    const eml = parseEml(readFileSync(join(outboxDir(), filesOf(id)[0]!), 'utf8'));
    expect(eml.headers.from).toBe('ACME <help@acme.example>');
  });

  it('writes an SMS as a .sms.json file when there is no webhook', async () => {
    await enqueueSms(db(), { to: '+393331234567', text: 'Codice: 123456' }, t.clock.now());
    const id = await lastId();
    expect(await worker().runOnce()).toBe(1);
    const names = filesOf(id);
    expect(names).toEqual([`${id}-2026-11-20T100000000Z.sms.json`]);
    expect(JSON.parse(readFileSync(join(outboxDir(), names[0]!), 'utf8'))).toEqual({
      to: '+393331234567',
      text: 'Codice: 123456',
    });
  });

  it('retries a failing SMS webhook with backoff, keeps the error, then delivers', async () => {
    received.length = 0;
    failNext = 2;
    const w = worker({}, { SMS_WEBHOOK_URL: webhookUrl });
    await enqueueSms(db(), { to: '+39333', text: 'ciao' }, t.clock.now());
    const id = await lastId();

    expect(await w.runOnce()).toBe(1);
    let row = await rowOf(id);
    expect(row.attempts).toBe(1);
    expect(row.last_error).toBe('SMS webhook answered 503: provider down');
    expect(row.sent_at).toBeNull();
    expect(new Date(String(row.next_attempt_at)).toISOString()).toBe('2026-11-20T10:00:30.000Z');

    // Not due yet.
    t.clock.advance(29_000);
    expect(await w.runOnce()).toBe(0);
    t.clock.advance(1_000);
    expect(await w.runOnce()).toBe(1);
    row = await rowOf(id);
    expect(row.attempts).toBe(2);
    expect(new Date(String(row.next_attempt_at)).toISOString()).toBe('2026-11-20T10:01:30.000Z');

    t.clock.advance(60_000);
    expect(await w.runOnce()).toBe(1);
    row = await rowOf(id);
    expect(row.sent_at).not.toBeNull();
    expect(row.last_error).toBeNull();
    expect(received).toEqual([{ to: '+39333', text: 'ciao' }]);
  });

  it('gives up after the maximum number of attempts, leaving the row with its error', async () => {
    const failing: SmsTransport = {
      kind: 'webhook',
      send: () => Promise.reject(new Error('no route to provider')),
    };
    const w = worker({ sms: failing, maxAttempts: 3 });
    await enqueueSms(db(), { to: '+39', text: 'x' }, t.clock.now());
    const id = await lastId();
    for (let i = 0; i < 3; i++) {
      expect(await w.runOnce()).toBe(1);
      t.clock.advance(3600_000);
    }
    t.clock.advance(24 * 3600_000);
    expect(await w.runOnce()).toBe(0);
    const row = await rowOf(id);
    expect(row).toMatchObject({ attempts: 3, last_error: 'no route to provider', sent_at: null });
  });

  it('never sends a row twice with two workers on one database', async () => {
    const sent: number[] = [];
    const slow = (): MailTransport => ({
      kind: 'smtp',
      async send(_m, meta) {
        sent.push(meta.id);
        await new Promise((r) => setTimeout(r, 2));
      },
      close() {},
    });
    const n = 40;
    for (let i = 0; i < n; i++)
      await enqueueEmail(db(), { to: `u${i}@x.example`, subject: 's', text: 't' }, t.clock.now());
    const a = worker({ mail: slow(), batchSize: 7 });
    const b = worker({ mail: slow(), batchSize: 7 });
    const drain = async (w: OutboxWorker) => {
      while ((await w.runOnce()) > 0) {
        /* keep going while rows were claimed */
      }
    };
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    expect(sent).toHaveLength(n);
    expect(new Set(sent).size).toBe(n);
    const r = await db().execute(sql`select count(*)::int as n from outbox where sent_at is null`);
    expect(Number((r as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
  });

  it('sends at once when kicked, and flushes what is due when stopped', async () => {
    const sent: string[] = [];
    const mail: MailTransport = {
      kind: 'smtp',
      async send(m) {
        sent.push(m.to);
      },
      close() {},
    };
    // A poll interval far longer than the test: only the kick and stop() can send.
    const w = worker({ mail, pollMs: 600_000 });
    w.start();
    await new Promise((r) => setTimeout(r, 50));
    await enqueueEmail(db(), { to: 'kicked@x.example', subject: 's', text: 't' }, t.clock.now());
    kickOutbox();
    for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual(['kicked@x.example']);

    await enqueueEmail(db(), { to: 'flushed@x.example', subject: 's', text: 't' }, t.clock.now());
    await w.stop();
    expect(sent).toEqual(['kicked@x.example', 'flushed@x.example']);
    // Stopped workers ignore kicks.
    await enqueueEmail(db(), { to: 'late@x.example', subject: 's', text: 't' }, t.clock.now());
    kickOutbox();
    await new Promise((r) => setTimeout(r, 50));
    expect(sent).toHaveLength(2);
  });

  it('makes a claimed row due again when its sender died before recording it', async () => {
    await enqueueEmail(db(), { to: 'lost@x.example', subject: 's', text: 't' }, t.clock.now());
    const id = await lastId();
    const crashing: MailTransport = {
      kind: 'smtp',
      send: () => new Promise(() => {}), // never settles, like a process that died mid-send
      close() {},
    };
    void worker({ mail: crashing, leaseMs: 60_000, sendTimeoutMs: 0 }).runOnce();
    await new Promise((r) => setTimeout(r, 50));
    const sent: number[] = [];
    const ok: MailTransport = { kind: 'smtp', send: async (_m, meta) => void sent.push(meta.id), close() {} };
    expect(await worker({ mail: ok }).runOnce()).toBe(0);
    t.clock.advance(60_000);
    expect(await worker({ mail: ok }).runOnce()).toBe(1);
    expect(sent).toEqual([id]);
  });

  const payloadOf = async (id: number) => {
    const r = await db().execute(sql`select payload from outbox where id = ${id}`);
    return (r as unknown as { rows: { payload: unknown }[] }).rows[0]!.payload;
  };

  it('keeps no body of a sent message, and writes the dev files for the server user only', async () => {
    await enqueueEmail(
      db(),
      { to: 'r@x.example', subject: 'Recupero password', text: 'Apri /reset?token=SECRET-LINK-TOKEN' },
      t.clock.now(),
    );
    const mailId = await lastId();
    await enqueueSms(db(), { to: '+393331234567', text: 'Codice: 654321' }, t.clock.now());
    const smsId = await lastId();
    expect(await worker().runOnce()).toBe(2);
    expect(await payloadOf(mailId)).toEqual({
      to: 'r@x.example',
      subject: 'Recupero password',
      redacted: true,
    });
    expect(await payloadOf(smsId)).toEqual({ to: '+393331234567', redacted: true });
    for (const id of [mailId, smsId]) {
      const [name] = filesOf(id);
      expect(statSync(join(outboxDir(), name!)).mode & 0o077).toBe(0);
    }
  });

  it('removes the .eml and .sms.json files when their sent rows go, after a month', async () => {
    await enqueueEmail(
      db(),
      { to: 'old@x.example', subject: 'Invito', text: '/confirm?token=T' },
      t.clock.now(),
    );
    const mailId = await lastId();
    await enqueueSms(db(), { to: '+393331111111', text: 'Codice: 222222' }, t.clock.now());
    const smsId = await lastId();
    expect(await worker().runOnce()).toBe(2);
    expect(filesOf(mailId)).toHaveLength(1);
    expect(filesOf(smsId)).toHaveLength(1);
    t.clock.advance(29 * 24 * 3600_000);
    await worker().runOnce();
    expect(filesOf(mailId)).toHaveLength(1);
    t.clock.advance(2 * 24 * 3600_000);
    // A file that is not the transport's is not the worker's to remove.
    writeFileSync(join(outboxDir(), 'README.txt'), 'kept');
    await worker().runOnce();
    expect(filesOf(mailId)).toEqual([]);
    expect(filesOf(smsId)).toEqual([]);
    expect(existsSync(join(outboxDir(), 'README.txt'))).toBe(true);
  });

  it('drops the body of a given-up message after a week', async () => {
    await enqueueSms(db(), { to: '+393330000000', text: 'Codice: 111111' }, t.clock.now());
    const id = await lastId();
    const failing: SmsTransport = {
      kind: 'webhook',
      send: async () => {
        throw new Error('provider down');
      },
    };
    await db().execute(sql`update outbox set attempts = 9 where id = ${id}`);
    expect(await worker({ sms: failing }).runOnce()).toBe(1);
    expect(await payloadOf(id)).toMatchObject({ text: 'Codice: 111111' });
    t.clock.advance(6 * 24 * 3600_000);
    await worker({ sms: failing }).runOnce();
    expect(await payloadOf(id)).toMatchObject({ text: 'Codice: 111111' });
    t.clock.advance(2 * 24 * 3600_000);
    await worker({ sms: failing }).runOnce();
    expect(await payloadOf(id)).toEqual({ to: '+393330000000', redacted: true });
  });

  it('never lets a stuck channel delay another, and times out a send that never settles', async () => {
    const sentSms: string[] = [];
    const stuck: MailTransport = { kind: 'smtp', send: () => new Promise(() => {}), close() {} };
    const sms: SmsTransport = { kind: 'webhook', send: async (m) => void sentSms.push(m.text) };
    await enqueueEmail(db(), { to: 'stuck@x.example', subject: 's', text: 't' }, t.clock.now());
    const mailId = await lastId();
    await enqueueSms(db(), { to: '+393331234567', text: 'Codice: 222222' }, t.clock.now());
    const w = worker({ mail: stuck, sms, pollMs: 600_000, sendTimeoutMs: 1500 });
    w.start();
    try {
      for (let i = 0; i < 50 && sentSms.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(sentSms).toEqual(['Codice: 222222']);
      for (let i = 0; i < 150 && (await rowOf(mailId)).attempts === 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      const row = await rowOf(mailId);
      expect(row.attempts).toBe(1);
      expect(row.last_error).toMatch(/did not finish within 1.5 s/);
      expect(row.sent_at).toBeNull();
    } finally {
      await w.stop();
    }
  });
});
