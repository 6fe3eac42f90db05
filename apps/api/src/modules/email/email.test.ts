/**
 * The e-mail channel against a real IMAP server (Dovecot: `.ci/dovecot start DIR PORT` prints the URL;
 * CI sets TEST_IMAP_URL). Messages are delivered with IMAP APPEND, each test in a folder of its own, and
 * what the reader made of them is read from the database.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMailTransport } from '../../platform/mail';
import { ticketsReferenced } from '../../platform/mail-threading';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from '../staff/staff.fixture';
import { letter } from './corpus';
import { MailboxReader } from './reader';

const IMAP_URL = process.env.TEST_IMAP_URL;
const imap = IMAP_URL ? new URL(IMAP_URL) : undefined;
const SUPPORT = 'support@acme.example';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

if (!imap)
  describe('e-mail channel on a real IMAP server', () => {
    it.skip('needs TEST_IMAP_URL (start one with `.ci/dovecot start /tmp/dovecot 14143`)', () => {});
  });
else
  describe('e-mail channel on a real IMAP server', () => {
    let t: TestApp;
    let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
    let client: ImapFlow;
    const readers: MailboxReader[] = [];
    const server = {
      imapHost: imap.hostname,
      imapPort: Number(imap.port),
      imapSecurity: 'none' as const,
      imapUser: decodeURIComponent(imap.username),
      password: decodeURIComponent(imap.password),
    };

    beforeAll(async () => {
      t = await createTestApp();
      await seedPersonas(t);
      staff = await seedStaffPersonas(t);
      client = new ImapFlow({
        host: server.imapHost,
        port: server.imapPort,
        secure: false,
        doSTARTTLS: false,
        auth: { user: server.imapUser, pass: server.password },
        logger: false,
      });
      await client.connect();
    }, 180_000);

    afterEach(async () => {
      for (const r of readers.splice(0)) await r.stop();
    });

    afterAll(async () => {
      await client?.logout();
      await t?.close();
    });

    /** A new folder, and the portal's mailbox set to read it. */
    async function freshFolder(): Promise<string> {
      const folder = `t-${randomUUID().slice(0, 8)}`;
      await client.mailboxCreate(folder);
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/staff/portals/acme/admin/email/mailbox',
        headers: staff.adminA,
        payload: { address: SUPPORT, ...server, folder },
      });
      expect(res.statusCode, res.body).toBe(200);
      return folder;
    }

    function reader(opts: ConstructorParameters<typeof MailboxReader>[2] = {}) {
      const r = new MailboxReader(t.ctx, t.app.log, { pollMs: 60_000, ...opts });
      readers.push(r);
      return r;
    }

    const inbound = async () =>
      rowsOf<{
        status: string;
        reason: string | null;
        from_address: string;
        subject: string;
        message_key: string;
      }>(
        await t.ctx.database.db.execute(
          sql`select status, reason, from_address, subject, message_key from inbound_emails order by id`,
        ),
      );
    const count = async () => (await inbound()).length;

    it('keeps the password sealed and never answers it; the installation key reads the same', async () => {
      await freshFolder();
      const got = await t.app.inject({
        method: 'GET',
        url: '/api/staff/portals/acme/admin/email/mailbox',
        headers: staff.adminA,
      });
      expect(got.json().mailbox).toMatchObject({ address: SUPPORT, hasPassword: true, imapSecurity: 'none' });
      expect(got.body).not.toContain(server.password);
      const [stored] = rowsOf<{ imap_password: string }>(
        await t.ctx.database.db.execute(sql`select imap_password from portal_mailboxes`),
      );
      expect(stored!.imap_password).toMatch(/^sealed\.v1\./);
      expect(stored!.imap_password).not.toContain(server.password);
      const byKey = await t.app.inject({
        method: 'GET',
        url: '/api/admin/portals/acme/email/mailbox',
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      });
      expect(byKey.json().mailbox.address).toBe(SUPPORT);
      // An agent who is not an admin may not see or change it.
      const agent = await t.app.inject({
        method: 'GET',
        url: '/api/staff/portals/acme/admin/email/mailbox',
        headers: staff.agentA,
      });
      expect(agent.statusCode).toBe(403);
      // Another portal may not take the same address.
      const taken = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/portals/beta/email/mailbox',
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
        payload: { address: SUPPORT.toUpperCase(), ...server },
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('mailbox_address_taken');
    });

    it('"Test connection" says in plain words what is wrong', async () => {
      const folder = await freshFolder();
      const test = (body: object) =>
        t.app
          .inject({
            method: 'POST',
            url: '/api/staff/portals/acme/admin/email/mailbox/test',
            headers: staff.adminA,
            payload: body,
          })
          .then((r) => r.json() as { ok: boolean; code: string; messages: number | null });
      expect(await test({})).toMatchObject({ ok: true, code: 'ok', messages: 0 });
      expect(await test({ password: 'wrong-password' })).toMatchObject({ ok: false, code: 'auth_failed' });
      expect(await test({ folder: `${folder}-missing` })).toMatchObject({
        ok: false,
        code: 'folder_missing',
      });
      expect(await test({ imapPort: 1 })).toMatchObject({ ok: false, code: 'connection_refused' });
      expect(await test({ imapHost: 'imap.invalid' })).toMatchObject({ ok: false, code: 'host_not_found' });
      const tlsPort = process.env.TEST_IMAPS_PORT;
      if (tlsPort)
        // Dovecot's throwaway certificate is self-signed: refused, as it should be.
        expect(await test({ imapPort: Number(tlsPort), imapSecurity: 'tls' })).toMatchObject({
          ok: false,
          code: 'certificate_refused',
        });
    });

    it('reads new mail by IDLE, records each message once, and answers an unknown sender once an hour at most', async () => {
      const folder = await freshFolder();
      const r = reader();
      await r.runTick();
      const before = await count();
      const stranger = `someone-${randomUUID().slice(0, 6)}@elsewhere.example`;
      const one = letter('no-message-id-it', { FROM: stranger, TO: SUPPORT });
      await client.append(folder, one);
      // The same bytes again (no Message-ID: the digest is the key), and a message appended twice.
      await client.append(folder, one);
      const outlook = letter('outlook-reply-it', { FROM: stranger, TO: SUPPORT, INREPLYTO: '<x@y>' });
      await client.append(folder, outlook);
      await client.append(folder, outlook);
      for (let i = 0; i < 3; i++)
        await client.append(folder, letter('html-only-it', { FROM: stranger, TO: SUPPORT }));
      const rows = await until('five messages', async () => {
        const all = await inbound();
        return all.length - before >= 5 ? all.slice(before) : undefined;
      });
      await r.settle();
      expect((await inbound()).length - before).toBe(5);
      expect(rows.map((x) => x.status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'unknown']);
      expect(rows[0]!.message_key).toMatch(/^sha256:/);
      expect(rows[0]!.subject).toBe('Informazioni sul servizio à Milano');
      const answers = rowsOf<{ payload: { subject: string; autoSubmitted: string; text: string } }>(
        await t.ctx.database.db.execute(
          sql`select payload from outbox where channel = 'email' and payload->>'to' = ${stranger} order by id`,
        ),
      );
      expect(answers.length).toBe(3);
      expect(answers[0]!.payload.autoSubmitted).toBe('auto-replied');
      expect(answers[0]!.payload.text).toContain('abbiamo ricevuto il tuo messaggio');
    });

    it('ignores automatic mail and our own, marks a bounced address, keeps bad input as unprocessed', async () => {
      const folder = await freshFolder();
      const r = reader();
      await r.runTick();
      const before = await count();
      const outbox0 = rowsOf<{ n: number }>(
        await t.ctx.database.db.execute(sql`select coalesce(max(id), 0)::int as n from outbox`),
      )[0]!.n;
      await client.append(
        folder,
        letter('auto-reply-it', { FROM: 'mario@acme.example', TO: SUPPORT, INREPLYTO: '<a@b>' }),
      );
      await client.append(folder, letter('dsn', { TO: SUPPORT, BOUNCED: 'Anna@acme.example' }));
      await client.append(folder, letter('html-only-it', { FROM: 'no-reply@localhost', TO: SUPPORT }));
      await client.append(folder, letter('malformed', { FROM: 'mario@acme.example', TO: SUPPORT }));
      // A NUL byte in the body, and headers of a megabyte.
      await client.append(
        folder,
        Buffer.from(
          `From: x@elsewhere.example\r\nSubject: nul\r\nMessage-ID: <nul-${randomUUID()}@e>\r\n\r\nbefore\0after\r\n`,
        ),
      );
      await client.append(
        folder,
        Buffer.from(
          `From: y@elsewhere.example\r\nX-Big: ${'a'.repeat(1024 * 1024)}\r\nSubject: big\r\n\r\nbody\r\n`,
        ),
      );
      const rows = await until('six messages', async () => {
        const all = await inbound();
        return all.length - before >= 6 ? all.slice(before) : undefined;
      });
      expect(rows.map((x) => [x.status, x.reason?.replace(/\(.*/, '').trim() ?? null])).toEqual([
        ['ignored', 'automatic message'],
        ['bounce', 'delivery failed to anna@acme.example'],
        ['ignored', 'sent from our own address'],
        // Mario is a contact: the broken message is still his mail, read as far as it goes (a ticket).
        ['done', null],
        ['unknown', null],
        ['unprocessed', 'headers larger than 256 KB'],
      ]);
      const bounced = rowsOf<{ address: string }>(
        await t.ctx.database.db.execute(sql`select address from email_bounces`),
      );
      expect(bounced.map((b) => b.address)).toEqual(['anna@acme.example']);
      // Only the unknown sender of the NUL message got an answer (and Mario his new ticket's
      // confirmation; the agents their notices of it): nothing answered the automatic mail or the bounce.
      await r.settle();
      const sent = rowsOf<{ to: string }>(
        await t.ctx.database.db.execute(
          sql`select payload->>'to' as to from outbox where id > ${outbox0}::int
            and payload->>'to' not in ('luca@acme.example', 'boss@acme.example') order by payload->>'to'`,
        ),
      );
      expect(sent.map((x) => x.to)).toEqual(['mario@acme.example', 'x@elsewhere.example']);
    });

    it('exactly one of two readers reads a mailbox; the other takes over when it stops', async () => {
      const folder = await freshFolder();
      const a = reader({ leaseMs: 60_000 });
      const b = reader({ leaseMs: 60_000 });
      await a.runTick();
      await b.runTick();
      const before = await count();
      for (let i = 0; i < 5; i++)
        await client.append(folder, letter('html-only-it', { FROM: `p${i}@elsewhere.example`, TO: SUPPORT }));
      await until('five messages', async () => ((await count()) - before >= 5 ? true : undefined));
      await a.settle();
      await b.settle();
      expect((await count()) - before).toBe(5);
      const [lease] = rowsOf<{ lease_owner: string }>(
        await t.ctx.database.db.execute(sql`select lease_owner from portal_mailboxes`),
      );
      expect(lease!.lease_owner).toBe(a.owner);
      await a.stop();
      await b.runTick();
      await client.append(folder, letter('html-only-it', { FROM: 'late@elsewhere.example', TO: SUPPORT }));
      await until('the sixth message', async () => ((await count()) - before >= 6 ? true : undefined));
      const [after] = rowsOf<{ lease_owner: string }>(
        await t.ctx.database.db.execute(sql`select lease_owner from portal_mailboxes`),
      );
      expect(after!.lease_owner).toBe(b.owner);
    });

    it('lets a mailbox go at once when another process holds its lease, without waiting for itself', async () => {
      const folder = await freshFolder();
      const r = reader();
      await r.runTick();
      await r.settle();
      const before = await count();
      // Another process took the lease (this one's expired while it was busy, say).
      await t.ctx.database.db.execute(
        sql`update portal_mailboxes set lease_owner = 'another-process', lease_until = '2099-01-01T00:00:00Z'`,
      );
      try {
        // IDLE wakes a read, which finds the lease gone and closes its session from inside the read.
        await client.append(folder, letter('html-only-it', { FROM: 'lease@elsewhere.example', TO: SUPPORT }));
        await new Promise((res) => setTimeout(res, 2000));
        // A session that waited for its own read to end would never settle.
        const settled = await Promise.race([
          r.settle().then(() => true),
          new Promise<boolean>((res) => setTimeout(() => res(false), 5000)),
        ]);
        expect(settled).toBe(true);
        expect((await count()) - before).toBe(0);
      } finally {
        await t.ctx.database.db.execute(
          sql`update portal_mailboxes set lease_owner = null, lease_until = null`,
        );
      }
    });

    it('ticket e-mails carry Message-ID, In-Reply-To/References and a Reply-To naming the ticket', async () => {
      await freshFolder();
      const reply = await t.app.inject({
        method: 'POST',
        url: '/api/staff/portals/acme/tickets/5001/comments',
        headers: staff.agentA,
        payload: { message: '<p>Abbiamo sostituito il toner.</p>', internal: false },
      });
      expect(reply.statusCode, reply.body).toBeLessThan(300);
      const [queued] = rowsOf<{
        id: number;
        payload: Parameters<ReturnType<typeof createMailTransport>['send']>[0];
      }>(
        await t.ctx.database.db.execute(
          sql`select id, payload from outbox where channel = 'email' and payload->>'to' = 'mario@acme.example'
            order by id desc limit 1`,
        ),
      );
      expect(queued).toBeDefined();
      // The bytes a mail client gets, composed by the same transport as in production.
      const mail = createMailTransport(t.ctx.config, t.app.log);
      await mail.send(queued!.payload, { id: Number(queued!.id), now: new Date() });
      const { readdirSync, readFileSync } = await import('node:fs');
      const dir = `${t.ctx.config.DATA_DIR}/outbox`;
      const file = readdirSync(dir).find((f) => f.startsWith(`${queued!.id}-`))!;
      const parsed = await simpleParser(readFileSync(`${dir}/${file}`));
      const portalId = rowsOf<{ id: number }>(
        await t.ctx.database.db.execute(sql`select id from portals where key = 'acme'`),
      )[0]!.id;
      expect(parsed.messageId).toMatch(/^<t-5001-[0-9a-z]{16}\.[^@]+@acme\.example>$/);
      expect(parsed.inReplyTo).toMatch(/^<t-5001-[0-9a-z]{16}@acme\.example>$/);
      expect(parsed.references).toBe(parsed.inReplyTo);
      const replyTo = parsed.replyTo!.value[0]!.address!;
      expect(replyTo).toMatch(/^support\+t-5001-[0-9a-z]{16}@acme\.example$/);
      expect(ticketsReferenced(t.ctx.secret, Number(portalId), replyTo)).toEqual([5001]);
      // Another portal's id or a changed MAC is no reference.
      expect(ticketsReferenced(t.ctx.secret, Number(portalId) + 1, replyTo)).toEqual([]);
      expect(ticketsReferenced(t.ctx.secret, Number(portalId), replyTo.replace(/-(\w)/, '-0'))).toEqual([]);
      expect(parsed.subject).toContain('2026/0012');
    });
  });
