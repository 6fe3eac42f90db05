/**
 * Webhook signing secrets at rest: sealed with AES-256-GCM under a key derived from SECRET, the rows'
 * format saying which they are, clear rows of before migration 0025 sealed at start (once, however
 * many processes start), and what a changed SECRET does (told apart, never opened).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { bearer } from '../../test/seed';
import { sealClearWebhookSecrets, WebhookSecretBox } from './webhook-secrets';
import { newWebhookSecret } from './webhooks.service';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  await seedPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const stored = async () =>
  queryRows<{ id: number; portal_id: number; secret: string; previous_secret: string | null }>(
    t.ctx.database.db,
    sql`select id, portal_id, secret, previous_secret from webhook_endpoints order by id`,
  );

async function clearRow(secret: string): Promise<number> {
  const [r] = await queryRows<{ id: number }>(
    t.ctx.database.db,
    sql`insert into webhook_endpoints (portal_id, url, event_types, secret, created_at, updated_at)
      select id, 'http://127.0.0.1:9/old', '{}', ${secret}, now(), now() from portals where key = 'acme'
      returning id`,
  );
  return Number(r!.id);
}

describe('the secret box', () => {
  const box = new WebhookSecretBox('a-server-secret-'.padEnd(40, 'a'));
  const plain = newWebhookSecret();

  it('seals with a fresh IV each time and opens what it sealed, for the same portal only', () => {
    const a = box.seal(plain, 7);
    const b = box.seal(plain, 7);
    expect(a).toMatch(/^sealed\.v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(plain.slice(6, 20));
    expect(box.open(a, 7)).toEqual({ ok: true, secret: plain });
    // Bound to its portal: moved to another portal's row it does not open.
    expect(box.open(a, 8)).toEqual({ ok: false, reason: 'damaged' });
  });

  it('tells a value sealed under another SECRET from a damaged one', () => {
    const other = new WebhookSecretBox('another-server-secret-'.padEnd(40, 'b'));
    expect(other.keyId).not.toBe(box.keyId);
    const sealed = box.seal(plain, 7);
    expect(other.open(sealed, 7)).toEqual({ ok: false, reason: 'other_secret' });
    const parts = sealed.split('.');
    parts[5] = parts[5]!.startsWith('A') ? `B${parts[5]!.slice(1)}` : `A${parts[5]!.slice(1)}`;
    expect(box.open(parts.join('.'), 7)).toEqual({ ok: false, reason: 'damaged' });
    expect(box.open('sealed.v1.garbage', 7)).toEqual({ ok: false, reason: 'damaged' });
    expect(box.open('nonsense', 7)).toEqual({ ok: false, reason: 'damaged' });
    // A clear value (before migration 0025) is itself.
    expect(box.open(plain, 7)).toEqual({ ok: true, secret: plain });
  });
});

describe('secrets at rest', () => {
  it('stores a new endpoint secret sealed; the answer carries it once, in clear', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/webhooks',
      headers: bearer(TEST_ADMIN_KEY),
      payload: { url: 'http://127.0.0.1:9/new' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id, secret } = res.json() as { id: number; secret: string };
    expect(secret).toMatch(/^whsec_/);
    const row = (await stored()).find((r) => r.id === id)!;
    expect(row.secret).toMatch(/^sealed\.v1\./);
    expect(new WebhookSecretBox(t.ctx.secret).open(row.secret, Number(row.portal_id))).toEqual({
      ok: true,
      secret,
    });
    const dump = await queryRows<{ text: string }>(
      t.ctx.database.db,
      sql`select (select coalesce(string_agg(w::text, ''), '') from webhook_endpoints w)
        || (select coalesce(string_agg(a::text, ''), '') from audit_log a)
        || (select coalesce(string_agg(e::text, ''), '') from events e) as text`,
    );
    expect(dump[0]!.text).not.toContain(secret.slice('whsec_'.length));
  });

  it('refuses a value of neither format (migration 0025)', async () => {
    const err = await clearRow('plain-secret').then(
      () => undefined,
      (e: unknown) => e as { cause?: { message?: string } },
    );
    expect(err?.cause?.message).toMatch(/webhook_endpoints_secret_format/);
  });

  it('seals the clear rows of before at start, once, whoever starts at the same time', async () => {
    const plain = newWebhookSecret();
    const id = await clearRow(plain);
    await t.ctx.database.db.execute(
      sql`update webhook_endpoints set previous_secret = ${newWebhookSecret()} where id = ${id}::int`,
    );
    // Two processes starting together: each row is sealed by one of them.
    const [a, b] = await Promise.all([sealClearWebhookSecrets(t.ctx), sealClearWebhookSecrets(t.ctx)]);
    expect(a.sealed + b.sealed).toBe(1);
    const row = (await stored()).find((r) => r.id === id)!;
    expect(row.secret).toMatch(/^sealed\.v1\./);
    expect(row.previous_secret).toMatch(/^sealed\.v1\./);
    expect(new WebhookSecretBox(t.ctx.secret).open(row.secret, Number(row.portal_id))).toEqual({
      ok: true,
      secret: plain,
    });
    // Idempotent: a sealed row is left as it is.
    const before = await stored();
    expect(await sealClearWebhookSecrets(t.ctx)).toEqual({ sealed: 0, unreadable: 0 });
    expect(await stored()).toEqual(before);
  });

  it('counts, never breaks, the rows a changed SECRET cannot open', async () => {
    const other = { ...t.ctx, secret: 'a-new-server-secret-'.padEnd(40, 'z') };
    const n = (await stored()).length;
    expect(await sealClearWebhookSecrets(other)).toEqual({ sealed: 0, unreadable: n });
    // Nothing is rewritten: setting the former SECRET back mends everything.
    expect(await sealClearWebhookSecrets(t.ctx)).toEqual({ sealed: 0, unreadable: 0 });
  });
});
