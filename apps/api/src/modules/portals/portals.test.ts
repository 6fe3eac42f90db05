import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { exampleDocument, seedExample } from '../../test/seed';

const HOSTILE_FOOTER =
  '<p onclick="steal()">Hi<script>alert(1)</script><img src="x" onerror="alert(2)">' +
  '<a href="javascript:alert(3)">click</a><iframe src="https://evil.example"></iframe>' +
  '<a href="https://ok.example">ok</a></p><style>body{display:none}</style>';

/** A second portal made from the example's, with its own key, a hostile footer, no logo, the unset colour. */
function hostileDocument(): unknown {
  const doc = exampleDocument() as { portals: Record<string, unknown>[]; users: unknown[] };
  const portal = {
    ...doc.portals[0]!,
    webPortalKey: 'evil',
    webPortalName: 'Evil Corp',
    logo: null,
    baseColor: 'hsl(123,0%,0%)',
    footerCustomHtml: HOSTILE_FOOTER,
    privacyHtml: '<h1 onmouseover="x()">Terms</h1><script>alert(1)</script>',
    disableHtmlEditor: true,
    enableServiceContracts: false,
    timeZone: 'Europe/Madrid',
    defaultLanguage: 'es-ES',
    signatureRequests: [],
    appointmentLinks: [],
    taskLinks: [],
  };
  return { ...doc, portals: [portal], users: [] };
}

describe('portal settings (public)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedExample(t);
    await seedExample(t, hostileDocument());
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers the public settings without a token', async () => {
    const res = await get('/api/Settings/portals/acme');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      webPortalKey: 'acme',
      webPortalName: 'ACME Assistenza',
      customCss: '.portal-footer { font-style: italic; }',
      disableHtmlEditor: false,
      logoUrl: expect.stringMatching(/^\/api\/files\/\d+\/logo\.png\?e=\d+&s=[\w-]+$/),
      baseColor: '#1565c0',
      footerCustomHtml: '<p><b>ACME Assistenza</b> - Via Roma 1, Milano</p>',
      enableServiceContracts: true,
      timeZone: 'Europe/Rome',
      defaultLanguage: 'it-IT',
      overviewLanding: false,
    });
    const logo = await get(res.json().logoUrl);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
  });

  it('matches the path and the key case-insensitively', async () => {
    const res = await get('/api/settings/PORTALS/Acme');
    expect(res.statusCode).toBe(200);
    expect(res.json().webPortalKey).toBe('acme');
  });

  it('answers 404 portal_not_found for an unknown key', async () => {
    const res = await get('/api/Settings/portals/nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'portal_not_found', message: expect.any(String) });
  });

  it("answers each portal as its own installable app: name, start page, scope and the header's colour", async () => {
    const res = await get('/api/settings/acme/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.json()).toMatchObject({
      id: '/acme/',
      name: 'ACME Assistenza',
      start_url: '/acme/',
      scope: '/acme/',
      display: 'standalone',
      lang: 'it-IT',
      theme_color: '#1565c0',
    });
    // The unset colour is the default header's; the portal's own language.
    expect((await get('/api/settings/evil/manifest.webmanifest')).json()).toMatchObject({
      name: 'Evil Corp',
      start_url: '/evil/',
      lang: 'es-ES',
      theme_color: '#202124',
    });
    const missing = await get('/api/settings/nope/manifest.webmanifest');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('portal_not_found');
  });

  it('serves an imported hostile footer only after sanitising it', async () => {
    const res = await get('/api/Settings/portals/evil');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const footer = body.footerCustomHtml as string;
    for (const bad of ['<script', 'onclick', 'onerror', 'javascript:', '<iframe', '<style', 'steal']) {
      expect(footer.toLowerCase(), bad).not.toContain(bad);
    }
    expect(footer).toMatch(/<a href="https:\/\/ok\.example"[^>]*>ok<\/a>/);
    expect(footer).toContain('Hi');
    // No logo; the importer stores the back office's "unset" colour as null.
    expect(body).toMatchObject({
      logoUrl: null,
      baseColor: null,
      disableHtmlEditor: true,
      enableServiceContracts: false,
      timeZone: 'Europe/Madrid',
      defaultLanguage: 'es-ES',
    });
  });

  it('answers the privacy terms, sanitised', async () => {
    const acme = await get('/api/settings/acme/privacy');
    expect(acme.statusCode).toBe(200);
    expect(acme.json()).toEqual({ html: '<h1>Privacy</h1><p>We keep your data safe.</p>' });
    const evil = (await get('/api/settings/evil/privacy')).json().html as string;
    expect(evil).toContain('Terms');
    expect(evil).not.toMatch(/script|onmouseover/i);
    const none = await get('/api/settings/nope/privacy');
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('portal_not_found');
  });
});
