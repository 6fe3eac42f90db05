/**
 * Received mail becomes conversation (issue 26, docs/email.md "What a message becomes"), against the
 * real IMAP server as email.test.ts: a contact's reply is their comment, an agent's reply their answer
 * or (#internal) note, a new mail a new ticket, an unknown sender's mail what an agent attaches it to.
 * Uploads are bounded at 1 MB here, so a larger attachment is refused; the tests of large messages
 * raise the bound to the default (25 MB) for their own message.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ImapFlow } from 'imapflow';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ticketToken } from '../../platform/mail-threading';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';
import { seedStaffPersonas } from '../staff/staff.fixture';
import { letter } from './corpus';
import { INBOUND_LIMITS } from './inbound.service';
import { MailboxReader } from './reader';

const IMAP_URL = process.env.TEST_IMAP_URL;
const imap = IMAP_URL ? new URL(IMAP_URL) : undefined;
const SUPPORT = 'support@acme.example';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Base64 in lines of 76 characters (RFC 2045), as mail clients write attachments. */
function base64Lines(bytes: Buffer): Buffer {
  const b64 = bytes.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return Buffer.from(lines.join('\r\n'), 'latin1');
}

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface InboundRow {
  id: number;
  status: string;
  reason: string | null;
  ticket_id: number | null;
  comment_id: number | null;
  raw_file_id: number | null;
  message_key: string;
}

interface CommentRow {
  id: number;
  ext_id: number;
  message: string;
  channel: string;
  internal: boolean;
  sender_contact_id: number | null;
  sender_staff_id: number | null;
  original_email_file_id: number | null;
}

if (!imap)
  describe('received mail becomes conversation', () => {
    it.skip('needs TEST_IMAP_URL (start one with `.ci/dovecot start /tmp/dovecot 14143`)', () => {});
  });
else
  describe('received mail becomes conversation', () => {
    let t: TestApp;
    let personas: Record<Persona, PersonaAccess>;
    let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
    let client: ImapFlow;
    let portalId: number;
    let folder: string;
    let reader: MailboxReader;
    const server = {
      imapHost: imap.hostname,
      imapPort: Number(imap.port),
      imapSecurity: 'none' as const,
      imapUser: decodeURIComponent(imap.username),
      password: decodeURIComponent(imap.password),
    };
    const db = () => t.ctx.database.db;
    const q = async <T>(s: ReturnType<typeof sql>) => rowsOf<T>(await db().execute(s));

    beforeAll(async () => {
      t = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
      personas = await seedPersonas(t);
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
      portalId = Number((await q<{ id: number }>(sql`select id from portals where key = 'acme'`))[0]!.id);
    }, 180_000);

    afterAll(async () => {
      await client?.logout();
      await t?.close();
    });

    /** Each test reads a folder of its own with a reader of its own. */
    async function freshReader(): Promise<void> {
      folder = `c-${randomUUID().slice(0, 8)}`;
      await client.mailboxCreate(folder);
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/staff/portals/acme/admin/email/mailbox',
        headers: staff.adminA,
        payload: { address: SUPPORT, ...server, folder },
      });
      expect(res.statusCode, res.body).toBe(200);
      reader = new MailboxReader(t.ctx, t.app.log, { pollMs: 60_000 });
      await reader.runTick();
    }
    afterEach(async () => {
      await reader?.stop();
    });

    const replyTo = (ticket: number) =>
      `support+t-${ticketToken(t.ctx.secret, portalId, ticket)}@acme.example`;
    const threadOf = (ticket: number) => `<t-${ticketToken(t.ctx.secret, portalId, ticket)}@acme.example>`;
    const messageIdOf = (raw: Buffer) => /^Message-I[dD]:\s*(\S+)/m.exec(raw.toString('latin1'))![1]!;

    /** Delivers a message and waits for its entry (by its Message-ID). */
    async function deliver(raw: Buffer): Promise<InboundRow> {
      const key = messageIdOf(raw);
      await client.append(folder, raw);
      const row = await until(`the entry of ${key}`, async () => {
        const [r] = await q<InboundRow>(
          sql`select id::int, status, reason, ticket_id, comment_id, raw_file_id, message_key from inbound_emails
            where message_key = ${key}`,
        );
        return r;
      });
      await reader.settle();
      return row;
    }

    const commentOf = async (id: number | null) =>
      (
        await q<CommentRow>(
          sql`select id, ext_id::int, message, channel, internal, sender_contact_id, sender_staff_id,
            original_email_file_id from ticket_comments where id = ${id ?? -1}::int`,
        )
      )[0];
    const contactRowId = async (ext: number) =>
      Number(
        (
          await q<{ id: number }>(
            sql`select id from contacts where portal_id = ${portalId}::int and ext_id = ${ext}`,
          )
        )[0]!.id,
      );
    const ticketRow = async (ext: number) =>
      (
        await q<{ id: number; status_step_id: number; step: string; company_ext: number }>(
          sql`select t.id, t.status_step_id, s.name as step, c.ext_id::int as company_ext from tickets t
            join status_steps s on s.id = t.status_step_id join companies c on c.id = t.company_id
            where t.portal_id = ${portalId}::int and t.ext_id = ${ext}`,
        )
      )[0]!;
    const eventsOf = async (type: string) =>
      q<{ data: { comment?: { id: number; channel: string; message: string }; ticket?: { id: number } } }>(
        sql`select data from events where portal_id = ${portalId}::int and type = ${type} order by id`,
      );

    it('Outlook, Gmail, Apple Mail and Thunderbird replies become the contact’s comments, stripped', async () => {
      await freshReader();
      const mario = await contactRowId(101);
      const cases = [
        // Matched by the Reply-To token in the recipients…
        [
          letter('outlook-reply-it', { FROM: 'mario@acme.example', TO: replyTo(5001), INREPLYTO: '<x@y>' }),
          '<p>Buongiorno, la stampante è ancora ferma: il display dice "Errore 52".</p><p>Grazie<br>Mario</p>',
        ],
        // …by References/In-Reply-To…
        [
          letter('gmail-reply-es', { FROM: 'Mario@Acme.example', TO: SUPPORT, INREPLYTO: threadOf(5001) }),
          '<p>Gracias, ya funciona. ¡Perfecto!</p>',
        ],
        // …by the ticket number in the subject, among the sender's companies.
        [
          letter('apple-mail-reply-it', { FROM: 'mario@acme.example', TO: SUPPORT, INREPLYTO: '<a@b>' }),
          '<p>Ho riavviato e ora stampa.</p><p>Mario</p>',
        ],
        [
          letter('thunderbird-reply-en', { FROM: 'mario@acme.example', TO: SUPPORT, INREPLYTO: '<c@d>' }),
          '<p>Thanks, it works now.</p>',
        ],
      ] as const;
      const ticket = await ticketRow(5001);
      const notices0 = (
        await q<{ n: number }>(
          sql`select count(*)::int as n from outbox where payload->>'subject' like '%2026/0012%'
            and payload->>'to' in ('luca@acme.example', 'boss@acme.example')`,
        )
      )[0]!.n;
      for (const [raw, html] of cases) {
        const entry = await deliver(raw);
        expect(entry, messageIdOf(raw)).toMatchObject({ status: 'done', reason: null, ticket_id: ticket.id });
        const c = (await commentOf(entry.comment_id))!;
        expect(c.message).toBe(html);
        expect(c).toMatchObject({
          channel: 'email',
          internal: false,
          sender_contact_id: mario,
          sender_staff_id: null,
          // The whole message is the comment's (the agents' "show full e-mail").
          original_email_file_id: entry.raw_file_id,
        });
      }
      // The events of a portal reply, saying the channel.
      const events = (await eventsOf('ticket.comment_added')).filter(
        (e) => e.data.comment?.channel === 'email',
      );
      expect(events.map((e) => e.data.comment!.message)).toEqual(cases.map(([, html]) => html));
      // The agents' notices of a customer reply, as for the portal.
      const notices1 = (
        await q<{ n: number }>(
          sql`select count(*)::int as n from outbox where payload->>'subject' like '%2026/0012%'
            and payload->>'to' in ('luca@acme.example', 'boss@acme.example')`,
        )
      )[0]!.n;
      expect(notices1).toBeGreaterThan(notices0);

      // The customer's and the desk's conversations say which came by e-mail.
      const customer = await t.app.inject({
        method: 'GET',
        url: '/api/acme/101/tickets/5001',
        headers: personas.admin.headers,
      });
      const mine = (customer.json().comments as { message: string; channel: string }[]).filter((x) =>
        cases.some(([, html]) => html === x.message),
      );
      expect(mine.map((x) => x.channel)).toEqual(['email', 'email', 'email', 'email']);
      const desk = await t.app.inject({
        method: 'GET',
        url: '/api/staff/portals/acme/tickets/5001',
        headers: staff.agentA,
      });
      expect(desk.statusCode, desk.body).toBe(200);
      const deskComments = desk.json().comments as { channel: string; originalEmail: string | null }[];
      const byMail = deskComments.filter((x) => x.channel === 'email');
      expect(byMail.length).toBe(4);
      // "Show full e-mail": the message as received, by a signed link like the attachments'.
      const raw = await t.app.inject({ method: 'GET', url: byMail[0]!.originalEmail! });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers['content-disposition']).toMatch(/^attachment/);
      expect(raw.body).toContain('Thread-Topic: Nuova risposta al ticket 2026/0012');
      // Customers see the channel, not the message as received.
      expect(customer.body).not.toContain('originalEmail');
    });

    it('a reply to a closed ticket reopens it; a contact out of reach leaves the message waiting', async () => {
      await freshReader();
      expect((await ticketRow(5002)).step).toBe('Chiuso');
      const entry = await deliver(
        letter('thunderbird-reply-en', { FROM: 'mario@acme.example', TO: replyTo(5002), INREPLYTO: '<e@f>' }),
      );
      expect(entry.status).toBe('done');
      expect((await ticketRow(5002)).step).toBe('Nuovo');
      const reopened = await eventsOf('ticket.reopened');
      expect(reopened.at(-1)!.data.ticket!.id).toBe(5002);
      // Anna (102) did not open 5001 and is no administrator: as on the portal, she cannot write on it.
      const anna = await deliver(
        letter('apple-mail-reply-it', { FROM: 'anna@acme.example', TO: replyTo(5001), INREPLYTO: '<g@h>' }),
      );
      expect(anna.status).toBe('waiting');
      expect(anna.reason).toMatch(/^reply to ticket 2026\/0012: No such ticket/);
      expect(anna.comment_id).toBeNull();
      // Nothing of hers was written: no comment, no file taken for it.
      const [raw] = await q<{ attached_at: string | null; uploaded_by_contact_id: number | null }>(
        sql`select attached_at, uploaded_by_contact_id from files where id = ${anna.raw_file_id}::int`,
      );
      expect(raw).toMatchObject({ uploaded_by_contact_id: null });
      expect(raw!.attached_at).not.toBeNull();
    });

    it('an agent’s reply is their public answer; starting with #internal it is a note', async () => {
      await freshReader();
      const before = (
        await q<{ n: number }>(
          sql`select count(*)::int as n from outbox where payload->>'to' = 'mario@acme.example'`,
        )
      )[0]!.n;
      const answer = await deliver(
        letter('thunderbird-reply-en', { FROM: 'luca@acme.example', TO: replyTo(5001), INREPLYTO: '<i@j>' }),
      );
      expect(answer.status).toBe('done');
      const a = (await commentOf(answer.comment_id))!;
      expect(a).toMatchObject({
        channel: 'email',
        internal: false,
        sender_contact_id: null,
        message: '<p>Thanks, it works now.</p>',
      });
      expect(a.sender_staff_id).not.toBeNull();
      const agentEvents = await eventsOf('agent.comment_added');
      expect(agentEvents.at(-1)!.data.comment).toMatchObject({ id: Number(a.ext_id), channel: 'email' });
      // The customer got the answer by e-mail, as from the desk.
      const after = (
        await q<{ n: number }>(
          sql`select count(*)::int as n from outbox where payload->>'to' = 'mario@acme.example'`,
        )
      )[0]!.n;
      expect(after).toBe(before + 1);

      const note = Buffer.from(
        `From: Luca <luca@acme.example>\r\nTo: ${replyTo(5001)}\r\nSubject: Re: ticket 2026/0012\r\n` +
          `Message-ID: <note-${randomUUID()}@acme.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n` +
          `#internal Il cliente ha già riavviato due volte.\r\n\r\nOn Mon, Luca wrote:\r\n> old\r\n`,
      );
      const noted = await deliver(note);
      expect(noted.status).toBe('done');
      const n = (await commentOf(noted.comment_id))!;
      expect(n).toMatchObject({ internal: true, message: '<p>Il cliente ha già riavviato due volte.</p>' });
      // A note leaves no event and no customer e-mail.
      expect((await eventsOf('agent.comment_added')).length).toBe(agentEvents.length);
      expect(
        (
          await q<{ n: number }>(
            sql`select count(*)::int as n from outbox where payload->>'to' = 'mario@acme.example'`,
          )
        )[0]!.n,
      ).toBe(after);
    });

    it('a new mail of a contact opens a ticket; a contact without ticket rights waits', async () => {
      await freshReader();
      // Mario is contact 101 (company 10) and, through his user, 201 (company 20): the lowest id's company.
      const entry = await deliver(letter('html-only-it', { FROM: 'mario@acme.example', TO: SUPPORT }));
      expect(entry.status).toBe('done');
      const [ticket] = await q<{
        ext_id: number;
        title: string;
        description: string;
        creator: number;
        company_ext: number;
        type_ext: number;
      }>(
        sql`select t.ext_id::int, t.title, t.description, c.ext_id::int as creator, co.ext_id::int as company_ext,
            ty.ext_id::int as type_ext
          from tickets t join contacts c on c.id = t.creator_contact_id join companies co on co.id = t.company_id
          join ticket_types ty on ty.id = t.type_id where t.id = ${entry.ticket_id}::int`,
      );
      expect(ticket).toMatchObject({
        title: 'Stampante nuova in ufficio',
        creator: 101,
        company_ext: 10,
        type_ext: 1,
      });
      expect(ticket!.description).toContain('stampante nuova');
      expect(ticket!.description).not.toContain('alert');
      const created = await eventsOf('ticket.created');
      expect(created.at(-1)!.data.ticket!.id).toBe(Number(ticket!.ext_id));
      // The portal's confirmation, to the address that wrote, threaded on the ticket.
      const [confirmation] = await q<{
        payload: { subject: string; text: string; autoSubmitted: string; thread: { replyTo: string } };
      }>(
        sql`select payload from outbox where payload->>'to' = 'mario@acme.example'
          and payload->>'subject' like '%Stampante nuova in ufficio%' order by id desc limit 1`,
      );
      expect(confirmation!.payload.text).toContain("hai scritto all'indirizzo dell'assistenza");
      expect(confirmation!.payload.autoSubmitted).toBe('auto-replied');
      expect(confirmation!.payload.thread.replyTo).toBe(replyTo(Number(ticket!.ext_id)));

      const paolo = await deliver(letter('html-only-it', { FROM: 'paolo@acme.example', TO: SUPPORT }));
      expect(paolo).toMatchObject({
        status: 'waiting',
        reason: 'the contact may not open tickets',
        ticket_id: null,
      });
    });

    it('reads a message once, even when the reader reads it again', async () => {
      await freshReader();
      const raw = letter('gmail-reply-es', {
        FROM: 'mario@acme.example',
        TO: replyTo(5001),
        INREPLYTO: '<k@l>',
      });
      const entry = await deliver(raw);
      expect(entry.status).toBe('done');
      const count = async () =>
        (await q<{ n: number }>(sql`select count(*)::int as n from ticket_comments`))[0]!.n;
      const comments = await count();
      // The reader died before moving its cursor: another reads the folder from the start.
      await reader.stop();
      await db().execute(
        sql`update portal_mailboxes set last_uid = 0, lease_owner = null, lease_until = null`,
      );
      reader = new MailboxReader(t.ctx, t.app.log, { pollMs: 60_000 });
      await reader.runTick();
      await until('the cursor past the message', async () => {
        const [m] = await q<{ last_uid: number }>(sql`select last_uid from portal_mailboxes`);
        return Number(m!.last_uid) > 0 ? true : undefined;
      });
      await reader.settle();
      expect(await count()).toBe(comments);
      const [n] = await q<{ n: number }>(
        sql`select count(*)::int as n from inbound_emails where message_key = ${entry.message_key}`,
      );
      expect(n!.n).toBe(1);
    });

    it('keeps the attachments within the upload rules and notes the one refused', async () => {
      await freshReader();
      const boundary = 'b-' + randomUUID();
      const big = Buffer.alloc(1.2 * 1024 * 1024, 7)
        .toString('base64')
        .replace(/.{76}/g, '$&\r\n');
      const raw = Buffer.from(
        `From: Mario Rossi <mario@acme.example>\r\nTo: ${replyTo(5001)}\r\nSubject: Re: foto\r\n` +
          `Message-ID: <att-${randomUUID()}@acme.example>\r\nMIME-Version: 1.0\r\n` +
          `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
          `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nEcco la foto e il registro.\r\n` +
          `--${boundary}\r\nContent-Type: text/plain; name="log.txt"\r\nContent-Disposition: attachment; filename="log.txt"\r\n\r\nerrore 52\r\n` +
          `--${boundary}\r\nContent-Type: application/octet-stream; name="dump.bin"\r\n` +
          `Content-Disposition: attachment; filename="dump.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\n${big}\r\n` +
          `--${boundary}--\r\n`,
      );
      const entry = await deliver(raw);
      expect(entry.status).toBe('done');
      expect(entry.reason).toBe('attachments not accepted: dump.bin (larger than 1 MB)');
      const c = (await commentOf(entry.comment_id))!;
      expect(c.message).toBe(
        '<p>Ecco la foto e il registro.</p><p><em>Allegato non accettato: dump.bin (più grande di 1 MB)</em></p>',
      );
      const attachments = await q<{ name: string; content_type: string; size: number }>(
        sql`select a.name, f.content_type, f.size::int from ticket_attachments a join files f on f.id = a.file_id
          where a.comment_id = ${c.id}::int`,
      );
      expect(attachments).toEqual([{ name: 'log.txt', content_type: 'text/plain', size: 9 }]);
    });

    const attachmentsOf = (commentId: number) =>
      q<{ name: string; content_type: string; size: number; sha256: string }>(
        sql`select a.name, f.content_type, f.size::int, f.sha256 from ticket_attachments a
          join files f on f.id = a.file_id where a.comment_id = ${commentId}::int order by a.id`,
      );

    it('a forwarded mail opens a ticket with the forwarded message kept, not cut as history', async () => {
      await freshReader();
      const gmail = await deliver(letter('gmail-forward-it', { FROM: 'mario@acme.example', TO: SUPPORT }));
      // Outlook in Italian says "I:"; its forward also names the supplier's message in In-Reply-To.
      const outlook = await deliver(
        letter('outlook-forward-it', { FROM: 'mario@acme.example', TO: SUPPORT }),
      );
      const opened = [];
      for (const entry of [gmail, outlook]) {
        expect(entry).toMatchObject({ status: 'done', reason: null });
        const [ticket] = await q<{ title: string; description: string; creator: number }>(
          sql`select t.title, t.description, c.ext_id::int as creator from tickets t
            join contacts c on c.id = t.creator_contact_id where t.id = ${entry.ticket_id}::int`,
        );
        expect(ticket!.creator).toBe(101);
        opened.push(ticket!);
      }
      expect(opened.map((x) => x.title)).toEqual(['Spedizione 8812 in giacenza', 'Conferma ordine 4471']);
      // What Mario wrote, the forwarded header block and the forwarded message with its signature.
      expect(opened[0]!.description).toBe(
        "<p>Vi giro l'avviso del corriere: la stampante nuova è ferma a Bologna.</p>" +
          '<p>---------- Forwarded message ---------<br>Da: Corriere Espresso &lt;avvisi@corriere.example&gt;<br>' +
          'Date: ven 20 nov 2026 alle ore 18:02<br>Subject: Spedizione 8812 in giacenza<br>' +
          'To: &lt;mario@acme.example&gt;</p>' +
          '<p>Gentile cliente,<br>la spedizione 8812 è in giacenza presso il deposito di Bologna.<br>' +
          'Per concordare una nuova consegna risponda entro 5 giorni.</p><p>-- <br>Corriere Espresso S.p.A.</p>',
      );
      expect(opened[1]!.description).toContain('<p>Vi inoltro la conferma del fornitore');
      expect(opened[1]!.description).toContain('Oggetto: Conferma ordine 4471</p>');
      expect(opened[1]!.description).toContain(
        'il toner TN-2420 (ordine 4471) sarà consegnato entro il 27 novembre.</p><p>Cordiali saluti<br>Ufficio Ordini</p>',
      );
    });

    it('an Outlook reply’s winmail.dat is an ordinary attachment of the comment, byte for byte', async () => {
      await freshReader();
      const raw = letter('outlook-winmail-it', {
        FROM: 'mario@acme.example',
        TO: replyTo(5001),
        INREPLYTO: '<w@x>',
      });
      const tnef = Buffer.from(
        /filename="winmail\.dat"[\s\S]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+)\r\n--/.exec(
          raw.toString('latin1'),
        )![1]!,
        'base64',
      );
      // TNEF's signature: what Outlook sent, not parsed and not dropped.
      expect(tnef.readUInt32LE(0)).toBe(0x223e9f78);
      const entry = await deliver(raw);
      expect(entry).toMatchObject({ status: 'done', reason: null });
      const c = (await commentOf(entry.comment_id))!;
      // The history under "-----Messaggio originale-----" is cut with its separator.
      expect(c.message).toBe("<p>Allego la schermata dell'errore (formato RTF di Outlook).</p><p>Mario</p>");
      expect(await attachmentsOf(c.id)).toEqual([
        { name: 'winmail.dat', content_type: 'application/ms-tnef', size: tnef.length, sha256: sha256(tnef) },
      ]);
    });

    it('a 20 MB attachment on a reply is kept byte for byte under the default 25 MB limit', async () => {
      await freshReader();
      const bytes = randomBytes(20 * 1024 * 1024);
      const boundary = 'b-' + randomUUID();
      const raw = Buffer.concat([
        Buffer.from(
          `From: Mario Rossi <mario@acme.example>\r\nTo: ${replyTo(5001)}\r\nSubject: Re: scansione\r\n` +
            `Message-ID: <big-${randomUUID()}@acme.example>\r\nMIME-Version: 1.0\r\n` +
            `Content-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
            `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nEcco la scansione completa.\r\n` +
            `--${boundary}\r\nContent-Type: application/pdf; name="scansione.pdf"\r\n` +
            `Content-Disposition: attachment; filename="scansione.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n`,
        ),
        base64Lines(bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      expect(raw.length).toBeLessThan(INBOUND_LIMITS.maxBytes);
      // Under this file's 1 MB it would be refused with the note (the test of the refused attachment).
      const limit = t.ctx.config.MAX_UPLOAD_MB;
      t.ctx.config.MAX_UPLOAD_MB = 25;
      let entry: InboundRow;
      try {
        entry = await deliver(raw);
      } finally {
        t.ctx.config.MAX_UPLOAD_MB = limit;
      }
      expect(entry).toMatchObject({ status: 'done', reason: null });
      const c = (await commentOf(entry.comment_id))!;
      expect(c.message).toBe('<p>Ecco la scansione completa.</p>');
      expect(await attachmentsOf(c.id)).toEqual([
        { name: 'scansione.pdf', content_type: 'application/pdf', size: bytes.length, sha256: sha256(bytes) },
      ]);
    }, 120_000);

    it('a message over 40 MB is recorded unprocessed from its headers alone; the next one is read', async () => {
      await freshReader();
      const line = 'QUJD'.repeat(19) + '\r\n';
      const boundary = 'b-' + randomUUID();
      const key = `<huge-${randomUUID()}@acme.example>`;
      const head =
        `From: Mario Rossi <mario@acme.example>\r\nTo: ${replyTo(5001)}\r\nSubject: Re: il video\r\n` +
        `Message-ID: ${key}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n`;
      const huge = Buffer.from(
        head +
          `--${boundary}\r\nContent-Type: text/plain\r\n\r\nEcco il video.\r\n` +
          `--${boundary}\r\nContent-Type: video/mp4; name="video.mp4"\r\n` +
          `Content-Disposition: attachment; filename="video.mp4"\r\nContent-Transfer-Encoding: base64\r\n\r\n` +
          line.repeat(Math.ceil((INBOUND_LIMITS.maxBytes + 1024 * 1024) / line.length)) +
          `--${boundary}--\r\n`,
        'latin1',
      );
      expect(huge.length).toBeGreaterThan(INBOUND_LIMITS.maxBytes + 1024 * 1024);
      const next = letter('thunderbird-reply-en', {
        FROM: 'mario@acme.example',
        TO: replyTo(5001),
        INREPLYTO: '<o@p>',
      });
      // What the reader asks the server for, by message (the calls go through to the server).
      const fetches = vi.spyOn(ImapFlow.prototype, 'fetchOne');
      let asked: string[];
      try {
        await client.append(folder, huge);
        const after = await deliver(next);
        expect(after.status).toBe('done');
        expect((await commentOf(after.comment_id))!.message).toBe('<p>Thanks, it works now.</p>');
        // Its size, then its headers: never its source; the next message's source whole.
        asked = fetches.mock.calls.map(([, query]) => Object.keys(query).join(','));
      } finally {
        fetches.mockRestore();
      }
      const [entry] = await q<InboundRow & { size: number; from_address: string; subject: string }>(
        sql`select status, reason, ticket_id, comment_id, raw_file_id, size::int, from_address, subject
          from inbound_emails where message_key = ${key}`,
      );
      expect(entry).toEqual({
        status: 'unprocessed',
        reason: 'larger than 40 MB',
        ticket_id: null,
        comment_id: null,
        raw_file_id: null,
        size: huge.length,
        from_address: 'mario@acme.example',
        subject: 'Re: il video',
      });
      expect(asked).toEqual(['size', 'headers', 'size', 'source']);
      const [box] = await q<{ last_uid: number }>(sql`select last_uid::int from portal_mailboxes`);
      expect(box!.last_uid).toBe(2);
    }, 120_000);

    it('an agent attaches an unknown sender’s mail to a contact: a new ticket, or a comment on one', async () => {
      await freshReader();
      const stranger = `x-${randomUUID().slice(0, 6)}@elsewhere.example`;
      const one = await deliver(letter('html-only-it', { FROM: stranger, TO: SUPPORT }));
      const two = await deliver(
        letter('thunderbird-reply-en', { FROM: stranger, TO: SUPPORT, INREPLYTO: '<m@n>' }),
      );
      expect([one.status, two.status]).toEqual(['unknown', 'unknown']);
      const attach = (id: number, payload: object, headers = staff.agentA) =>
        t.app.inject({
          method: 'POST',
          url: `/api/staff/portals/acme/email/inbound/${id}/attach`,
          headers,
          payload,
        });
      // A contact of another portal's numbering, a ticket of another company: refused, nothing done.
      expect((await attach(one.id, { contactId: 999 })).json().code).toBe('contact_not_found');
      expect((await attach(one.id, { contactId: 102, ticketId: 6001 })).json().code).toBe('ticket_not_found');
      expect((await attach(one.id, { contactId: 102 }, staff.agentB)).statusCode).toBe(403);

      const made = await attach(one.id, { contactId: 102 });
      expect(made.statusCode, made.body).toBe(200);
      expect(made.json()).toMatchObject({ status: 'done', id: one.id });
      const [opened] = await q<{ creator: number; title: string }>(
        sql`select c.ext_id::int as creator, t.title from tickets t join contacts c on c.id = t.creator_contact_id
          where t.ext_id = ${made.json().ticketId}`,
      );
      expect(opened).toEqual({ creator: 102, title: 'Stampante nuova in ufficio' });
      // Done: not again.
      expect((await attach(one.id, { contactId: 102 })).statusCode).toBe(404);

      const added = await attach(two.id, { contactId: 102, ticketId: 5003 });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().ticketId).toBe(5003);
      const [entry] = await q<InboundRow & { handled_by_staff_id: number | null }>(
        sql`select comment_id, handled_by_staff_id from inbound_emails where id = ${two.id}`,
      );
      const c = (await commentOf(entry!.comment_id))!;
      expect(c).toMatchObject({
        channel: 'email',
        message: '<p>Thanks, it works now.</p>',
        sender_contact_id: await contactRowId(102),
      });
      expect(entry!.handled_by_staff_id).not.toBeNull();

      // Discarding is the other way out.
      const three = await deliver(
        Buffer.from(
          `Message-ID: <d-${randomUUID()}@e>\r\n${letter('no-message-id-it', { FROM: stranger, TO: SUPPORT }).toString('latin1')}`,
          'latin1',
        ),
      );
      const discard = await t.app.inject({
        method: 'POST',
        url: `/api/staff/portals/acme/email/inbound/${three.id}/discard`,
        headers: staff.agentA,
      });
      expect(discard.statusCode).toBe(204);
      expect((await attach(three.id, { contactId: 102 })).statusCode).toBe(404);
    });
  });
