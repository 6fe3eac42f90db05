import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';
import { DEMO_ADMIN, expectAccessible, mailsTo, pageWith, staffLogin } from './kit';

const ADMIN_URL = `${baseUrl}/demo/staff/admin`;
const WIDTHS = [1366, 360] as const;
const LANGUAGES = [
  ['it-IT', 'it'],
  ['en-EN', 'en'],
  ['es-ES', 'es'],
] as const;

describe('desk administration: staff, API keys, webhooks', () => {
  let browser: Browser;
  let receiver: Server;
  let received = 0;
  /** Every delivery as it came, to verify with the secrets the desk showed. */
  const messages: { body: string; headers: Record<string, string> }[] = [];
  let adminToken: string;
  /** The endpoint's signing secret as the desk showed it at creation. */
  let endpointSecret = '';

  beforeAll(async () => {
    browser = await launch();
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received++;
        messages.push({
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers as Record<string, string>,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    adminToken = await staffLogin(DEMO_ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('invites an agent who sets a password and signs in; a key is shown once; a webhook delivers', async () => {
    const page = await pageWith(browser, { staffToken: adminToken });
    const agent = `new.agent.${Date.now()}@sportello.example`;

    // Invite: the invitation e-mail carries the link; the agent sets a password and is on the desk.
    await page.goto(`${ADMIN_URL}/staff`);
    await page.getByLabel('E-mail').fill(agent);
    await page.getByLabel('Display name').fill('Nuovo Agente');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(`Invitation sent to ${agent}.`).waitFor();
    await expect
      .poll(() => mailsTo(agent, '/staff/accept?token=').length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const link = /(\/demo\/staff\/accept\?token=[A-Za-z0-9_%-]+)/.exec(
      mailsTo(agent, '/staff/accept?token=')[0]!,
    )![1]!;
    const invited = await pageWith(browser);
    await invited.goto(`${baseUrl}${link}`);
    const fields = invited.locator('input[autocomplete="new-password"]');
    await fields.first().waitFor();
    await fields.nth(0).fill('Agent-Password-2026');
    await fields.nth(1).fill('Agent-Password-2026');
    await invited.locator('form button[type=submit]').click();
    await expect.poll(() => invited.evaluate(() => localStorage.getItem('staffToken'))).toBeTruthy();
    await staffLogin(agent, 'Agent-Password-2026');

    // An API key: its secret is on the page once, with the warning.
    await page.goto(`${ADMIN_URL}/integrations`);
    await page.getByLabel('Name').fill('Journey key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret-once').innerText()).trim();
    expect(secret.length).toBeGreaterThan(20);
    await page.getByText(/shown only this once/).waitFor();
    await page.reload();
    await page.getByText('Journey key').first().waitFor();
    expect(await page.getByText(secret).count()).toBe(0);

    // A webhook endpoint to the loopback receiver: a change is delivered and shows in the log.
    const { port } = receiver.address() as AddressInfo;
    await page.getByLabel('Address (URL)').fill(`http://127.0.0.1:${port}/hook`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    endpointSecret = (await page.getByTestId('secret-once').innerText()).trim();
    expect(endpointSecret).toMatch(/^whsec_/);
    // Any event will do: another key made from the desk emits api_key.created.
    await page.getByLabel('Name').fill('Second key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => received, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Delivery log' }).click();
    await page.getByTestId('delivery-log').getByText('204').first().waitFor({ timeout: 20_000 });
  });

  it('edits the endpoint and rotates its secret: for the overlap a receiver verifies with either secret', async () => {
    const page = await pageWith(browser, { staffToken: adminToken });
    await page.goto(`${ADMIN_URL}/integrations`);
    const { port } = receiver.address() as AddressInfo;
    const first = `http://127.0.0.1:${port}/hook`;
    await page.getByRole('button', { name: `Edit ${first}` }).click();
    // The address changes and the endpoint keeps only the key events; saved as one change.
    const address = page.getByLabel(/^Address/).last();
    await address.fill(`http://127.0.0.1:${port}/hook-v2`);
    await page.locator('input:visible').and(page.getByLabel('Event types')).click();
    await page.getByRole('option', { name: 'api_key.created' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();

    // The secret the endpoint was made with is gone from the page; a new one is shown once, explained.
    await page.getByRole('button', { name: 'New signing secret' }).click();
    const secret = (await page.getByTestId('secret-once').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page
      .getByTestId('rotation-overlap')
      .getByText(/old secret also signs every delivery until/)
      .waitFor();
    await screenshot(page, 'admin-webhook-rotated-1366-en');

    // A key event reaches the new address signed twice: a receiver still on the old secret verifies
    // it, and so does one already on the new secret.
    const before = messages.length;
    await page.getByLabel('Name').first().fill('Third key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => messages.slice(before).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const m = messages.slice(before).find((x) => x.body.includes('"api_key.created"'))!;
    expect(m.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(endpointSecret).verify(m.body, m.headers)).toMatchObject({ type: 'api_key.created' });
    expect(new Webhook(secret).verify(m.body, m.headers)).toMatchObject({ type: 'api_key.created' });
    await page.context().close();
  });

  it('removing an admin lists the key they made and revokes it in the same step (issue 29, B8)', async () => {
    // A second admin, invited by Marco, who makes a key and is then removed from the desk.
    const email = `maker.${Date.now()}@sportello.example`;
    const api = (method: string, path: string, token: string, body?: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const invited = await api('POST', '/api/staff/portals/demo/admin/staff', adminToken, {
      email,
      displayName: 'Key Maker',
      role: 'admin',
    });
    expect(invited.status).toBe(201);
    await expect
      .poll(() => mailsTo(email, '/staff/accept?token=').length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const token = decodeURIComponent(
      /accept\?token=([A-Za-z0-9_%-]+)/.exec(mailsTo(email, 'token=')[0]!)![1]!,
    );
    const confirmed = await fetch(`${baseUrl}/api/staff/auth/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, password: 'Maker-Password-2026', passwordRepeat: 'Maker-Password-2026' }),
    });
    expect(confirmed.status).toBe(200);
    const makerToken = ((await confirmed.json()) as { token: string }).token;
    const made = await api('POST', '/api/staff/portals/demo/admin/keys', makerToken, {
      name: 'Maker sync',
      scopes: ['events'],
    });
    const secret = ((await made.json()) as { secret: string }).secret;
    const feed = () =>
      fetch(`${baseUrl}/api/integration/v1/events`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await feed()).status).toBe(200);

    // The dialog lists the key, at 360 px in each language; the last one removes with the revocation.
    for (const [i, [language, short]] of LANGUAGES.entries()) {
      const page = await pageWith(browser, { staffToken: adminToken, width: 360, language });
      await page.goto(`${ADMIN_URL}/staff`);
      const row = page.getByRole('row').filter({ hasText: email });
      await row.getByRole('button').last().click();
      const dialog = page.getByTestId('lose-access');
      await dialog.getByText('Maker sync').waitFor();
      await expectAccessible(page);
      await screenshot(page, `admin-staff-remove-made-360-${short}`);
      if (i === LANGUAGES.length - 1) {
        expect(await dialog.getByRole('checkbox').isChecked()).toBe(true);
        await dialog.getByRole('button').last().click();
        await dialog.waitFor({ state: 'detached' });
        await expect.poll(async () => (await feed()).status).toBe(401);
      }
      await page.context().close();
    }
    // The integrations list says who made it, and that it is revoked.
    const page = await pageWith(browser, { staffToken: adminToken, width: 360, language: 'en-EN' });
    await page.goto(`${ADMIN_URL}/integrations`);
    const keyRow = page.getByRole('row').filter({ hasText: 'Maker sync' });
    await keyRow.getByText('Revoked').waitFor();
    expect((await keyRow.innerText()).toLowerCase()).toContain('maker');
    await page.context().close();
  });

  it('a new endpoint’s address the contract refuses is said at the field, at 360 px in each language', async () => {
    for (const [language, short] of LANGUAGES) {
      const page = await pageWith(browser, { staffToken: adminToken, width: 360, language });
      await page.goto(`${ADMIN_URL}/integrations`);
      const form = page
        .locator('form')
        .filter({ has: page.locator('input[type=url]') })
        .first();
      await form.locator('input[type=url]').fill('ftp://hooks.example/in');
      await form.locator('button[type=submit]').click();
      await form.locator('input[type=url][aria-invalid=true]').waitFor();
      expect(await form.innerText()).toContain('https://');
      await expectAccessible(page);
      await screenshot(page, `admin-webhook-bad-url-360-${short}`);
      await page.context().close();
    }
  });

  it.each(WIDTHS.map((width, index) => [width, index] as const))(
    'the access sections at %i px, in their languages, have no serious axe finding',
    async (width, index) => {
      for (const [language, short] of languagesAt(LANGUAGES, index)) {
        const page = await pageWith(browser, { staffToken: adminToken, width, language });
        for (const section of ['staff', 'integrations', 'ticket-setup'] as const) {
          await page.goto(`${ADMIN_URL}/${section}`);
          await page.locator('table').first().waitFor();
          await expectAccessible(page);
          await screenshot(page, `admin-${section}-${width}-${short}`);
        }
        // The endpoint's editor open: address, event types, the secret's rotation, the replay.
        await page.goto(`${ADMIN_URL}/integrations`);
        await page
          .getByTestId(/^webhook-/)
          .first()
          .getByRole('button', { name: /./ })
          .nth(1)
          .click();
        await page.locator('form input[type=url]').last().waitFor();
        await expectAccessible(page);
        await screenshot(page, `admin-webhook-edit-${width}-${short}`);
        await page.context().close();
      }
    },
  );
});
