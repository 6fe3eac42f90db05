/**
 * Runs the consumer example (examples/integration-consumer) against a portal: its webhook receiver,
 * verifying with standardwebhooks, and its feed follower both mirror a ticket and its conversation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyWithSecret } from '@sportello/contracts';
import {
  followFeed,
  loadMirror,
  webhookReceiver,
} from '../../../../../examples/integration-consumer/consumer';
import { systemClock } from '../../platform/clock';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../test/personas';
import { bearer } from '../../test/seed';
import { WebhookWorker } from './webhook-worker';

let t: TestApp;
let anna: PersonaAccess;
let key: ApiKeyWithSecret;
let dir: string;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, now: new Date().toISOString() });
  anna = (await seedPersonas(t)).owner;
  key = (
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: bearer(TEST_ADMIN_KEY),
      payload: { name: 'mirror', scopes: ['events', 'write'] },
    })
  ).json();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'sportello-consumer-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ticketWithAnswer(): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/acme/102/tickets',
    headers: anna.headers,
    payload: { title: 'Mirror me', taskTypeId: 1, description: '<p>x</p>', attachments: [] },
  });
  const id = created.json().id as number;
  const answered = await t.app.inject({
    method: 'POST',
    url: `/api/integration/v1/tickets/${id}/comments`,
    headers: bearer(key.secret),
    payload: { senderAgentId: 1, message: '<p>On it</p>' },
  });
  expect(answered.statusCode).toBe(201);
  return id;
}

describe('the consumer example', () => {
  it('mirrors tickets from verified webhooks', async () => {
    const mirrorFile = join(dir, 'webhooks.json');
    const ep = await t.app.inject({
      method: 'POST',
      url: '/api/integration/v1/webhooks',
      headers: bearer(key.secret),
      payload: { url: 'http://127.0.0.1:9/placeholder' },
    });
    const server = webhookReceiver({ secret: ep.json().secret, mirrorFile });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/integration/v1/webhooks/${ep.json().id}`,
      headers: bearer(key.secret),
      payload: { url: `http://127.0.0.1:${port}/` },
    });
    const worker = new WebhookWorker(t.ctx, pino({ level: 'silent' }), { clock: systemClock, pollMs: 50 });
    worker.start();
    try {
      const id = await ticketWithAnswer();
      const end = Date.now() + 8000;
      while ((loadMirror(mirrorFile).tickets[String(id)]?.comments.length ?? 0) < 1) {
        if (Date.now() > end) throw new Error('the mirror did not receive the answer');
        await new Promise((r) => setTimeout(r, 50));
      }
      const ticket = loadMirror(mirrorFile).tickets[String(id)]!;
      expect(ticket.title).toBe('Mirror me');
      expect(ticket.comments[0]!.message).toBe('<p>On it</p>');
    } finally {
      await worker.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('mirrors tickets from the feed, resuming from its cursor, skipping its own echoes on request', async () => {
    const mirrorFile = join(dir, 'feed.json');
    const id = await ticketWithAnswer();
    const once = () =>
      followFeed({ portalUrl: baseUrl, apiKey: key.secret, mirrorFile, waitSeconds: 0, stop: () => true });
    await once();
    const m = loadMirror(mirrorFile);
    expect(m.tickets[String(id)]!.comments.map((c) => c.message)).toEqual(['<p>On it</p>']);
    expect(m.cursor).toMatch(/^\d+-\d+$/);
    // Nothing new: the cursor holds, nothing is applied twice.
    expect(await once()).toBe(0);
    // With its own key id, the consumer skips the answer it sent itself.
    const own = join(dir, 'own.json');
    await followFeed({
      portalUrl: baseUrl,
      apiKey: key.secret,
      mirrorFile: own,
      ownKeyId: key.id,
      waitSeconds: 0,
      stop: () => true,
    });
    expect(loadMirror(own).tickets[String(id)]!.comments).toEqual([]);
  });
});
