/**
 * What the desk shows of a received message once it became conversation (docs/email.md "Trust"), and
 * "Invite as contact" from Unknown senders. Messages go through `ingestMessage`, the one way in of both
 * the IMAP reader and the SMTP receiver (their own suites test those transports).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketToken } from '../../platform/mail-threading';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas } from '../staff/staff.fixture';
import { ingestMessage } from './inbound.service';

const SUPPORT = 'support@acme.example';
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const FORGED = 'mx.acme.example; spf=fail smtp.mailfrom=acme.example; dkim=fail header.d=acme.example';
const GENUINE = 'mx.acme.example; spf=pass smtp.mailfrom=acme.example; dkim=pass header.d=acme.example';

/** A plain-text message as a mail client writes it, with the receiving server's verdict. */
function mail(p: { from: string; to?: string; subject: string; body: string; auth?: string }): Buffer {
  return Buffer.from(
    [
      `Message-ID: <${randomUUID()}@mail.example>`,
      'Date: Mon, 23 Nov 2026 12:01:44 +0100',
      'MIME-Version: 1.0',
      ...(p.auth ? [`Authentication-Results: ${p.auth}`] : []),
      `From: ${p.from}`,
      `To: ${p.to ?? SUPPORT}`,
      `Subject: ${p.subject}`,
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      p.body,
      '',
    ].join('\r\n'),
    'utf8',
  );
}

describe('received mail on the desk', () => {
  let t: TestApp;
  let personas: Record<Persona, PersonaAccess>;
  let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
  let portalId: number;
  const q = async <T>(s: ReturnType<typeof sql>) => rowsOf<T>(await t.ctx.database.db.execute(s));

  beforeAll(async () => {
    t = await createTestApp();
    personas = await seedPersonas(t);
    staff = await seedStaffPersonas(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/portals/acme/admin/email/mailbox',
      headers: staff.adminA,
      payload: { address: SUPPORT, imapHost: '', imapUser: '' },
    });
    expect(res.statusCode, res.body).toBe(200);
    portalId = Number((await q<{ id: number }>(sql`select id from portals where key = 'acme'`))[0]!.id);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
  });

  const replyTo = (ticket: number) => `support+t-${ticketToken(t.ctx.secret, portalId, ticket)}@acme.example`;
  const deskTicket = async (ext: number) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/staff/portals/acme/tickets/${ext}`,
      headers: staff.agentA,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('marks, for agents only, a comment and a ticket whose sender SPF/DKIM did not verify', async () => {
    const forged = await ingestMessage(
      t.ctx,
      portalId,
      mail({
        from: 'Mario Rossi <mario@acme.example>',
        to: replyTo(5001),
        subject: 'Re: stampante',
        body: 'Pagate questo IBAN nuovo.',
        auth: FORGED,
      }),
      'smtp',
    );
    const genuine = await ingestMessage(
      t.ctx,
      portalId,
      mail({
        from: 'mario@acme.example',
        to: replyTo(5001),
        subject: 'Re: stampante',
        body: 'Ora stampa, grazie.',
        auth: GENUINE,
      }),
      'smtp',
    );
    expect([forged.status, genuine.status]).toEqual(['done', 'done']);

    const desk = await deskTicket(5001);
    const comments = desk.json().comments as {
      message: string;
      channel: string;
      senderUnverified: boolean;
    }[];
    const byText = (s: string) => comments.find((c) => c.message.includes(s))!;
    expect(byText('IBAN nuovo')).toMatchObject({ channel: 'email', senderUnverified: true });
    expect(byText('Ora stampa')).toMatchObject({ channel: 'email', senderUnverified: false });
    expect(comments.filter((c) => c.senderUnverified)).toHaveLength(1);
    // Not opened by e-mail.
    expect(desk.json().openingEmail).toBeNull();

    // The customer sees the comment, never the mark.
    const customer = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/tickets/5001',
      headers: personas.admin.headers,
    });
    expect(customer.statusCode).toBe(200);
    expect(customer.body).toContain('IBAN nuovo');
    expect(customer.body).not.toMatch(/senderUnverified|authFailed|openingEmail/);

    // A ticket opened by a forged-looking mail: the opening message carries the mark and the e-mail.
    const opened = await ingestMessage(
      t.ctx,
      portalId,
      mail({
        from: 'Mario Rossi <mario@acme.example>',
        subject: 'Fattura da pagare subito',
        body: 'Allego la fattura.',
        auth: FORGED,
      }),
      'smtp',
    );
    expect(opened.status).toBe('done');
    const [row] = await q<{ ext: number }>(
      sql`select t.ext_id::int as ext from inbound_emails e join tickets t on t.id = e.ticket_id
        where e.id = ${opened.id}::bigint`,
    );
    const first = (await deskTicket(row!.ext)).json();
    expect(first.openingEmail).toMatchObject({ senderUnverified: true });
    const raw = await t.app.inject({ method: 'GET', url: first.openingEmail.originalEmail });
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toContain('Subject: Fattura da pagare subito');
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/acme/101/tickets/${row!.ext}`,
      headers: personas.admin.headers,
    });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toMatch(/senderUnverified|authFailed|openingEmail|\.eml/);
  });

  it('invites an unknown sender as a contact: contact, invitation and ticket in one go', async () => {
    const address = `g-${randomUUID().slice(0, 6)}@elsewhere.example`;
    const entry = await ingestMessage(
      t.ctx,
      portalId,
      mail({
        from: `Giovanni Neri <${address}>`,
        subject: 'Caldaia in blocco',
        body: 'La caldaia del secondo piano è in blocco da stamattina.',
        auth: GENUINE,
      }),
      'smtp',
    );
    const again = await ingestMessage(
      t.ctx,
      portalId,
      mail({ from: address, subject: 'Ancora la caldaia', body: 'Sempre in blocco.', auth: GENUINE }),
      'smtp',
    );
    expect([entry.status, again.status]).toEqual(['unknown', 'unknown']);
    const invite = (payload: object, headers: Record<string, string> = staff.agentA, id = entry.id) =>
      t.app.inject({
        method: 'POST',
        url: `/api/staff/portals/acme/email/inbound/${id}/invite`,
        headers,
        payload,
      });
    const [betaPortal] = await q<{ id: number }>(sql`select id from portals where key = 'beta'`);
    await t.ctx.database.db.execute(
      sql`insert into companies (portal_id, ext_id, company_name) values (${betaPortal!.id}::int, 77, 'Solo Beta')`,
    );
    const counts = async () =>
      (
        await q<{ contacts: number; users: number; tickets: number; mails: number }>(
          sql`select (select count(*)::int from contacts where lower(email) = ${address}) as contacts,
            (select count(*)::int from users where lower(email) = ${address}) as users,
            (select count(*)::int from tickets where portal_id = ${portalId}::int) as tickets,
            (select count(*)::int from outbox where payload->>'to' = ${address}) as mails`,
        )
      )[0]!;
    const before = await counts();

    // Refused, nothing written: another portal's agent, a customer, a company of another portal, a bad body.
    expect((await invite({ companyId: 10, referentName: 'Giovanni Neri' }, staff.agentB)).statusCode).toBe(
      403,
    );
    expect(
      (await invite({ companyId: 10, referentName: 'Giovanni Neri' }, personas.admin.headers)).statusCode,
    ).toBe(401);
    const foreign = await invite({ companyId: 77, referentName: 'Giovanni Neri' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('company_not_found');
    expect((await invite({ companyId: 10, referentName: '' })).statusCode).toBe(400);
    expect((await invite({ companyId: 10, referentName: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await invite({ companyId: 10, referentName: 'Giovanni', extra: 1 })).statusCode).toBe(400);
    // A user name someone has: 409, and the whole invitation rolled back (no contact left behind).
    const taken = await invite({ companyId: 10, referentName: 'Giovanni Neri', userName: 'anna.verdi' });
    expect(taken.statusCode, taken.body).toBe(409);
    expect(await counts()).toEqual(before);

    const made = await invite({ companyId: 10, referentName: 'Giovanni Neri' });
    expect(made.statusCode, made.body).toBe(200);
    const answer = made.json();
    expect(answer).toMatchObject({ userName: address, entry: { id: entry.id, status: 'done' } });
    const after = await counts();
    expect(after).toMatchObject({ contacts: 1, users: 1, tickets: before.tickets + 1 });
    // The invitation and the new ticket's confirmation, queued with the rest.
    expect(after.mails).toBe(before.mails + 2);
    const [contact] = await q<{ company: number; name: string; manage_tickets: boolean; admin: boolean }>(
      sql`select co.ext_id::int as company, c.referent_name as name, c.manage_tickets, c.administrator as admin
        from contacts c join companies co on co.id = c.company_id
        where c.portal_id = ${portalId}::int and c.ext_id = ${answer.contactId}`,
    );
    expect(contact).toEqual({ company: 10, name: 'Giovanni Neri', manage_tickets: true, admin: false });
    const [invitation] = await q<{ subject: string; text: string }>(
      sql`select payload->>'subject' as subject, payload->>'text' as text from outbox
        where payload->>'to' = ${address} and payload->>'text' like '%/confirm?token=%'`,
    );
    expect(invitation!.text).toContain('company=acme');
    const [ticket] = await q<{ creator: number; title: string }>(
      sql`select c.ext_id::int as creator, t.title from tickets t join contacts c on c.id = t.creator_contact_id
        where t.portal_id = ${portalId}::int and t.ext_id = ${answer.entry.ticketId}`,
    );
    expect(ticket).toEqual({ creator: answer.contactId, title: 'Caldaia in blocco' });
    // Audited as the desk's own contact and invitation changes, by the agent.
    const audit = await q<{ entity: string; action: string }>(
      sql`select entity, action from audit_log where portal_id = ${portalId}::int
        and entity_id in (${String(answer.contactId)}, ${address}) order by id`,
    );
    expect(audit).toEqual([
      { entity: 'contact', action: 'created' },
      { entity: 'user', action: 'invited' },
    ]);
    // Done: not again.
    expect((await invite({ companyId: 10, referentName: 'Giovanni Neri' })).statusCode).toBe(404);

    // Their second mail, which waited beside the first: the address is that company's now, attach it.
    const twice = await invite({ companyId: 10, referentName: 'Giovanni Neri' }, staff.agentA, again.id!);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('contact_exists');
  });
});
