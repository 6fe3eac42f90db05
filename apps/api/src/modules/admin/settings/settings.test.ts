/**
 * The portal's settings in the desk's administration (issue 14 item 5): admins only; each change is
 * sanitised as the import sanitises, audited with before and after, emitted as `portal.updated` in its
 * transaction, and seen by the customer's settings call; bad input is a 4xx that changes nothing.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { multipartFile, seedPersonas } from '../../../test/personas';
import { queryRows } from '../../../platform/sql-json';
import { staffMember } from '../../staff/staff.fixture';

let t: TestApp;
let admin: Record<string, string>;
let agent: Record<string, string>;
let betaAdmin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  admin = await staffMember(t, 'acme', 'boss@acme.example', 'admin');
  agent = await staffMember(t, 'acme', 'luca@acme.example');
  betaAdmin = await staffMember(t, 'beta', 'boss@beta.example', 'admin');
});
afterAll(async () => {
  await t?.close();
});

const URL = '/api/staff/portals/acme/admin/settings';
const call = (method: InjectOptions['method'], who: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url: URL, headers: who, ...(payload === undefined ? {} : { payload }) });

const portalRow = async () =>
  (
    await queryRows<Record<string, unknown>>(
      t.ctx.database.db,
      sql`select name, base_color, custom_css, footer_custom_html, privacy_html, time_zone, default_language,
        enable_service_contracts, disable_html_editor, overview_landing, logo_file_id, updated_at
        from portals where key = 'acme'`,
    )
  )[0]!;
const audits = async () =>
  queryRows<{ action: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
    t.ctx.database.db,
    sql`select action, before, after from audit_log where entity = 'portal' order by id`,
  );
const events = async () =>
  queryRows<{ data: Record<string, unknown> }>(
    t.ctx.database.db,
    sql`select data from events where type = 'portal.updated' order by id`,
  );

async function upload(who: Record<string, string>, name: string, bytes: Buffer): Promise<number> {
  const m = multipartFile(name, bytes, 'image/png');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/staff/portals/acme/uploads',
    headers: { ...who, ...m.headers },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('portal settings in the administration', () => {
  it('is refused to agents and to admins of another portal, and changes nothing', async () => {
    const before = await portalRow();
    for (const who of [agent, betaAdmin]) {
      expect((await call('GET', who)).statusCode).toBe(403);
      expect((await call('PATCH', who, { name: 'Taken over' })).statusCode).toBe(403);
    }
    expect((await call('GET', {})).statusCode).toBe(401);
    expect(await portalRow()).toEqual(before);
  });

  it('changes the fields sent, sanitises the HTML, audits and emits once, and the customer sees it', async () => {
    const res = await call('PATCH', admin, {
      name: 'Acme Service',
      baseColor: '#0b7285',
      footerHtml:
        '<p>Acme <a href="tel:+390212345">call</a><script>alert(1)</script><img src=x onerror=alert(1)></p>',
      customCss: '.x { color: red } </style><script>alert(1)</script>',
      timeZone: 'America/New_York',
      overviewLanding: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({ name: 'Acme Service', baseColor: '#0b7285', timeZone: 'America/New_York' });
    expect(s.footerHtml).toContain('href="tel:+390212345"');
    expect(s.footerHtml).not.toMatch(/script|onerror/);
    expect(s.customCss).not.toContain('</style');
    const [audit] = (await audits()).slice(-1);
    expect(audit).toMatchObject({
      action: 'updated',
      before: { name: 'ACME Assistenza' },
      after: { name: 'Acme Service', baseColor: '#0b7285', timeZone: 'America/New_York' },
    });
    expect((await events()).at(-1)?.data).toMatchObject({
      portal: { name: 'Acme Service' },
      previous: { name: 'ACME Assistenza' },
    });
    const customer = await t.app.inject({ method: 'GET', url: '/api/Settings/portals/acme' });
    expect(customer.json()).toMatchObject({
      webPortalName: 'Acme Service',
      baseColor: '#0b7285',
      overviewLanding: true,
      timeZone: 'America/New_York',
    });
    // The same values again: nothing written, audited or emitted.
    const [a, e] = [(await audits()).length, (await events()).length];
    const again = await call('PATCH', admin, { name: 'Acme Service', baseColor: '#0b7285' });
    expect(again.statusCode).toBe(200);
    expect([(await audits()).length, (await events()).length]).toEqual([a, e]);
    // Back to the default colour.
    expect((await call('PATCH', admin, { baseColor: null })).json().baseColor).toBeNull();
  });

  it('answers 4xx to bad input and changes nothing', async () => {
    const before = await portalRow();
    const [a, e] = [(await audits()).length, (await events()).length];
    const bad: [object, number][] = [
      [{}, 400],
      [{ baseColor: 'url(javascript:alert(1))' }, 400],
      [{ baseColor: 'red; background: url(x)' }, 400],
      [{ timeZone: 'Mars/Olympus' }, 400],
      [{ defaultLanguage: 'de-DE' }, 400],
      [{ name: '   ' }, 400],
      [{ name: 'a\u0000b' }, 400],
      [{ customCss: 'x'.repeat(500_001) }, 400],
      [{ unknown: true }, 400],
      [{ overviewLanding: 'yes' }, 400],
      [{ logo: { uploadId: 2_147_483_647 } }, 422],
      [{ logo: { uploadId: 2_147_483_648 } }, 400],
    ];
    for (const [payload, status] of bad) {
      const res = await call('PATCH', admin, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
      expect(res.json()).toHaveProperty('code');
    }
    expect(await portalRow()).toEqual(before);
    expect([(await audits()).length, (await events()).length]).toEqual([a, e]);
  });

  it('sets a logo from an image upload, refuses one that is no image whatever its name, and removes it', async () => {
    const fake = await upload(admin, 'logo.png', Buffer.from('<svg onload="alert(1)"></svg>'));
    const refused = await call('PATCH', admin, { logo: { uploadId: fake }, name: 'Not this' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('logo_not_image');
    expect((await portalRow()).name).not.toBe('Not this');
    // The refused upload stays the caller's, unattached (the change rolled back).
    const [file] = await queryRows<{ attached_at: unknown }>(
      t.ctx.database.db,
      sql`select attached_at from files where id = ${fake}::int`,
    );
    expect(file?.attached_at).toBeNull();
    // Another staff user's upload is not the caller's.
    const others = await upload(agent, 'logo.png', PNG);
    expect((await call('PATCH', admin, { logo: { uploadId: others } })).statusCode).toBe(422);

    const id = await upload(admin, 'logo.png', PNG);
    const set = await call('PATCH', admin, { logo: { uploadId: id } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().logo).toMatchObject({ name: 'logo.png' });
    const logo = await t.app.inject({ method: 'GET', url: set.json().logo.url });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    // Used once: the same upload cannot be set again.
    expect((await call('PATCH', admin, { logo: { uploadId: id } })).statusCode).toBe(422);
    const removed = await call('PATCH', admin, { logo: null });
    expect(removed.json().logo).toBeNull();
    expect((await portalRow()).logo_file_id).toBeNull();
  });
});
