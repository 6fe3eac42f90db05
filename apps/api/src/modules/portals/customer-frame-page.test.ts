import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signatureRequests } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { exampleDocument, seedExample } from '../../test/seed';
import { customerScreen, publicPage } from './customer-frame-page';

const SCREENS = ['screen', 'overview', 'tickets', 'ticket', 'new-ticket', 'invoices'];

/** The build's frames (apps/web vite.config.ts customerFrame): every mark the server fills. */
function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-frame-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  for (const lang of ['it-IT', 'en-EN', 'es-ES'])
    for (const screen of SCREENS)
      writeFileSync(
        join(dir, `frame.${screen}.${lang}.html`),
        `<!doctype html><html lang="${lang}"><title>${screen} · {{portalName}}</title><meta name="theme-color" content="{{themeColor}}">` +
          `<div id="customer-frame"><style>{{theme}}</style><header style="{{headerStyle}}"><button style="--burger-color: {{headerText}};"></button>{{logo}}</header>` +
          `<a href="{{base}}/tickets/new" style="--button-color: {{buttonText}};">new</a></div><div id="root"></div>`,
      );
  for (const lang of ['it-IT', 'en-EN', 'es-ES']) {
    const head = `<!doctype html><html lang="${lang}"><title>{{title}} · page · {{portalName}}</title><meta name="theme-color" content="{{themeColor}}">`;
    const header = `<div id="customer-frame"><style>{{theme}}</style><header style="{{headerStyle}}">{{logo}}<p>{{portalName}}</p></header>`;
    writeFileSync(
      join(dir, `frame.signing.${lang}.html`),
      `${head}${header}<h1>{{title}}</h1><p>{{signerName}}</p><p>{{companyName}}</p><p style="--x: 1;{{expiresStyle}}">by {{expiresOn}}</p></div><div id="root"></div>`,
    );
    writeFileSync(
      join(dir, `frame.booking.${lang}.html`),
      `${head}${header}<h1>{{title}}</h1><p>With {{agentName}}</p></div><div id="root"></div>`,
    );
  }
  return dir;
}

/** A second portal: CSS that would break out of the page if it were not left to the app. */
function hostileDocument(): unknown {
  const doc = exampleDocument() as { portals: Record<string, unknown>[]; users: unknown[] };
  const portal = {
    ...doc.portals[0]!,
    webPortalKey: 'evil',
    webPortalName: '<script>alert(1)</script>',
    customCss: '</style><script>alert(2)</script>',
    logo: null,
    defaultLanguage: 'es-ES',
    // A document whose name is markup, with a deadline.
    signatureRequests: (doc.portals[0]!.signatureRequests as Record<string, unknown>[])
      .slice(0, 1)
      .map((r) => ({
        ...r,
        documentKey: 'evil-sign-0123456789abcdef',
        documentName: '<img src=x onerror=alert(3)>',
        expiresAt: '2099-03-04T23:30:00Z',
      })),
    appointmentLinks: [],
    taskLinks: [],
  };
  return { ...doc, portals: [portal], users: [] };
}

describe("a customer screen's drawn frame", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST: fakeWebDist() } });
    await seedExample(t);
    await seedExample(t, hostileDocument());
  });
  afterAll(() => t.close());

  const page = (url: string, language?: string) =>
    t.app.inject({ method: 'GET', url, headers: language ? { 'accept-language': language } : {} });

  it("draws the screen's frame with the portal's logo and colours, in the browser's language", async () => {
    const res = await page('/ACME/7/Tickets/', 'en-GB,en;q=0.9');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.vary).toMatch(/accept-language/i);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<html lang="en-EN">');
    expect(res.body).toContain('<title>tickets · ACME Assistenza</title>');
    expect(res.body).toMatch(
      /<img alt="" height="40" src="\/api\/files\/\d+\/logo\.png\?e=\d+&amp;s=[\w-]+"/,
    );
    expect(res.body).toContain('background: #1565c0; color: #ffffff;');
    expect(res.body).toContain('--burger-color: #ffffff;');
    expect(res.body).toContain('content="#1565c0"');
    expect(res.body).toContain('--mantine-color-brand-0:');
    expect(res.body).toContain('--button-color: var(--mantine-color-white);');
    expect(res.body).toContain('href="/ACME/7/tickets/new"');
    expect(res.body).not.toMatch(/\{\{\w+\}\}/);
  });

  it("escapes the portal's name, leaves its CSS with a tag to the app, and speaks its language", async () => {
    const res = await page('/evil/3/overview');
    expect(res.body).toContain('<html lang="es-ES">');
    expect(res.body).toContain('<title>overview · &lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(res.body).not.toContain('<script>');
    expect(res.body).not.toContain('alert(2)');
    expect(res.body).toContain('src="/favicon.svg"');
  });

  it('leaves an unknown portal and the pages outside the layout to the app', async () => {
    for (const url of [
      '/nope/1/tickets',
      '/acme/staff',
      '/acme/staff/tickets/4',
      '/acme/documents/abc',
      '/appointments/acme/123',
      '/acme/view-as',
      '/acme/1/tickets/2/3',
    ])
      expect((await page(url)).body, url).toContain('<title>app</title>');
    expect((await page('/acme/login')).body).not.toContain('customer-frame');
    const head = await t.app.inject({ method: 'POST', url: '/acme/1/tickets' });
    expect(head.statusCode).toBe(404);
  });

  it('draws a document to sign with its heading, without recording a view, never stored', async () => {
    const res = await page('/ACME/documents/acme-sign-otp-7f3a9c1e5b2d4f60/', 'en-GB,en;q=0.9');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.vary).toMatch(/accept-language/i);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<html lang="en-EN">');
    expect(res.body).toContain('<title>ACME Contratto da firmare · page · ACME Assistenza</title>');
    expect(res.body).toContain('<h1>ACME Contratto da firmare</h1>');
    expect(res.body).toContain('background: #1565c0; color: #ffffff;');
    expect(res.body).toMatch(/<p>[^<{]+<\/p><p>[^<{]+<\/p>/);
    // No deadline: its line is not drawn.
    expect(res.body).toContain('style="--x: 1; display: none;"');
    expect(res.body).not.toMatch(/\{\{\w+\}\}/);
    // The app's own request records the first view (the desk's "opened"), not the drawn page.
    const [row] = await t.ctx.database.db
      .select({ openedAt: signatureRequests.openedAt })
      .from(signatureRequests)
      .where(eq(signatureRequests.documentKey, 'acme-sign-otp-7f3a9c1e5b2d4f60'));
    expect(row?.openedAt).toBeNull();
    expect((await page('/acme/documents/acme-sign-otp-7f3a9c1e5b2d4f60/confirm')).body).toContain(
      '<h1>ACME Contratto da firmare</h1>',
    );
  });

  it("escapes the document's name and gives its deadline in the portal's zone", async () => {
    const res = await page('/evil/documents/evil-sign-0123456789abcdef');
    expect(res.body).toContain('<html lang="es-ES">');
    expect(res.body).toContain('<h1>&lt;img src=x onerror=alert(3)&gt;</h1>');
    expect(res.body).not.toContain('<img src=x');
    // 23:30 UTC on 4 March is the 5th in Rome.
    expect(res.body).toContain('style="--x: 1;">by 05/03/2099</p>');
  });

  it('draws a booking link with its title and agent', async () => {
    const res = await page('/appointments/acme/acme-sopralluogo-5e6f7a8b', 'it');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<html lang="it-IT">');
    expect(res.body).toContain('<h1>ACME Sopralluogo</h1>');
    expect(res.body).toMatch(/<p>With [^<{]+<\/p>/);
  });

  it("leaves unknown keys, another portal's key and the cancellation to the app", async () => {
    for (const url of [
      '/acme/documents/acme-no-such-key-0000',
      '/evil/documents/acme-sign-otp-7f3a9c1e5b2d4f60',
      '/nope/documents/acme-sign-otp-7f3a9c1e5b2d4f60',
      '/appointments/acme/acme-no-such-key-0000',
      '/appointments/evil/acme-sopralluogo-5e6f7a8b',
      '/appointments/acme/cancellation/acme-sopralluogo-5e6f7a8b',
    ])
      expect((await page(url)).body, url).toContain('<title>app</title>');
  });

  it('reads a public link as the router does', () => {
    expect(publicPage('/Demo/Documents/k%20y/confirm/?x=1')).toEqual({
      screen: 'signing',
      company: 'Demo',
      key: 'k y',
    });
    expect(publicPage('/appointments/demo/key1/')).toEqual({
      screen: 'booking',
      company: 'demo',
      key: 'key1',
    });
    for (const url of [
      '/demo/documents',
      '/demo/documents/a/b',
      '/appointments/demo',
      '/appointments/demo/cancellation',
      '/appointments/demo/cancellation/key',
      '/appointments/documents/key',
      '/demo/documents/%E0%A4%A',
    ])
      expect(publicPage(url), url).toBeNull();
  });

  it('reads the address as the router does', () => {
    expect(customerScreen('/demo')).toEqual({ company: 'demo', contactId: null, screen: 'screen' });
    expect(customerScreen('/demo/12/')).toEqual({ company: 'demo', contactId: '12', screen: 'screen' });
    expect(customerScreen('/d%20x/12/TICKETS?x=1')?.screen).toBe('tickets');
    expect(customerScreen('/demo/12/tickets/new')?.screen).toBe('new-ticket');
    expect(customerScreen('/demo/12/tickets/345')?.screen).toBe('ticket');
    expect(customerScreen('/demo/12/invoices')?.screen).toBe('invoices');
    expect(customerScreen('/demo/12/overview')?.screen).toBe('overview');
    expect(customerScreen('/demo/12/wiki')?.screen).toBe('screen');
    expect(customerScreen('/demo/12/tickets/abc')?.screen).toBe('screen');
    for (const url of [
      '/',
      '/login',
      '/confirm',
      '/demo/login',
      '/demo/staff',
      '/demo/x/tickets',
      '/%E0%A4%A',
    ])
      expect(customerScreen(url), url).toBeNull();
  });
});
