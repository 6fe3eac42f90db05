import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { exampleDocument, seedExample } from '../../test/seed';
import { signInLanguage, signInPortal } from './sign-in-page';

/** The build's pages (apps/web vite.config.ts signInShell): every mark the server fills, per language. */
function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sportello-sign-in-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  for (const lang of ['it-IT', 'en-EN', 'es-ES'])
    writeFileSync(
      join(dir, `sign-in.${lang}.html`),
      `<!doctype html><html lang="${lang}"><title>T · {{portalName}}</title><meta name="theme-color" content="{{themeColor}}">` +
        `<div id="root"><style>{{theme}}</style><header style="{{headerStyle}}">{{logo}}<p>{{portalName}}</p></header>` +
        `<form action="/{{company}}/login"><button style="--button-color: {{buttonText}};">go</button></form>` +
        `<a href="/{{company}}/privacy">{{unknown}}</a></div>`,
    );
  return dir;
}

/** A second portal: a name and CSS that would break out of the page if they were not escaped. */
function hostileDocument(): unknown {
  const doc = exampleDocument() as { portals: Record<string, unknown>[]; users: unknown[] };
  const portal = {
    ...doc.portals[0]!,
    webPortalKey: 'evil',
    webPortalName: '<script>alert(1)</script> & "Co"',
    customCss: '</style><script>alert(2)</script>',
    logo: null,
    baseColor: 'hsl(123,0%,0%)',
    defaultLanguage: 'es-ES',
    signatureRequests: [],
    appointmentLinks: [],
    taskLinks: [],
  };
  return { ...doc, portals: [portal], users: [] };
}

describe('the drawn sign-in page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WEB_DIST: fakeWebDist() } });
    await seedExample(t);
    await seedExample(t, hostileDocument());
  });
  afterAll(() => t.close());

  const page = (url: string, language?: string) =>
    t.app.inject({ method: 'GET', url, headers: language ? { 'accept-language': language } : {} });

  it("draws the portal's name, logo and colours in the browser's language, under the page's CSP", async () => {
    const res = await page('/ACME/login/', 'en-GB,en;q=0.9,it;q=0.8');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.vary).toMatch(/accept-language/i);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<html lang="en-EN">');
    expect(res.body).toContain('<title>T · ACME Assistenza</title>');
    expect(res.body).toMatch(
      /<img alt="" height="40" src="\/api\/files\/\d+\/logo\.png\?e=\d+&amp;s=[\w-]+"/,
    );
    expect(res.body).toContain('background: #1565c0; color: #ffffff;');
    expect(res.body).toContain('content="#1565c0"');
    expect(res.body).toContain('--mantine-color-brand-0:');
    expect(res.body).toContain('.portal-footer { font-style: italic; }');
    expect(res.body).toContain('--button-color: var(--mantine-color-white);');
    // The address's spelling, as the app's links take it; a mark the server does not know stays.
    expect(res.body).toContain('action="/ACME/login"');
    expect(res.body).toContain('{{unknown}}');
  });

  it("escapes what the portal wrote and falls back to the portal's language", async () => {
    const res = await page('/evil/login');
    expect(res.body).toContain('<html lang="es-ES">');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(res.body).not.toContain('<script>');
    expect(res.body).not.toContain('alert(2)');
    expect(res.body).toContain('src="/favicon.svg"');
    expect(res.body).toContain('background: #202124;');
  });

  it('gives an unknown portal the default look, and leaves other addresses to the app', async () => {
    const unknown = await page('/nope/login', 'it-IT');
    expect(unknown.body).toContain('<html lang="it-IT">');
    expect(unknown.body).toContain('<p>Sportello</p>');
    for (const url of ['/acme/login?recover', '/login', '/acme/staff/login', '/acme/1/tickets'])
      expect((await page(url)).body, url).toContain('<title>app</title>');
    const post = await t.app.inject({ method: 'POST', url: '/acme/login', payload: 'username=x' });
    expect(post.statusCode).toBe(404);
  });

  it('reads the address and the languages as the app does', () => {
    expect(signInPortal('/demo/login')).toBe('demo');
    expect(signInPortal('/d%20x/Login/?from=1')).toBe('d x');
    expect(signInPortal('/demo/login?recover')).toBeNull();
    expect(signInPortal('/%E0%A4%A/login')).toBeNull();
    expect(signInLanguage('fr-FR,es;q=0.8,en;q=0.5', 'it-IT')).toBe('es-ES');
    expect(signInLanguage('fr', 'en-EN')).toBe('en-EN');
    expect(signInLanguage(undefined, 'xx')).toBe('it-IT');
  });
});
