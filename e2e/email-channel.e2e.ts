import { randomUUID } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import {
  api,
  contextWith,
  DEMO_AGENT,
  expectAccessible,
  get,
  login,
  mailsWith,
  staffLogin,
  waitForMail,
} from './kit';

// E-mail as a channel (issue 26, docs/email.md), end to end: the server's own reader reads the real IMAP
// server (TEST_IMAP_URL, as the API tests), the customer's reply written in a mail client becomes their
// comment, and both screens say it came by e-mail; the agent answers the desk's notice of it from their
// own mail client, publicly and with an `#internal` note. Demo data: user `demo` (demo@sportello.example)
// holds contact 11 (Marco Rossi, administrator); Sara Conti is an agent of the desk.
const IMAP_URL = process.env.TEST_IMAP_URL;
const ADMIN_KEY = 'e2e-admin-key-0123456789';
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it', 'Inviato per e-mail', 'Ricevuto per e-mail', "Mostra l'e-mail completa"],
  ['en-EN', 'en', 'Sent by e-mail', 'Received by e-mail', 'Show full e-mail'],
  [
    'es-ES',
    'es',
    'Enviado por correo electrónico',
    'Recibido por correo electrónico',
    'Ver el correo completo',
  ],
] as const;

/** A header's address (`Name <a@b>` or `a@b`) in an e-mail's text. */
function headerAddress(mail: string, header: string): string {
  const line = new RegExp(`^${header}: (.*)$`, 'm').exec(mail)?.[1] ?? '';
  return (/<([^>]+)>/.exec(line)?.[1] ?? line).trim();
}

describe.skipIf(!IMAP_URL)('e-mail as a channel', () => {
  let browser: Browser;
  let imap: ImapFlow;
  let folder: string;
  /** The customer's reply of the first step, which the second answers. */
  let customerText = '';
  const url = new URL(IMAP_URL ?? 'imap://x');

  beforeAll(async () => {
    browser = await launch();
    imap = new ImapFlow({
      host: url.hostname,
      port: Number(url.port),
      secure: false,
      doSTARTTLS: false,
      auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
      logger: false,
    });
    await imap.connect();
    folder = `e2e-${randomUUID().slice(0, 8)}`;
    await imap.mailboxCreate(folder);
    // The installation key sets the demo portal's support mailbox; the server's reader takes it up.
    await api('PUT', '/api/admin/portals/demo/email/mailbox', ADMIN_KEY, {
      address: 'assistenza@sportello.example',
      imapHost: url.hostname,
      imapPort: Number(url.port),
      imapSecurity: 'none',
      imapUser: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      folder,
    });
  }, 60_000);

  afterAll(async () => {
    await api('DELETE', '/api/admin/portals/demo/email/mailbox', ADMIN_KEY).catch(() => undefined);
    await imap?.logout();
    await browser?.close();
  });

  it('a reply written in a mail client is the customer’s comment, marked on both screens', async () => {
    const token = await login('demo');
    const ticket = await get<{ ticketNumber: string }>('/api/demo/11/tickets/1001', token);
    const text = `Grazie, dopo il riavvio il gestionale si avvia. ${randomUUID().slice(0, 6)}`;
    customerText = text;
    await imap.append(
      folder,
      Buffer.from(
        `From: Marco Rossi <demo@sportello.example>\r\nTo: assistenza@sportello.example\r\n` +
          `Subject: Re: Nuova risposta al ticket ${ticket.ticketNumber}\r\n` +
          `Message-ID: <e2e-${randomUUID()}@sportello.example>\r\nMIME-Version: 1.0\r\n` +
          `Content-Type: text/plain; charset=utf-8\r\n\r\n${text}\r\n\r\n` +
          `Il giorno lun, Assistenza ha scritto:\r\n> Abbiamo aggiornato il gestionale.\r\n`,
      ),
    );
    // The reader polls every 30 s until its connection idles on the folder.
    await expect
      .poll(
        async () =>
          (
            await get<{ comments: { message: string; channel?: string }[] }>(
              '/api/demo/11/tickets/1001',
              token,
            )
          ).comments.find((c) => c.message.includes(text))?.channel,
        { timeout: 90_000, interval: 1000 },
      )
      .toBe('email');
    const staffToken = await staffLogin(DEMO_AGENT);

    for (const [i, width] of WIDTHS.entries()) {
      for (const [language, short, customerLabel, deskLabel, fullEmail] of languagesAt(LANGUAGES, i)) {
        const customer = await contextWith(browser, { width, language, contactToken: token });
        const page = await customer.newPage();
        await page.goto(`${baseUrl}/demo/11/tickets/1001`);
        const mine = page.getByTestId('ticket-comment').filter({ hasText: text });
        await mine.waitFor();
        await expect.poll(() => mine.getByRole('img', { name: customerLabel }).count()).toBe(1);
        expect(await mine.getByTestId('full-email').count()).toBe(0);
        await expectAccessible(page);
        await screenshot(page, `email-customer-ticket-${short}-${width}`);
        await customer.close();

        const desk = await contextWith(browser, { width, language, staffToken });
        const dp = await desk.newPage();
        await dp.goto(`${baseUrl}/demo/staff/tickets/1001`);
        const theirs = dp.getByTestId('message').filter({ hasText: text });
        await theirs.waitFor();
        await expect.poll(() => theirs.getByRole('img', { name: deskLabel }).count()).toBe(1);
        const link = theirs.getByRole('link', { name: fullEmail });
        // "Show full e-mail": the message as received, headers and quoted history included.
        const raw = await fetch(new URL((await link.getAttribute('href'))!, baseUrl));
        expect(raw.status).toBe(200);
        expect(await raw.text()).toContain('> Abbiamo aggiornato il gestionale.');
        await expectAccessible(dp);
        await screenshot(dp, `email-desk-ticket-${short}-${width}`);
        await desk.close();
      }
    }
  }, 240_000);

  it('an agent answers the desk’s notice by e-mail: the customer’s answer, and a note only the desk sees', async () => {
    expect(customerText, 'the first step ran').not.toBe('');
    // The desk's notice of the customer's reply, to an agent: its Reply-To carries the ticket's token.
    let notices: string[] = [];
    await expect
      .poll(
        () =>
          (notices = mailsWith(customerText).filter(
            (m) => /^Auto-Submitted: auto-generated/m.test(m) && /^Reply-To: /m.test(m),
          )).length,
        { timeout: 30_000, message: 'the desk’s notice of the customer’s reply' },
      )
      .toBeGreaterThan(0);
    // Sara's when she is among those told, else the first agent's.
    const notice = notices.find((m) => headerAddress(m, 'To') === DEMO_AGENT) ?? notices[0]!;
    const agent = headerAddress(notice, 'To');
    const replyTo = headerAddress(notice, 'Reply-To');
    const agentName = agent === DEMO_AGENT ? 'Sara Conti' : 'Marco Ferri';
    expect(replyTo).toMatch(/^assistenza\+t-.+@sportello\.example$/);
    const tag = randomUUID().slice(0, 6);
    const answer = `Bene, allora chiudiamo la segnalazione. ${tag}`;
    const note = `Il cliente ha riavviato due volte prima di scriverci. ${tag}`;
    const mail = (body: string) =>
      Buffer.from(
        `From: ${agent}\r\nTo: ${replyTo}\r\nSubject: Re: ${/^Subject: (.*)$/m.exec(notice)![1]}\r\n` +
          `Message-ID: <e2e-${randomUUID()}@sportello.example>\r\nMIME-Version: 1.0\r\n` +
          `Content-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n\r\n` +
          `Il giorno lun, Marco Rossi ha scritto:\r\n> ${customerText}\r\n`,
      );
    await imap.append(folder, mail(answer));
    await imap.append(folder, mail(`#internal ${note}`));

    const token = await login('demo');
    const staffToken = await staffLogin(DEMO_AGENT);
    type Conversation = { comments: { message: string; channel?: string; internal?: boolean }[] };
    const desk = () => get<Conversation>('/api/staff/portals/demo/tickets/1001', staffToken);
    // The desk has both, the note as internal; the customer only the answer.
    await expect
      .poll(
        async () =>
          (await desk()).comments
            .filter((c) => c.message.includes(tag))
            .map((c) => [c.internal === true, c.channel])
            .sort(),
        { timeout: 60_000, interval: 1000 },
      )
      .toEqual([
        [false, 'email'],
        [true, 'email'],
      ]);
    const theirs = (await get<Conversation>('/api/demo/11/tickets/1001', token)).comments.filter((c) =>
      c.message.includes(tag),
    );
    expect(theirs.map((c) => c.message)).toEqual([`<p>${answer}</p>`]);
    // The customer gets the answer by e-mail too, as one written in the desk; never the note.
    await waitForMail('demo@sportello.example', answer);
    expect(mailsWith(note).filter((m) => /^To: .*demo@sportello\.example/m.test(m))).toEqual([]);

    for (const [i, width] of WIDTHS.entries()) {
      for (const [language, short] of languagesAt(LANGUAGES, i)) {
        const customer = await contextWith(browser, { width, language, contactToken: token });
        const page = await customer.newPage();
        await page.goto(`${baseUrl}/demo/11/tickets/1001`);
        const reply = page.getByTestId('ticket-comment').filter({ hasText: answer });
        await reply.waitFor();
        // The agent's answer, under their name; the note nowhere.
        expect(await reply.getByText(agentName).count()).toBeGreaterThan(0);
        expect(await page.getByText(note).count()).toBe(0);
        await expectAccessible(page);
        await screenshot(page, `email-agent-answer-customer-${short}-${width}`);
        await customer.close();

        const deskCtx = await contextWith(browser, { width, language, staffToken });
        const dp = await deskCtx.newPage();
        await dp.goto(`${baseUrl}/demo/staff/tickets/1001`);
        await dp.getByTestId('message').filter({ hasText: answer }).waitFor();
        await dp.getByTestId('note').filter({ hasText: note }).waitFor();
        await expectAccessible(dp);
        await screenshot(dp, `email-agent-answer-desk-${short}-${width}`);
        await deskCtx.close();
      }
    }
  }, 240_000);
});
