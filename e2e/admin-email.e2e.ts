import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ImapFlow } from 'imapflow';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { DEMO_ADMIN, expectAccessible, pageWith, staffLogin } from './kit';

const MAILBOX_API = `${baseUrl}/api/staff/portals/demo/admin/email/mailbox`;
const EMAIL_URL = `${baseUrl}/demo/staff/admin/email`;
const WIDTHS = [1366, 360] as const;
const LANGUAGES = ['it-IT', 'en-EN', 'es-ES'] as const;
const SUPPORT = 'assistenza@sportello.example';
// Giulia Bianchi of Rossi Impianti (apps/api/src/modules/admin/demo-rossi.ts), whose mail will bounce.
const GIULIA = 'giulia.bianchi@rossi-impianti.example';
const GIULIA_URL = `${baseUrl}/demo/staff/admin/companies/1/contacts/12`;

// Dovecot of the test machine (`.ci/dovecot start DIR PORT`), passed on by run.mjs's environment.
const IMAP_URL = process.env.TEST_IMAP_URL;
const imap = IMAP_URL ? new URL(IMAP_URL) : undefined;

const adminPage = (browser: Browser, token: string, width = 1366, language = 'en-EN'): Promise<Page> =>
  pageWith(browser, { staffToken: token, width, language });

const crlf = (s: string) => s.replace(/\n/g, '\r\n');

/** From an address no contact has, with a failed SPF check: it waits under "Unknown senders". */
const stranger = (n: string) =>
  crlf(`Authentication-Results: mx.sportello.example; spf=fail smtp.mailfrom=elsewhere.example
From: Giulia Sconosciuta <giulia@elsewhere.example>
To: ${SUPPORT}
Subject: Richiesta di preventivo ${n}
Date: Tue, 24 Nov 2026 10:00:00 +0100
Message-ID: <stranger-${n}@elsewhere.example>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Buongiorno, vorrei un preventivo per l'assistenza annuale.
`);

/** A delivery report saying Giulia's mailbox does not exist (the API's test corpus). */
const dsn = (n: string) =>
  readFileSync(new URL('../apps/api/src/modules/email/corpus/dsn.eml', import.meta.url), 'latin1').replace(
    /\{\{(\w+)\}\}/g,
    (_, k: string) => ({ TO: SUPPORT, BOUNCED: GIULIA, N: n })[k] ?? k,
  );

/** No sender at all: it cannot be answered nor filed, and ends "Unprocessed". */
const senderless = (n: string) =>
  crlf(`To: ${SUPPORT}
Subject: Messaggio senza mittente ${n}
Date: Tue, 24 Nov 2026 10:05:00 +0100
Message-ID: <senderless-${n}@nowhere.example>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Chi mi ha scritto?
`);

if (!imap)
  describe('desk administration: the support mailbox', () => {
    it.skip('needs TEST_IMAP_URL (a Dovecot: `.ci/dovecot start /tmp/dovecot 14143`)', () => {});
  });
else
  describe('desk administration: the support mailbox', () => {
    let browser: Browser;
    let token: string;
    let client: ImapFlow;
    const folder = `e2e-${randomUUID().slice(0, 8)}`;
    const n = randomUUID().slice(0, 6);
    const user = decodeURIComponent(imap.username);
    const password = decodeURIComponent(imap.password);
    const paolo = `paolo-${n}@elsewhere.example`;
    /** The ticket Paolo's mail opened once he was invited. */
    let paoloTicket = 0;

    beforeAll(async () => {
      browser = await launch();
      token = await staffLogin(DEMO_ADMIN);
      client = new ImapFlow({
        host: imap.hostname,
        port: Number(imap.port),
        secure: false,
        doSTARTTLS: false,
        auth: { user, pass: password },
        logger: false,
      });
      await client.connect();
      await client.mailboxCreate(folder);
      await client.append(folder, stranger(n));
      // A second one, which stays in the list for the screens.
      await client.append(folder, stranger(`${n}-bis`).replace('Richiesta di preventivo', 'Informazioni'));
      // Paolo, whom an agent invites as a new contact of Bottega Verdi.
      await client.append(
        folder,
        stranger(`${n}-ter`)
          .replace('Giulia Sconosciuta <giulia@elsewhere.example>', `Paolo Nuovo <${paolo}>`)
          .replace('Richiesta di preventivo', 'Vetrina rotta'),
      );
      await client.append(folder, senderless(n));
      await client.append(folder, dsn(n));
    }, 60_000);

    afterAll(async () => {
      // The other journeys know the demo portal without a mailbox (no Reply-To on its e-mails).
      if (token)
        await fetch(MAILBOX_API, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      await client?.mailboxDelete(folder).catch(() => undefined);
      await client?.logout().catch(() => undefined);
      await browser?.close();
    });

    it('sets the mailbox: a wrong password is worded, the right one connects, and the mail read waits in the lists', async () => {
      const page = await adminPage(browser, token);
      await page.goto(EMAIL_URL);
      await page.getByRole('heading', { level: 1, name: 'E-mail' }).waitFor();
      await page.getByLabel('Support address').fill(SUPPORT);
      await page.getByLabel('IMAP server', { exact: true }).fill(imap.hostname);
      await page.getByLabel('Security', { exact: true }).selectOption('none');
      await page.getByLabel('Port', { exact: true }).fill(imap.port);
      await page.getByLabel('User name', { exact: true }).fill(user);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByLabel('Folder', { exact: true }).fill(folder);

      await page.getByRole('button', { name: 'Test connection' }).click();
      const answer = page.getByTestId('mailbox-test');
      await expect
        .poll(() => answer.innerText(), { timeout: 20_000 })
        .toContain('Sign-in refused: check the user name and the password.');
      await screenshot(page, 'admin-email-auth-failed-1366-en-EN');

      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect
        .poll(() => answer.innerText(), { timeout: 20_000 })
        .toMatch(/Connection works: the folder holds 5 messages/);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Mailbox saved.' }).waitFor();
      // Saved: the password is kept, never shown again.
      await page.getByText('A password is stored: leave empty to keep it.').waitFor();
      expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
      const stored = (await (
        await fetch(MAILBOX_API, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { mailbox: { hasPassword: boolean; folder: string } };
      expect(stored.mailbox).toMatchObject({ hasPassword: true, folder });

      // The server's reader takes the new mailbox on its next pass (every 30 s).
      const unknown = page.getByTestId('inbound-unknown');
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByRole('heading', { level: 1, name: 'E-mail' }).waitFor();
            await page
              .getByTestId('inbound-unknown')
              .or(page.getByText('No message from an unknown sender.'))
              .waitFor();
            return unknown.isVisible();
          },
          { timeout: 90_000, interval: 3000 },
        )
        .toBe(true);
      const row = unknown.getByRole('row').filter({ hasText: `Richiesta di preventivo ${n}` });
      await expect.poll(() => row.innerText()).toContain('giulia@elsewhere.example');
      await expect.poll(() => row.innerText()).toMatch(/sender not verified/i);

      await row.getByRole('button', { name: 'Show full e-mail' }).click();
      await expect
        .poll(() => page.getByTestId('raw-message').innerText())
        .toContain(`Message-ID: <stranger-${n}@elsewhere.example>`);
      await screenshot(page, 'admin-email-raw-1366-en-EN');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

      // Giulia of Elsewhere is in fact Rossi Impianti's Giulia: her mail becomes her ticket.
      await row.getByRole('button', { name: 'Attach to contact' }).click();
      const dialog = page.getByRole('dialog');
      await dialog
        .locator('input:visible')
        .and(page.getByLabel(/^Company/))
        .click();
      await page.keyboard.type('Rossi');
      await page.getByRole('option', { name: 'Rossi Impianti Srl' }).click();
      await dialog.getByTestId('contact-picker').click();
      await page.getByRole('option', { name: /^Giulia Bianchi/ }).click();
      await screenshot(page, 'admin-email-attach-1366-en-EN');
      await dialog.getByRole('button', { name: 'Attach', exact: true }).click();
      await row.waitFor({ state: 'detached' });
      const tickets = (await (
        await fetch(`${baseUrl}/api/staff/portals/demo/email/inbound?status=done`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { items: { subject: string; ticketId: number | null }[] };
      expect(tickets.items.find((i) => i.subject === `Richiesta di preventivo ${n}`)?.ticketId).toEqual(
        expect.any(Number),
      );

      // Paolo is nobody's yet: the agent invites him as a contact of Bottega Verdi, and his mail is his ticket.
      const paoloRow = unknown.getByRole('row').filter({ hasText: `Vetrina rotta ${n}-ter` });
      await paoloRow.getByRole('button', { name: 'Invite as contact' }).click();
      const invite = page.getByRole('dialog');
      // The name comes from the mail's From.
      expect(await invite.getByLabel(/^Contact's name/).inputValue()).toBe('Paolo Nuovo');
      await invite
        .locator('input:visible')
        .and(page.getByLabel(/^Company/))
        .click();
      await page.keyboard.type('Bottega');
      await page.getByRole('option', { name: 'Bottega Verdi Snc' }).click();
      await screenshot(page, 'admin-email-invite-1366-en-EN');
      await invite.getByRole('button', { name: 'Invite and open the ticket' }).click();
      await expect
        .poll(() => page.getByTestId('invited').innerText())
        .toMatch(new RegExp(`${paolo} was invited and their message is now ticket \\d+`));
      await paoloRow.waitFor({ state: 'detached' });
      const done = (await (
        await fetch(`${baseUrl}/api/staff/portals/demo/email/inbound?status=done`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { items: { subject: string; ticketId: number | null }[] };
      paoloTicket = done.items.find((i) => i.subject === `Vetrina rotta ${n}-ter`)!.ticketId!;
      // His ticket on the desk: the opening message came by e-mail, from a sender SPF did not verify.
      await page.goto(`${baseUrl}/demo/staff/tickets/${paoloTicket}`);
      const opening = page.getByTestId('message').first();
      await expect
        .poll(() => opening.getByTestId('sender-unverified').innerText())
        .toMatch(/^Sender not verified/);
      await opening.getByTestId('full-email').waitFor();
      await page.goto(EMAIL_URL);
      await page.getByTestId('inbound-unknown').waitFor();

      await page.getByText('Unprocessed', { exact: true }).click();
      const unprocessed = page.getByTestId('inbound-unprocessed');
      const bad = unprocessed.getByRole('row').filter({ hasText: `Messaggio senza mittente ${n}` });
      await expect.poll(() => bad.innerText()).toContain('no sender address (From)');
      page.once('dialog', (d) => void d.accept());
      await bad.getByRole('button', { name: 'Discard' }).click();
      await bad.waitFor({ state: 'detached' });

      // The delivery report marked Giulia's address: listed here, and on her contact with a way to clear it.
      await expect.poll(() => page.getByTestId('bounces').innerText()).toContain(GIULIA);
      // …in her company's list of contacts too.
      await page.goto(`${baseUrl}/demo/staff/admin/companies/1`);
      const giuliaRow = page.getByRole('row').filter({ hasText: GIULIA });
      await expect.poll(() => giuliaRow.getByTestId('bouncing').innerText()).toBe('Address bouncing');
      expect(await page.getByTestId('bouncing').count()).toBe(1);
      await screenshot(page, 'admin-email-company-bouncing-1366-en-EN');
      await page.goto(GIULIA_URL);
      const notice = page.getByTestId('bounce-notice');
      await expect.poll(() => notice.innerText()).toMatch(/Address bouncing[\s\S]*came back on .*5\.1\.1/);
      await screenshot(page, 'admin-email-contact-bouncing-1366-en-EN');
      await notice.getByRole('button', { name: 'Clear' }).click();
      await notice.waitFor({ state: 'detached' });
      const left = (await (
        await fetch(`${baseUrl}/api/staff/portals/demo/email/bounces?address=${GIULIA}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { items: unknown[] };
      expect(left.items).toEqual([]);
      // The reader's state says when it last read the mailbox.
      await page.goto(EMAIL_URL);
      await expect.poll(() => page.getByTestId('reader-state').innerText()).toMatch(/Last read/);
      await page.context().close();
    }, 150_000);

    it('the e-mail screen at both widths in its languages, axe clean', async () => {
      for (const [i, width] of WIDTHS.entries())
        for (const language of languagesAt(LANGUAGES, i)) {
          const page = await adminPage(browser, token, width, language);
          await page.goto(EMAIL_URL);
          await page.getByTestId('reader-state').waitFor();
          await page.getByTestId('inbound-unknown').waitFor();
          await expectAccessible(page);
          await screenshot(page, `admin-email-${width}-${language}`);
          // The invitation's dialog, on the message that stays in the list.
          await page.getByTestId('inbound-unknown').getByTestId('invite-sender').first().click();
          await page.getByRole('dialog').getByRole('textbox').first().waitFor();
          await expectAccessible(page);
          await screenshot(page, `admin-email-invite-${width}-${language}`);
          // The mark on the ticket Paolo's mail opened.
          await page.goto(`${baseUrl}/demo/staff/tickets/${paoloTicket}`);
          await page.getByTestId('sender-unverified').waitFor();
          await expectAccessible(page);
          await screenshot(page, `ticket-sender-unverified-${width}-${language}`);
          await page.context().close();
        }
    }, 300_000);
  });
