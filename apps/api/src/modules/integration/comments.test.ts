import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentComment, ApiKeyWithSecret } from '@sportello/contracts';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { multipartFile, seedPersonas, type PersonaAccess } from '../../test/personas';
import { bearer } from '../../test/seed';

let t: TestApp;
let write: ApiKeyWithSecret;
let writeOther: ApiKeyWithSecret;
let readOnly: ApiKeyWithSecret;
let betaWrite: ApiKeyWithSecret;
let owner: PersonaAccess;

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
async function q<T>(s: ReturnType<typeof sql>): Promise<T[]> {
  return rows<T>(await t.ctx.database.db.execute(s));
}

async function key(portal: string, scopes: string[]): Promise<ApiKeyWithSecret> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/portals/${portal}/keys`,
    headers: bearer(TEST_ADMIN_KEY),
    payload: { name: 'CRM', scopes },
  });
  return res.json();
}

const post = (k: ApiKeyWithSecret, ticket: number, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/integration/v1/tickets/${ticket}/comments`,
    headers: { ...bearer(k.secret), ...headers },
    payload: payload as Record<string, unknown>,
  });

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}
const mails = async (to: string) =>
  (await q<{ payload: Mail | string }>(sql`select payload from outbox where channel = 'email' order by id`))
    .map((r) => (typeof r.payload === 'string' ? (JSON.parse(r.payload) as Mail) : r.payload))
    .filter((m) => m.to === to);
const commentCount = async () =>
  Number((await q<{ n: number }>(sql`select count(*)::int as n from ticket_comments`))[0]!.n);

beforeAll(async () => {
  t = await createTestApp();
  const personas = await seedPersonas(t);
  owner = personas.owner;
  write = await key('acme', ['write', 'read']);
  writeOther = await key('acme', ['write']);
  readOnly = await key('acme', ['read']);
  betaWrite = await key('beta', ['write']);
});
afterAll(async () => {
  await t?.close();
});

describe('agent comments through the integration API', () => {
  it('adds the answer, shows it to the customer, emits the event and e-mails the creator', async () => {
    const res = await post(write, 5003, {
      senderAgentId: 1,
      message: '<p onclick="x()">Abbiamo <b>sostituito</b> il toner<script>alert(1)</script></p>',
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json() as AgentComment;
    expect(c.message).toBe('<p>Abbiamo <b>sostituito</b> il toner</p>');
    expect(c.ticketId).toBe(5003);
    expect(c.notified).toBe(true);

    const detail = await t.app.inject({ url: '/api/acme/102/tickets/5003', headers: owner.headers });
    const shown = (
      detail.json().comments as { id: number; message: string; senderUser: { displayName: string } }[]
    ).find((x) => x.id === c.id);
    expect(shown?.message).toBe(c.message);
    expect(shown?.senderUser.displayName).toBe('ACME Agent Luca');

    const [ev] = await q<{ type: string; source: unknown }>(
      sql`select type, source from events where type = 'agent.comment_added' order by id desc limit 1`,
    );
    const source = typeof ev!.source === 'string' ? JSON.parse(ev!.source) : ev!.source;
    expect(source).toEqual({ type: 'api_key', apiKeyId: write.id });

    const [mail] = await mails('anna@acme.example');
    expect(mail!.subject).toContain('Nuova risposta al ticket');
    expect(mail!.text).toContain('Abbiamo sostituito il toner');
    expect(mail!.text).toContain(`${t.ctx.config.publicUrl}/acme/102/tickets/5003`);
    expect(mail!.html).not.toContain('<script');
  });

  it("writes in the user's language, and not at all when the user turned it off", async () => {
    await t.ctx.database.db.execute(sql`update users set language = 'en' where user_name = 'anna.verdi'`);
    await post(write, 5003, { senderAgentId: 1, message: 'Done' });
    const list = await mails('anna@acme.example');
    expect(list.at(-1)!.subject).toContain('New answer on ticket');
    await t.ctx.database.db.execute(
      sql`update users set notify_agent_comments = false where user_name = 'anna.verdi'`,
    );
    const before = list.length;
    const res = await post(write, 5003, { senderAgentId: 1, message: 'Silent' });
    expect(res.json().notified).toBe(false);
    expect(await mails('anna@acme.example')).toHaveLength(before);
    await t.ctx.database.db.execute(
      sql`update users set notify_agent_comments = true, language = null where user_name = 'anna.verdi'`,
    );
  });

  it('reaches only tickets of the key portal, and needs the write scope', async () => {
    const beta = await post(betaWrite, 5003, { senderAgentId: 1, message: 'beta only' });
    expect(beta.statusCode, beta.body).toBe(201);
    const [where] = await q<{ key: string }>(
      sql`select p.key from ticket_comments c join portals p on p.id = c.portal_id where c.message = 'beta only'`,
    );
    expect(where!.key).toBe('beta');
    const ro = await post(readOnly, 5003, { senderAgentId: 1, message: 'x' });
    expect(ro.statusCode).toBe(403);
    expect(ro.json().code).toBe('missing_scope');
    expect((await post(write, 999999, { senderAgentId: 1, message: 'x' })).statusCode).toBe(404);
  });

  it('refuses an unknown agent, or creates it when named', async () => {
    const n = await commentCount();
    const unknown = await post(write, 5003, { senderAgentId: 77, message: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('unknown_agent');
    expect(await commentCount()).toBe(n);
    const named = await post(write, 5003, { senderAgentId: 77, agentName: 'Sara Help', message: 'Ciao' });
    expect(named.statusCode, named.body).toBe(201);
    const detail = await t.app.inject({ url: '/api/acme/102/tickets/5003', headers: owner.headers });
    expect(JSON.stringify(detail.json())).toContain('Sara Help');
  });

  it('honours Idempotency-Key: same body same answer once, other body 422', async () => {
    const n = await commentCount();
    const body = { senderAgentId: 1, message: '<p>Una volta sola</p>' };
    const first = await post(write, 5003, body, { 'idempotency-key': 'op-1' });
    expect(first.statusCode).toBe(201);
    const again = await post(write, 5003, body, { 'idempotency-key': 'op-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await commentCount()).toBe(n + 1);
    const other = await post(write, 5003, { ...body, message: 'altro' }, { 'idempotency-key': 'op-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    // Per key: another API key may use the same Idempotency-Key for its own request.
    expect((await post(writeOther, 5003, body, { 'idempotency-key': 'op-1' })).statusCode).toBe(201);
    expect(await commentCount()).toBe(n + 2);
    // A failed request stores nothing: the key stays free for a corrected retry.
    expect(
      (await post(write, 5003, { senderAgentId: 78, message: 'x' }, { 'idempotency-key': 'op-2' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await post(
          write,
          5003,
          { senderAgentId: 78, agentName: 'Neo', message: 'x' },
          { 'idempotency-key': 'op-2' },
        )
      ).statusCode,
    ).toBe(201);
    const bad = await post(write, 5003, body, { 'idempotency-key': 'spazio non ammesso' });
    expect(bad.statusCode).toBe(400);
  });

  it('attaches uploads of the same key and inline files; the bytes come back with a read key', async () => {
    const m = multipartFile('rapporto.pdf', '%PDF-1.4 rapporto', 'application/pdf');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/integration/v1/files',
      headers: { ...bearer(write.secret), ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const fileId = up.json().id as number;
    // Another key's upload cannot be attached, and the failed request leaves nothing.
    const n = await commentCount();
    const foreign = await post(writeOther, 5003, {
      senderAgentId: 1,
      message: 'x',
      attachments: [{ fileId }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('attachment_unavailable');
    expect(await commentCount()).toBe(n);

    const res = await post(write, 5003, {
      senderAgentId: 1,
      message: 'In allegato',
      attachments: [
        { fileId },
        { name: 'nota.txt', contentType: 'text/plain', base64: Buffer.from('ciao').toString('base64') },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json() as AgentComment;
    expect(c.attachments.map((a) => [a.name, a.size])).toEqual([
      ['rapporto.pdf', 17],
      ['nota.txt', 4],
    ]);
    const bytes = await t.app.inject({
      url: c.attachments[1]!.url.replace(t.ctx.config.publicUrl, ''),
      headers: bearer(write.secret),
    });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.body).toBe('ciao');
    expect(bytes.headers['content-disposition']).toContain('attachment');
    // Reusing an attached upload is refused.
    expect(
      (await post(write, 5003, { senderAgentId: 1, message: 'x', attachments: [{ fileId }] })).statusCode,
    ).toBe(400);
    // The customer sees both attachments.
    const detail = await t.app.inject({ url: '/api/acme/102/tickets/5003', headers: owner.headers });
    const shown = (detail.json().comments as { id: number; attachments: { name: string }[] }[]).find(
      (x) => x.id === c.id,
    );
    expect(shown!.attachments.map((a) => a.name)).toEqual(['rapporto.pdf', 'nota.txt']);
    // Files are portal-scoped, and need a key with read.
    const path = `/api/integration/v1/files/${fileId}`;
    expect((await t.app.inject({ url: path, headers: bearer(betaWrite.secret) })).statusCode).toBe(403);
    const betaRead = await key('beta', ['read']);
    expect((await t.app.inject({ url: path, headers: bearer(betaRead.secret) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: path, headers: bearer(readOnly.secret) })).statusCode).toBe(200);
  });

  it('refuses bad bodies with 400', async () => {
    for (const body of [
      {},
      { senderAgentId: 1 },
      { senderAgentId: 'x', message: 'y' },
      { senderAgentId: 1, message: 'y', extra: true },
      { senderAgentId: 1, message: 'y', attachments: [{ name: 'a', base64: '***' }] },
    ]) {
      const res = await post(write, 5003, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});
