// Browser journey of the profile (issue 16, part 6): name and language, e-mail change, sessions,
// two-factor sign-in with an authenticator app (codes computed by otplib) and with a passkey (a virtual
// WebAuthn authenticator through the Chrome DevTools Protocol), recovery codes; screenshots and axe.
import { AxeBuilder } from '@axe-core/playwright';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, languagesAt, launch, screenshot } from './browser';

const PORTAL = 'e2e-account';
const USER = 'account.e2e';
const PASSWORD = 'Account-E2E-Password-1';
/**
 * Browsers refuse an IP address as a WebAuthn relying party: the server names `localhost` when it is
 * reached on a loopback address, so this journey runs on http://localhost:PORT.
 */
const origin = baseUrl.replace('127.0.0.1', 'localhost');

async function importAccountPortal(): Promise<void> {
  const res = await fetch(`${baseUrl}/api/admin/import`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${process.env.PORTAL_ADMIN_KEY ?? ''}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      formatVersion: 1,
      portals: [
        {
          webPortalKey: PORTAL,
          webPortalName: 'Account Test Portal',
          baseColor: '#1d4ed8',
          statusSteps: [
            { id: 1, name: 'Aperto', taskStatus: 0, isDefault: true },
            { id: 2, name: 'Chiuso', taskStatus: 2, isClosing: true },
          ],
          companies: [
            {
              id: 1,
              companyName: 'Profili Srl',
              contacts: [
                {
                  contactId: 701,
                  referentName: 'Paola Profili',
                  permissions: { viewContactDocuments: true },
                },
              ],
            },
          ],
        },
      ],
      users: [
        {
          userName: USER,
          email: 'account.e2e@example.com',
          password: PASSWORD,
          contacts: [{ webPortalKey: PORTAL, contactId: 701 }],
        },
      ],
    }),
  });
  if (!res.ok) throw new Error(`import failed: ${res.status} ${await res.text()}`);
}

/** No serious or critical axe violation on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A code of the authenticator app for the next 30-second step (the current one may be spent already). */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

describe('the profile', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  let secret = '';

  beforeAll(async () => {
    browser = await launch();
    await importAccountPortal();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  afterAll(async () => {
    await browser?.close();
    expect(pageErrors).toEqual([]);
  });

  const settled = () => page.getByTestId('full-screen-spinner').waitFor({ state: 'detached' });
  const profileShown = async () => {
    await settled();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByTestId('two-factor-state').waitFor();
  };

  async function passwordStep(remember = false): Promise<void> {
    await page.goto(`${origin}/${PORTAL}/Login`);
    // The app's form, not the drawn one it replaces once the portal's settings are here: until then the
    // document holds both (lib/sign-in-shell.ts), and a label names two fields.
    await page.waitForFunction(() => !document.getElementById('sign-in-shell'));
    await page.getByLabel(/^Nome utente o e-mail|^Username or e-mail|^Nombre de usuario o correo/).fill(USER);
    await page.getByLabel(/^Password|^Contraseña/).fill(PASSWORD);
    if (remember) await page.getByRole('checkbox').check();
    await page.locator('form button[type="submit"]').click();
  }

  async function openProfile(): Promise<void> {
    await page.getByTestId('user-badge').click();
    await page.getByTestId('profile-link').click();
    await page.waitForURL(/\/profile$/);
    await profileShown();
  }

  async function signOut(): Promise<void> {
    await page.getByTestId('user-badge').click();
    await page.getByRole('menuitem', { name: /Esci|Logout|Cerrar sesión/ }).click();
    await page.waitForURL(/\/login/i);
  }

  it('signs in remembered, and edits the name and the language', async () => {
    await passwordStep(true);
    await page.waitForURL((url) => !/\/login/i.test(url.pathname));
    // Remembered: the token is in localStorage, not only in this tab.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await openProfile();
    expect(await page.title()).toBe('Profilo · Account Test Portal');
    await screenshot(page, 'account-profile-1366-it');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Nome visualizzato').fill('Paola P.');
    await page.getByTestId('profile-language').click();
    await page.getByRole('option', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Salva' }).click();
    // The page switches to the chosen language, and the header shows the new name.
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByRole('button', { name: /Account menu of Paola P\./ }).waitFor();
    expect(await page.title()).toBe('Profile · Account Test Portal');
  });

  it('asks for an e-mail change confirmed by the new address', async () => {
    await page.getByLabel('New e-mail address').fill('paola.new@example.com');
    await page
      .getByRole('region', { name: 'E-mail' })
      .getByLabel(/^Current password/)
      .fill(PASSWORD);
    await page.getByRole('button', { name: 'Send the confirmation link' }).click();
    await page.getByText('Waiting for confirmation: we sent a link to paola.new@example.com').waitFor();
  });

  it('lists the sessions and signs out another one', async () => {
    // A second session, from a phone.
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      },
      body: JSON.stringify({ userName: USER, password: PASSWORD }),
    });
    const phoneToken = ((await res.json()) as { token: string }).token;
    await page.reload();
    await profileShown();
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(2);
    const phone = rows.filter({ hasText: 'Safari on iOS' });
    await phone.waitFor();
    await page.getByTestId('session-row').filter({ hasText: 'This device' }).waitFor();
    await screenshot(page, 'account-sessions-1366-en');
    await phone.getByRole('button', { name: /Sign out Safari on iOS/ }).click();
    await expect.poll(() => rows.count()).toBe(1);
    const me = await fetch(`${baseUrl}/api/Users/me`, { headers: { Authorization: `Bearer ${phoneToken}` } });
    expect(me.status).toBe(401);
  });

  it('turns on the authenticator app with a computed code and shows the recovery codes once', async () => {
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    // A session alone adds no factor: the password first (a wrong one is said so).
    const proof = page.getByLabel(/^Password or code/);
    await proof.fill('not-the-password');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByText(/password is wrong|not right/i).waitFor();
    await proof.fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByTestId('totp-qr').waitFor();
    secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshot(page, 'account-totp-setup-1366-en');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId('totp-code').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Turn on', exact: true }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await page.getByText('On: after your password, sign-in asks for a second factor.').waitFor();
    await screenshot(page, 'account-recovery-codes-1366-en');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByTestId('recovery-codes').waitFor({ state: 'detached' });
    await page.getByText('10 unused codes left.').waitFor();
  });

  it('adds a passkey held by a virtual authenticator', async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.getByTestId('passkey-name').fill('Virtual key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    // The password again (or a code of the app now on) before the browser makes the key.
    await page.getByLabel(/^Password or code/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByTestId('passkey-row').filter({ hasText: 'Virtual key' }).waitFor();
  });

  it('asks for the second factor after the password: a computed code signs in', async () => {
    await signOut();
    await passwordStep();
    const code = page.getByTestId('second-factor-code');
    await code.waitFor();
    await screenshot(page, 'account-second-factor-1366-en');
    expect(await seriousViolations(page)).toEqual([]);
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not right. Check it and try again.').waitFor();
    await code.fill(await nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => !/\/login/i.test(url.pathname));
    await settled();
    // Not remembered: the token lives in this tab's session storage only.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeTruthy();
  });

  it('signs in with the passkey as second factor', async () => {
    await signOut();
    await passwordStep();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL((url) => !/\/login/i.test(url.pathname));
    await settled();
    await openProfile();
    await page
      .getByTestId('passkey-row')
      .getByText(/Last used on/)
      .waitFor();
  });

  it('is readable at 360 px and in every language, and axe finds nothing serious', async () => {
    const all = [
      ['it-IT', 'it'],
      ['en-EN', 'en'],
      ['es-ES', 'es'],
    ] as const;
    for (const [index, width] of [1366, 360].entries())
      for (const [language, suffix] of languagesAt(all, index)) {
        await page.evaluate((l) => localStorage.setItem('language', l), language);
        await page.setViewportSize({ width, height: 900 });
        await page.reload();
        await profileShown();
        await screenshot(page, `account-profile-2fa-${width}-${suffix}`);
        expect(await seriousViolations(page)).toEqual([]);
      }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  it('signs out everywhere', async () => {
    await page.evaluate(() => localStorage.setItem('language', 'en-EN'));
    await page.reload();
    await profileShown();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL(/\/login/i);
    expect(
      await page.evaluate(() => sessionStorage.getItem('token') ?? localStorage.getItem('token')),
    ).toBeNull();
  });
});
