/**
 * Webhook delivery to a real receiver on loopback that verifies every message with the
 * `standardwebhooks` library, as an integrator's server would.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyWithSecret, EventFeed, WebhookEndpoint } from '@sportello/contracts';
import { systemClock } from '../../platform/clock';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { bearer } from '../../test/seed';
import { assertPublicTarget, isPublicAddress } from './ssrf';
import { WebhookWorker, webhookBackoffMs, type WebhookWorkerOptions } from './webhook-worker';

type Mode = 'ok' | '500' | 'hang';

interface Received {
  id: string;
  type: string;
  body: { id: string; type: string; data: Record<string, unknown> };
}

/** A receiver that verifies signatures; `script` decides each answer in turn, then `mode`. */
class Receiver {
  server: Server | undefined;
  port = 0;
  received: Received[] = [];
  rejected = 0;
  requests = 0;
  mode: Mode = 'ok';
  script: Mode[] = [];
  secret = '';
  /** Every message as it came, to verify again with other secrets. */
  raw: { body: string; headers: Record<string, string> }[] = [];

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.raw.push({ body, headers: req.headers as Record<string, string> });
    const mode = this.script.shift() ?? this.mode;
    if (mode === 'hang') return; // never answers: the sender's timeout must end it
    if (mode === '500') {
      res.writeHead(500).end('boom');
      return;
    }
    try {
      const parsed = new Webhook(this.secret).verify(
        body,
        req.headers as Record<string, string>,
      ) as Received['body'];
      this.received.push({ id: String(req.headers['webhook-id']), type: parsed.type, body: parsed });
      res.writeHead(204).end();
    } catch {
      this.rejected++;
      res.writeHead(400).end('bad signature');
    }
  }
}

let t: TestApp;
let anna: PersonaAccess;
let key: ApiKeyWithSecret;
const receiver = new Receiver();
const log = pino({ level: 'silent' });
let worker: WebhookWorker | undefined;

const FAST: WebhookWorkerOptions = {
  clock: systemClock,
  baseBackoffMs: 30,
  maxBackoffMs: 120,
  timeoutMs: 300,
  pollMs: 50,
};

function startWorker(opts: WebhookWorkerOptions = {}): WebhookWorker {
  worker = new WebhookWorker(t.ctx, log, { ...FAST, ...opts });
  worker.start();
  return worker;
}

async function until(check: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  secret = key.secret,
) =>
  t.app.inject({
    method,
    url,
    headers: bearer(secret),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function addEndpoint(body: Record<string, unknown> = {}): Promise<{ id: number; secret: string }> {
  const res = await api('POST', '/api/integration/v1/webhooks', { url: receiver.url, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const ep = res.json();
  receiver.secret = ep.secret;
  return ep;
}

let ticketCount = 0;
async function newTicket(): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/acme/102/tickets',
    headers: anna.headers,
    payload: { title: `Hook ${++ticketCount}`, taskTypeId: 1, description: '<p>x</p>', attachments: [] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function disableAll(): Promise<void> {
  await t.ctx.database.db.execute(sql`update webhook_endpoints set enabled = false`);
}

beforeAll(async () => {
  // Real time: receivers check the signature's timestamp against their own clock.
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, now: new Date().toISOString() });
  anna = (await seedPersonas(t)).owner;
  key = (
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: bearer(TEST_ADMIN_KEY),
      payload: { name: 'hooks', scopes: ['events'] },
    })
  ).json();
  await receiver.start();
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await disableAll();
  receiver.received = [];
  receiver.raw = [];
  receiver.rejected = 0;
  receiver.script = [];
  receiver.mode = 'ok';
  if (!receiver.server) await receiver.start(receiver.port);
});
afterAll(async () => {
  await receiver.stop();
  await t?.close();
});

describe('webhook targets', () => {
  it('refuses private, loopback and reserved addresses unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://localhost:8080/x',
      'http://10.1.2.3/x',
      'http://192.168.0.10/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://0.0.0.0/x',
      // IPv4-compatible IPv6 (deprecated ::/96): the IPv4 address it carries is loopback.
      'http://[::127.0.0.1]/x',
      'http://[::10.0.0.1]/x',
      'http://[::]/x',
    ]) {
      await expect(assertPublicTarget(url, false), url).rejects.toMatchObject({
        code: 'webhook_target_refused',
      });
      await expect(assertPublicTarget(url, true)).resolves.toBeUndefined();
    }
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('::808:808')).toBe(false); // ::8.8.8.8 as the resolver writes it
    expect(isPublicAddress('fec0::1')).toBe(false);
  });

  it('does not tell what an internal host resolves to', async () => {
    const refused = await assertPublicTarget('http://localhost/x', false).catch((e: Error) => e);
    expect(refused).toMatchObject({ code: 'webhook_target_refused' });
    expect((refused as Error).message).toBe('localhost resolves to a private, loopback or reserved address');
    expect((refused as Error).message).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it('checks again at connection time, where the address is used', async () => {
    await addEndpoint();
    await newTicket();
    startWorker({ allowPrivate: false });
    await until(async () => {
      const res = await api('GET', '/api/integration/v1/webhooks');
      const ep = (res.json() as { id: number }[]).at(-1)!;
      const log = (await api('GET', `/api/integration/v1/webhooks/${ep.id}/attempts`)).json();
      return log.attempts.length > 0 && /private|loopback/.test(String(log.attempts[0].error));
    });
    expect(receiver.requests).toBe(0);
  });

  it('backs off exponentially with jitter', () => {
    expect(webhookBackoffMs(1, 1000, 60_000, () => 0.5)).toBe(1000);
    expect(webhookBackoffMs(4, 1000, 60_000, () => 0.5)).toBe(8000);
    expect(webhookBackoffMs(20, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(webhookBackoffMs(4, 1000, 60_000, () => 0)).toBe(6000);
    expect(webhookBackoffMs(4, 1000, 60_000, () => 1)).toBe(10_000);
  });
});

describe('webhook delivery', () => {
  it('signs every message so that standardwebhooks verifies it, with the event as body', async () => {
    receiver.requests = 0;
    await addEndpoint();
    const ticketId = await newTicket();
    startWorker();
    await until(() => receiver.received.length === 1);
    const [got] = receiver.received;
    expect(got!.type).toBe('ticket.created');
    expect(got!.id).toBe(got!.body.id);
    expect(got!.body.data.ticket).toMatchObject({ id: ticketId, title: `Hook ${ticketCount}` });
    expect(receiver.rejected).toBe(0);
    // The same message under another secret does not verify: the signature is real.
    expect(() =>
      new Webhook('whsec_' + Buffer.from('other-secret').toString('base64')).verify('{}', {}),
    ).toThrow();
  });

  it('retries after 500s and timeouts, and logs each attempt', async () => {
    const ep = await addEndpoint();
    receiver.script = ['500', 'hang', '500'];
    await newTicket();
    startWorker();
    await until(
      async () => (await api('GET', `/api/integration/v1/webhooks/${ep.id}/attempts`)).json().pending === 0,
    );
    expect(receiver.received).toHaveLength(1);
    const log = (await api('GET', `/api/integration/v1/webhooks/${ep.id}/attempts`)).json();
    const statuses = (log.attempts as { status: number | null; error: string | null }[]).reverse();
    expect(statuses.map((a) => a.status)).toEqual([500, null, 500, 204]);
    expect(statuses[1]!.error).toMatch(/timed out/);
    expect(log.pending).toBe(0);
  });

  it('one receiver that never answers delays no other endpoint, and each outcome is recorded as it ends', async () => {
    const hanging = new Receiver();
    await hanging.start();
    hanging.mode = 'hang';
    try {
      const slow = await api('POST', '/api/integration/v1/webhooks', { url: hanging.url });
      expect(slow.statusCode, slow.body).toBe(201);
      const fast = await addEndpoint();
      const hangMs = 8000;
      startWorker({ timeoutMs: hangMs });
      const started = Date.now();
      for (let i = 1; i <= 3; i++) {
        const sent = Date.now();
        await newTicket();
        await until(() => receiver.received.length === i, hangMs);
        // Each arrives long before the hanging receiver's requests time out.
        expect(Date.now() - sent).toBeLessThan(3000);
        // Its outcome is written as it ends, not once the hanging ones end.
        await until(
          async () =>
            (await api('GET', `/api/integration/v1/webhooks/${fast.id}/attempts`)).json().pending === 0,
          3000,
        );
      }
      expect(Date.now() - started).toBeLessThan(hangMs);
      expect(hanging.requests).toBeGreaterThan(0);
      const slowLog = (await api('GET', `/api/integration/v1/webhooks/${slow.json().id}/attempts`)).json();
      expect(slowLog.attempts).toHaveLength(0);
      expect(receiver.rejected).toBe(0);
    } finally {
      await hanging.stop();
    }
  });

  it('a receiver down for a while then up gets everything, nothing lost', async () => {
    await addEndpoint();
    await receiver.stop();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await newTicket());
    startWorker();
    // Let it fail a few rounds against the closed port.
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received).toEqual([]);
    await receiver.start(receiver.port);
    await until(() => new Set(receiver.received.map((r) => r.id)).size === 5);
    const got = receiver.received.map((r) => (r.body.data.ticket as { id: number }).id).sort();
    expect(got).toEqual([...ids].sort());
  });

  it('sends a disabled endpoint nothing, and disables one failing too long, telling its owner', async () => {
    const ep = await addEndpoint({ notifyEmail: 'ops@crm.example' });
    await api('PATCH', `/api/integration/v1/webhooks/${ep.id}`, { enabled: false });
    await newTicket();
    startWorker();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toEqual([]);
    await worker!.stop();

    // Events of a disabled endpoint are not queued for it (a replay from a cursor sends them).
    await api('PATCH', `/api/integration/v1/webhooks/${ep.id}`, { enabled: true });
    receiver.mode = '500';
    await newTicket();
    startWorker({ disableAfterMs: 150 });
    await until(async () => {
      const list = (await api('GET', '/api/integration/v1/webhooks')).json() as {
        id: number;
        enabled: boolean;
      }[];
      return list.find((e) => e.id === ep.id)!.enabled === false;
    });
    const list = (await api('GET', '/api/integration/v1/webhooks')).json() as {
      id: number;
      disabledReason: string;
    }[];
    expect(list.find((e) => e.id === ep.id)!.disabledReason).toMatch(/^failing since/);
    const mails = (
      (await t.ctx.database.db.execute(
        sql`select payload from outbox where channel = 'email'`,
      )) as unknown as {
        rows: { payload: { to: string; subject: string } | string }[];
      }
    ).rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
    expect(mails.some((m) => m.to === 'ops@crm.example' && /disabled/.test(m.subject))).toBe(true);
    // Re-enabled, the receiver fixed: what was pending arrives.
    await worker!.stop();
    receiver.mode = 'ok';
    await api('PATCH', `/api/integration/v1/webhooks/${ep.id}`, { enabled: true });
    startWorker();
    await until(() => receiver.received.length >= 1);
  });

  it('records the batch even when an endpoint is deleted while its message is on the wire', async () => {
    const gone = await addEndpoint();
    const kept = await addEndpoint();
    receiver.script = ['hang', 'hang'];
    const requestsBefore = receiver.requests;
    await newTicket();
    startWorker();
    await until(() => receiver.requests >= requestsBefore + 2);
    expect((await api('DELETE', `/api/integration/v1/webhooks/${gone.id}`)).statusCode).toBe(204);
    await until(async () => {
      const log = (await api('GET', `/api/integration/v1/webhooks/${kept.id}/attempts`)).json();
      return log.attempts.length > 0;
    });
  });

  it('delivers only the subscribed types, and replays from a cursor', async () => {
    const feedKey = key.secret;
    const tail = (
      await t.app.inject({ url: '/api/integration/v1/events?limit=1000', headers: bearer(feedKey) })
    ).json() as EventFeed;
    const ep = await addEndpoint({ eventTypes: ['ticket.closed'] });
    const id = await newTicket();
    const close = await t.app.inject({
      method: 'POST',
      url: `/api/acme/102/tickets/${id}/close`,
      headers: anna.headers,
    });
    expect(close.statusCode).toBe(200);
    startWorker();
    await until(() => receiver.received.length === 1);
    expect(receiver.received[0]!.type).toBe('ticket.closed');
    const firstId = receiver.received[0]!.id;

    const rep = await api('POST', `/api/integration/v1/webhooks/${ep.id}/replay`, { after: tail.next });
    expect(rep.statusCode, rep.body).toBe(200);
    expect(rep.json().queued).toBe(1);
    await until(() => receiver.received.length === 2);
    // Same message id: a receiver that already has it can skip it.
    expect(receiver.received[1]!.id).toBe(firstId);
  });
});

describe('webhook management', () => {
  it('needs the events scope, and stays inside the key portal', async () => {
    const ep = await addEndpoint();
    const mk = async (portal: string, scopes: string[]) =>
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/admin/portals/${portal}/keys`,
          headers: bearer(TEST_ADMIN_KEY),
          payload: { name: 'x', scopes },
        })
      ).json() as ApiKeyWithSecret;
    const readKey = await mk('acme', ['read', 'write']);
    expect((await api('GET', '/api/integration/v1/webhooks', undefined, readKey.secret)).statusCode).toBe(
      403,
    );
    const beta = await mk('beta', ['events']);
    expect((await api('GET', '/api/integration/v1/webhooks', undefined, beta.secret)).json()).toEqual([]);
    expect(
      (await api('PATCH', `/api/integration/v1/webhooks/${ep.id}`, { enabled: false }, beta.secret))
        .statusCode,
    ).toBe(404);
    expect(
      (await api('DELETE', `/api/integration/v1/webhooks/${ep.id}`, undefined, beta.secret)).statusCode,
    ).toBe(404);
    // The installation key manages any portal's endpoints.
    const adminList = await api('GET', '/api/admin/portals/acme/webhooks', undefined, TEST_ADMIN_KEY);
    expect(adminList.statusCode).toBe(200);
    expect((adminList.json() as { id: number }[]).map((e) => e.id)).toContain(ep.id);
    expect(adminList.body).not.toContain('whsec_');
    expect((await api('DELETE', `/api/integration/v1/webhooks/${ep.id}`)).statusCode).toBe(204);
  });
});

describe('secret rotation', () => {
  const rotate = async (id: number, payload?: object) => {
    const res = await api('POST', `/api/admin/portals/acme/webhooks/${id}/rotate`, payload, TEST_ADMIN_KEY);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { secret: string; previousValidUntil: string | null };
  };
  const ticketDelivered = () => receiver.received.some((r) => r.type === 'ticket.created');
  const signaturesOf = (m: { headers: Record<string, string> }) => m.headers['webhook-signature']!.split(' ');

  it('a receiver still on the old secret verifies every delivery of the overlap', async () => {
    const ep = await addEndpoint();
    const old = ep.secret;
    const rotated = await rotate(ep.id);
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.previousValidUntil!) - t.clock.now().getTime()).toBe(24 * 3600_000);
    receiver.secret = old;
    await newTicket();
    startWorker();
    await until(ticketDelivered);
    expect(receiver.rejected).toBe(0);
    // Two signatures, space-separated: the old secret's and the new one's.
    for (const m of receiver.raw) {
      expect(signaturesOf(m)).toHaveLength(2);
      expect(new Webhook(rotated.secret).verify(m.body, m.headers)).toBeTruthy();
    }
  });

  it('a receiver switched to the new secret verifies them too; after the overlap only the new one signs', async () => {
    const ep = await addEndpoint();
    const old = ep.secret;
    const { secret } = await rotate(ep.id);
    receiver.secret = secret;
    await newTicket();
    startWorker();
    await until(ticketDelivered);
    expect(receiver.rejected).toBe(0);
    expect(signaturesOf(receiver.raw.at(-1)!)).toHaveLength(2);
    await worker!.stop();

    // The overlap ends: the old secret no longer signs, the new one alone does.
    await t.ctx.database.db.execute(
      sql`update webhook_endpoints set previous_valid_until = ${new Date(t.clock.now().getTime() - 1000).toISOString()}::timestamptz
        where id = ${ep.id}::int`,
    );
    receiver.received = [];
    receiver.raw = [];
    await newTicket();
    startWorker();
    await until(ticketDelivered);
    const last = receiver.raw.at(-1)!;
    expect(signaturesOf(last)).toHaveLength(1);
    expect(new Webhook(secret).verify(last.body, last.headers)).toBeTruthy();
    expect(() => new Webhook(old).verify(last.body, last.headers)).toThrow(/No matching signature/);
    const list = (await api('GET', '/api/integration/v1/webhooks')).json() as WebhookEndpoint[];
    expect(list.find((e) => e.id === ep.id)!.previousValidUntil).toBeNull();
  });

  it('rotating again ends the oldest secret at once; overlapHours 0 ends the old one now', async () => {
    const ep = await addEndpoint();
    const first = ep.secret;
    const second = (await rotate(ep.id)).secret;
    const third = (await rotate(ep.id)).secret;
    receiver.secret = third;
    await newTicket();
    startWorker();
    await until(ticketDelivered);
    const m = receiver.raw.at(-1)!;
    expect(signaturesOf(m)).toHaveLength(2);
    expect(new Webhook(second).verify(m.body, m.headers)).toBeTruthy();
    expect(() => new Webhook(first).verify(m.body, m.headers)).toThrow();
    await worker!.stop();

    const now = await rotate(ep.id, { overlapHours: 0 });
    expect(now.previousValidUntil).toBeNull();
    receiver.secret = now.secret;
    receiver.received = [];
    receiver.raw = [];
    await newTicket();
    startWorker();
    await until(ticketDelivered);
    expect(receiver.raw.every((r) => signaturesOf(r).length === 1)).toBe(true);
    expect(receiver.rejected).toBe(0);
  });

  it('with a SECRET changed since, nothing is sent and the delivery log says why; the former SECRET mends it', async () => {
    const ep = await addEndpoint();
    const before = receiver.requests;
    await newTicket();
    worker = new WebhookWorker({ ...t.ctx, secret: 'a-changed-server-secret-'.padEnd(40, 'q') }, log, FAST);
    worker.start();
    await until(async () => {
      const attempts = (await api('GET', `/api/integration/v1/webhooks/${ep.id}/attempts`)).json();
      return attempts.attempts.length >= 2;
    });
    const attempts = (await api('GET', `/api/integration/v1/webhooks/${ep.id}/attempts`)).json();
    expect(attempts.attempts[0]).toMatchObject({ status: null });
    expect(attempts.attempts[0].error).toMatch(/sealed under another SECRET/);
    expect(receiver.requests).toBe(before);
    await worker.stop();
    // The same SECRET as every process again: the retries deliver.
    startWorker();
    await until(ticketDelivered);
  });
});
