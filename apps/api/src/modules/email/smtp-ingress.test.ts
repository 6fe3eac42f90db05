/**
 * The SMTP ingress (INBOUND_SMTP_PORT, docs/email.md "Receiving by SMTP"): messages sent with
 * nodemailer to the receiver the app starts, and what became of them in the database.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clear } from '../../platform/rate-limit';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { seedStaffPersonas } from '../staff/staff.fixture';
import { letter } from './corpus';
import { SmtpIngress, supportAddressOf, type IngressOptions } from './smtp-ingress';

const SUPPORT = 'support@acme.example';
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

describe('SMTP ingress', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
  const ingresses: SmtpIngress[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await seedPersonas(t);
    staff = await seedStaffPersonas(t);
    // A mailbox with no IMAP server: the portal takes its mail by SMTP only.
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/portals/acme/admin/email/mailbox',
      headers: staff.adminA,
      payload: { address: SUPPORT, imapHost: '', imapUser: '' },
    });
    expect(res.statusCode, res.body).toBe(200);
  }, 180_000);

  afterAll(async () => {
    for (const i of ingresses) await i.stop();
    await t?.close();
  });

  async function ingress(opts: Partial<IngressOptions> = {}) {
    const i = new SmtpIngress(t.ctx, t.app.log, { port: 0, host: '127.0.0.1', ...opts });
    ingresses.push(i);
    const port = await i.start();
    return nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      connectionTimeout: 10_000,
    });
  }

  const message = (from: string, subject: string, id = `<${randomUUID()}@mail.example>`) =>
    [
      `From: ${from}`,
      `To: ${SUPPORT}`,
      `Subject: ${subject}`,
      `Message-ID: ${id}`,
      'Date: Fri, 20 Nov 2026 10:00:00 +0100',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Buongiorno, la stampante non stampa più.',
      '',
    ].join('\r\n');

  const bySubject = async (subject: string) =>
    rowsOf<{ status: string; reason: string | null; via: string; from_address: string; portal_id: number }>(
      await t.ctx.database.db.execute(
        sql`select status, reason, via, from_address, portal_id from inbound_emails where subject = ${subject}`,
      ),
    );

  it('takes mail for the support address and its +tags, and files it as the IMAP reader does, once', async () => {
    const mail = await ingress();
    const id = `<${randomUUID()}@acme.example>`;
    const raw = message('Mario Rossi <mario@acme.example>', 'Stampante guasta SMTP', id);
    const sent = await mail.sendMail({
      envelope: { from: 'mario@acme.example', to: ['support+ufficio@acme.example'] },
      raw,
    });
    expect(sent.accepted).toEqual(['support+ufficio@acme.example']);
    // The same message again (a sending server that retried): recorded once.
    await mail.sendMail({ envelope: { from: 'mario@acme.example', to: [SUPPORT] }, raw });
    expect(await bySubject('Stampante guasta SMTP')).toEqual([
      {
        status: 'done',
        reason: null,
        via: 'smtp',
        from_address: 'mario@acme.example',
        portal_id: expect.any(Number),
      },
    ]);
    // It became Mario's ticket, once.
    const tickets = rowsOf<{ n: number }>(
      await t.ctx.database.db.execute(
        sql`select count(*)::int as n from tickets where title = 'Stampante guasta SMTP'`,
      ),
    );
    expect(tickets[0]!.n).toBe(1);
    // An unknown sender waits in the desk's list, as from the reader.
    await mail.sendMail({
      envelope: { from: 'x@elsewhere.example', to: [SUPPORT] },
      raw: message('x@elsewhere.example', 'Chi siete SMTP'),
    });
    expect(await bySubject('Chi siete SMTP')).toMatchObject([{ status: 'unknown', via: 'smtp' }]);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/acme/email/inbound?status=unknown',
      headers: staff.agentA,
    });
    const item = (list.json().items as { id: number; subject: string }[]).find(
      (i) => i.subject === 'Chi siete SMTP',
    )!;
    // "Show full e-mail": the bytes as received, with the envelope's recipient in front.
    const full = await t.app.inject({
      method: 'GET',
      url: `/api/staff/portals/acme/email/inbound/${item.id}/raw`,
      headers: staff.agentA,
    });
    expect(full.statusCode, full.body).toBe(200);
    expect(full.headers['content-type']).toBe('message/rfc822');
    expect(full.body).toMatch(/^Delivered-To: support@acme\.example\r\nFrom: x@elsewhere\.example\r\n/);
  });

  it('refuses any other recipient at RCPT with 550', async () => {
    const mail = await ingress();
    const refused = await mail
      .sendMail({
        envelope: { from: 'x@elsewhere.example', to: ['someone@elsewhere.example'] },
        raw: message('x@elsewhere.example', 'Relay SMTP'),
      })
      .catch((e: { responseCode?: number; code?: string }) => e);
    expect(refused).toMatchObject({ code: 'EENVELOPE', responseCode: 550 });
    // With a good recipient beside it, only the other is refused.
    const both = await mail.sendMail({
      envelope: { from: 'x@elsewhere.example', to: [SUPPORT, 'support@beta.example'] },
      raw: message('x@elsewhere.example', 'Mezzo SMTP'),
    });
    expect(both.accepted).toEqual([SUPPORT]);
    expect(both.rejected).toEqual(['support@beta.example']);
    expect(await bySubject('Relay SMTP')).toEqual([]);
    expect(await bySubject('Mezzo SMTP')).toHaveLength(1);
  });

  it('refuses a message over the size limit, and records nothing of it', async () => {
    const mail = await ingress({ maxBytes: 64 * 1024 });
    const big = message('x@elsewhere.example', 'Grande SMTP') + 'x'.repeat(100 * 1024) + '\r\n';
    const refused = await mail
      .sendMail({ envelope: { from: 'x@elsewhere.example', to: [SUPPORT] }, raw: big })
      .catch((e: { responseCode?: number }) => e);
    expect(refused).toMatchObject({ responseCode: 552 });
    expect(await bySubject('Grande SMTP')).toEqual([]);
  });

  it('limits the messages of one sending address, with a temporary refusal', async () => {
    await clear(t.ctx.database.db, 'smtp-in:127.0.0.1');
    const mail = await ingress({ messagesPerIp: 2 });
    const send = (n: number) =>
      mail
        .sendMail({
          envelope: { from: 'x@elsewhere.example', to: [SUPPORT] },
          raw: message('x@elsewhere.example', `Raffica SMTP ${n}`),
        })
        .then(
          () => 250,
          (e: { responseCode?: number }) => e.responseCode,
        );
    expect([await send(1), await send(2), await send(3)]).toEqual([250, 250, 421]);
    expect(await bySubject('Raffica SMTP 3')).toEqual([]);
    await clear(t.ctx.database.db, 'smtp-in:127.0.0.1');
  });

  it('keeps an unreadable message as unprocessed, and goes on receiving', async () => {
    const mail = await ingress();
    const before = rowsOf<{ n: number }>(
      await t.ctx.database.db.execute(
        sql`select count(*)::int as n from inbound_emails where status = 'unprocessed'`,
      ),
    )[0]!.n;
    // Bytes that are no message: NULs, binary, no header at all.
    const garbage = Buffer.concat([
      Buffer.from([0, 0, 0, 255, 254, 0, 10]),
      Buffer.from('\0\0 not mail\r\n'),
    ]);
    const sent = await mail.sendMail({
      envelope: { from: 'x@elsewhere.example', to: [SUPPORT] },
      raw: garbage,
    });
    expect(sent.accepted).toEqual([SUPPORT]);
    const [row] = rowsOf<{ status: string; reason: string; via: string }>(
      await t.ctx.database.db.execute(
        sql`select status, reason, via from inbound_emails where status = 'unprocessed' order by id desc limit 1`,
      ),
    );
    expect(row).toMatchObject({ status: 'unprocessed', via: 'smtp' });
    expect(
      rowsOf<{ n: number }>(
        await t.ctx.database.db.execute(
          sql`select count(*)::int as n from inbound_emails where status = 'unprocessed'`,
        ),
      )[0]!.n,
    ).toBe(before + 1);
    await mail.sendMail({
      envelope: { from: 'x@elsewhere.example', to: [SUPPORT] },
      raw: message('x@elsewhere.example', 'Dopo SMTP'),
    });
    expect(await bySubject('Dopo SMTP')).toHaveLength(1);
  });

  it('marks the address of a delivery report bouncing, which staff read on the contact and clear', async () => {
    const mail = await ingress();
    await mail.sendMail({
      envelope: { from: '', to: [SUPPORT] },
      raw: letter('dsn', { TO: SUPPORT, BOUNCED: 'Nuovo2@acme.example' }),
    });
    const url = '/api/staff/portals/acme/email/bounces';
    const one = await t.app.inject({
      method: 'GET',
      url: `${url}?address=nuovo2@acme.example`,
      headers: staff.agentA,
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().items).toEqual([
      { address: 'nuovo2@acme.example', reason: expect.stringMatching(/5\./), bouncedAt: expect.any(String) },
    ]);
    const all = await t.app.inject({ method: 'GET', url, headers: staff.agentA });
    expect(all.json().items.map((b: { address: string }) => b.address)).toContain('nuovo2@acme.example');
    // Another portal's staff see none of it.
    const beta = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/beta/email/bounces',
      headers: staff.agentB,
    });
    expect(beta.json().items).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: `${url}?address=not-an-address`,
      headers: staff.agentA,
    });
    expect(bad.statusCode).toBe(400);
    const cleared = await t.app.inject({
      method: 'DELETE',
      url: `${url}/${encodeURIComponent('Nuovo2@acme.example')}`,
      headers: staff.agentA,
    });
    expect(cleared.statusCode, cleared.body).toBe(204);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${url}/${encodeURIComponent('nuovo2@acme.example')}`,
      headers: staff.agentA,
    });
    expect(again.json()).toMatchObject({ code: 'bounce_not_found' });
    const none = await t.app.inject({
      method: 'GET',
      url: `${url}?address=nuovo2@acme.example`,
      headers: staff.agentA,
    });
    expect(none.json().items).toEqual([]);
  });

  it('names the support address of a +tagged recipient', () => {
    expect(supportAddressOf(' Support+t-12-ab@ACME.example ')).toBe(SUPPORT);
    expect(supportAddressOf(SUPPORT)).toBe(SUPPORT);
  });
});
