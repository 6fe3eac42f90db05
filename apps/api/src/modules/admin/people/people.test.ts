/**
 * The desk's people lists and "see as this contact": staff admins only, scoped to their portal, keyset
 * pages, bad input a 4xx {code, message}; a view session reads as the one contact, refuses every
 * write on every customer route, is in the audit log and ends at its expiry.
 */
import { routeKey, VIEW_AS_TTL_MIN, type RouteContract } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../../platform/access';
import { createTestApp, type TestApp } from '../../../test/harness';
import { seedPersonas, type PersonaAccess } from '../../../test/personas';
import { bearer } from '../../../test/seed';
import { staffMember } from '../../staff/staff.fixture';

let t: TestApp;
let admin: Record<string, string>;
let agent: Record<string, string>;
let betaAdmin: Record<string, string>;
let owner: PersonaAccess;

beforeAll(async () => {
  t = await createTestApp();
  const personas = await seedPersonas(t);
  owner = personas.owner;
  admin = await staffMember(t, 'acme', 'boss@acme.example', 'admin');
  agent = await staffMember(t, 'acme', 'luca@acme.example');
  betaAdmin = await staffMember(t, 'beta', 'boss@beta.example', 'admin');
});
afterAll(async () => {
  await t?.close();
});

const P = '/api/staff/portals/acme/admin/people';
const get = (url: string, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url, headers });
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await t.ctx.database.db.execute(q)) as unknown as { rows: T[] }).rows;

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
type Company = { id: number; companyName: string; contacts: number; users: number };
type Contact = { contactId: number; companyId: number; referentName: string; email: string | null };

async function all<T>(url: string, limit: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 50; i++) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as Page<T>;
    expect(page.items.length).toBeLessThanOrEqual(limit);
    out.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return out;
  }
  throw new Error('no end of pages');
}

describe('people lists', () => {
  it('lists the companies of the portal only, by name, with counts, in keyset pages', async () => {
    const whole = (await get(`${P}/companies?limit=100`)).json() as Page<Company>;
    expect(whole.items.length).toBeGreaterThanOrEqual(2);
    expect(whole.items.every((c) => !c.companyName.includes('BETA'))).toBe(true);
    const names = whole.items.map((c) => c.companyName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const c10 = whole.items.find((c) => c.id === 10)!;
    expect(c10.contacts).toBeGreaterThanOrEqual(4);
    expect(c10.users).toBeGreaterThanOrEqual(3);
    // One by one, the pages add up to the same list, without repeats.
    expect(await all<Company>(`${P}/companies`, 1)).toEqual(whole.items);
    // The other portal sees its own companies under the same ids.
    const beta = (
      await get('/api/staff/portals/beta/admin/people/companies', betaAdmin)
    ).json() as Page<Company>;
    expect(beta.items.every((c) => c.companyName.includes('BETA'))).toBe(true);
  });

  it('finds a company by a fragment of its name or by its id', async () => {
    const whole = (await get(`${P}/companies`)).json() as Page<Company>;
    const c = whole.items[0]!;
    const fragment = c.companyName.slice(1, 5);
    const byName = (await get(`${P}/companies?q=${encodeURIComponent(fragment.toUpperCase())}`)).json();
    expect(byName.items.map((x: Company) => x.id)).toContain(c.id);
    const byId = (await get(`${P}/companies?q=${c.id}`)).json();
    expect(byId.items.map((x: Company) => x.id)).toContain(c.id);
    // LIKE's own characters are searched for, not obeyed.
    expect((await get(`${P}/companies?q=%25`)).json().items).toEqual([]);
  });

  it('lists the contacts of a company, and searches every contact by name and e-mail', async () => {
    const of10 = await all<Contact>(`${P}/companies/10/contacts`, 2);
    expect(of10.map((c) => c.contactId).sort()).toEqual(expect.arrayContaining([101, 102, 104, 105]));
    expect(of10.every((c) => c.companyId === 10)).toBe(true);
    const giulia = (await get(`${P}/contacts?q=giulia`)).json() as Page<Contact>;
    expect(giulia.items.map((c) => c.contactId)).toEqual([201]);
    const anyone = await all<Contact>(`${P}/contacts`, 3);
    expect(anyone.map((c) => c.contactId)).toEqual(expect.arrayContaining([101, 102, 104, 105, 201]));
    expect(anyone.every((c) => !c.referentName.includes('BETA'))).toBe(true);
    const withMail = anyone.find((c) => c.email)!;
    const byMail = (await get(`${P}/contacts?q=${encodeURIComponent(withMail.email!)}`)).json();
    expect(byMail.items.map((c: Contact) => c.contactId)).toContain(withMail.contactId);
  });

  it('marks a contact whose address bounces in the lists (docs/email.md "Loops")', async () => {
    const before = await all<Contact & { bouncing: boolean }>(`${P}/companies/10/contacts`, 2);
    expect(before.every((c) => !c.bouncing)).toBe(true);
    const target = before.find((c) => c.email)!;
    // As a delivery report records it: the address in lower case, whatever the contact's spelling.
    await t.ctx.database.db.execute(
      sql`insert into email_bounces (portal_id, address, reason, bounced_at)
        select id, ${target.email!.toLowerCase()}, '5.1.1', now() from portals where key = 'acme'`,
    );
    try {
      const after = await all<Contact & { bouncing: boolean }>(`${P}/companies/10/contacts`, 2);
      expect(after.filter((c) => c.bouncing).map((c) => c.contactId)).toEqual(
        after.filter((c) => c.email?.toLowerCase() === target.email!.toLowerCase()).map((c) => c.contactId),
      );
      const other = (await get(`${P}/contacts?q=${target.contactId}`)).json() as Page<
        Contact & { bouncing: boolean }
      >;
      expect(other.items.find((c) => c.contactId === target.contactId)?.bouncing).toBe(true);
    } finally {
      await t.ctx.database.db.execute(
        sql`delete from email_bounces where address = ${target.email!.toLowerCase()}`,
      );
    }
  });

  it('shows the users of a contact with their state and last sign-in', async () => {
    const res = await get(`${P}/contacts/102/users`);
    expect(res.statusCode, res.body).toBe(200);
    const anna = res.json().items.find((u: { userName: string }) => u.userName === 'anna.verdi');
    expect(anna).toMatchObject({ state: 'active' });
    expect(anna.lastSignInAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    // An invitation: invited until revoked, then its link is gone.
    const inv = await t.app.inject({
      method: 'POST',
      url: '/api/staff/portals/acme/admin/users',
      headers: admin,
      payload: { userName: 'people.new', email: 'people.new@acme.example', contactIds: [105] },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    const state = async () =>
      (await get(`${P}/contacts/105/users`))
        .json()
        .items.find((u: { userName: string }) => u.userName === 'people.new')?.state;
    expect(await state()).toBe('invited');
    await t.app.inject({
      method: 'DELETE',
      url: '/api/staff/portals/acme/admin/users/people.new/invitation',
      headers: admin,
    });
    expect(await state()).toBe('invitation_expired');
  });

  it('keeps each portal to its own: an id of another portal is not found', async () => {
    // Company 20 and contact 201 exist in beta too; beta's admin sees beta's only, acme's admin gets 404
    // for ids only beta holds.
    const id = (
      await rows<{ ext_id: number }>(
        sql`select c.ext_id from companies c join portals p on p.id = c.portal_id where p.key = 'beta'
        and c.ext_id not in (select ext_id from companies c2 join portals p2 on p2.id = c2.portal_id and p2.key = 'acme')
        limit 1`,
      )
    )[0];
    const missing = 987654;
    for (const url of [
      `${P}/companies/${id?.ext_id ?? missing}/contacts`,
      `${P}/contacts/${missing}/users`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('entity_not_found');
    }
  });

  it('answers bad input with a 400 {code, message}', async () => {
    for (const url of [
      `${P}/companies?cursor=nope`,
      `${P}/companies?cursor=${Buffer.from('["a",-1]').toString('base64url')}`,
      `${P}/contacts?cursor=${Buffer.from('{"x":1}').toString('base64url')}`,
      `${P}/companies?limit=0`,
      `${P}/companies?limit=101`,
      `${P}/contacts?q=${'x'.repeat(101)}`,
      `${P}/companies/abc/contacts`,
      `${P}/contacts/-1/users`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(typeof res.json().code, url).toBe('string');
      expect(typeof res.json().message, url).toBe('string');
    }
  });

  it('refuses agents and other portals on every people route', async () => {
    for (const [method, url] of [
      ['GET', `${P}/companies`],
      ['GET', `${P}/companies/10/contacts`],
      ['GET', `${P}/contacts`],
      ['GET', `${P}/contacts/102/users`],
      ['POST', `${P}/contacts/102/view-as`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: agent })).statusCode, url).toBe(403);
      expect((await t.app.inject({ method, url, headers: betaAdmin })).statusCode, url).toBe(403);
      expect((await t.app.inject({ method, url, headers: owner.headers })).statusCode, url).toBe(401);
    }
  });
});

describe('see as this contact', () => {
  async function openView(contactId = 102) {
    const made = await t.app.inject({
      method: 'POST',
      url: `${P}/contacts/${contactId}/view-as`,
      headers: admin,
    });
    expect(made.statusCode, made.body).toBe(201);
    const ex = await t.app.inject({
      method: 'POST',
      url: '/api/auth/view-as',
      payload: { code: made.json().code },
    });
    expect(ex.statusCode, ex.body).toBe(200);
    return { code: made.json().code as string, session: ex.json() as { token: string; expiresAt: string } };
  }

  it('opens a read-only session once per code, records it in the audit log', async () => {
    const before = await rows<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'viewed_as'`,
    );
    const { code, session } = await openView();
    expect(session).toMatchObject({ company: 'acme', contactId: 102, viewer: expect.any(String) });
    expect(new Date(session.expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(
      VIEW_AS_TTL_MIN * 60_000,
    );
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/view-as', payload: { code } });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('view_code_invalid');
    const audit = await rows<{ actor_name: string; entity: string; entity_id: string }>(
      sql`select actor_name, entity, entity_id from audit_log where action = 'viewed_as' order by id desc limit 1`,
    );
    expect(audit[0]).toEqual({ actor_name: 'boss@acme.example', entity: 'contact', entity_id: '102' });
    const after = await rows<{ n: number }>(
      sql`select count(*)::int as n from audit_log where action = 'viewed_as'`,
    );
    expect(after[0]!.n).toBe(before[0]!.n + 1);
    // Only hashes are stored.
    const stored = await rows<{ token_hash: string }>(sql`select token_hash from view_sessions`);
    expect(JSON.stringify(stored)).not.toContain(session.token);
  });

  it('reads the portal as the contact: its own contact only', async () => {
    const { session } = await openView();
    const h = bearer(session.token);
    const me = await get('/api/Users/me', h);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().contacts.map((c: { contactId: number }) => c.contactId)).toEqual([102]);
    expect((await get('/api/acme/102/tickets/5003', h)).statusCode).toBe(200);
    expect((await get('/api/acme/104/tickets', h)).statusCode).toBe(403);
    expect((await get('/api/beta/102/tickets', h)).statusCode).toBe(403);
    // Not a staff session.
    expect((await get('/api/staff/me', h)).statusCode).toBe(401);
  });

  /** Every customer route (user, portal, tenant, contact guards), with contact 102 of acme. */
  const customerRoutes = () =>
    registeredRoutes(t.app).flatMap((r) =>
      r.contract &&
      ['user', 'portal', 'tenant', 'contact'].includes(r.contract.access.guard) &&
      r.method !== 'HEAD'
        ? [r.contract]
        : [],
    );
  const urlOf = (c: RouteContract) =>
    c.path
      .replace(':company', 'acme')
      .replace(':contactid', '102')
      .replace(':ticketid', '5003')
      .replace(/:[A-Za-z0-9_]+/g, '1') + (c.path.startsWith('/api/users/') ? '?company=acme' : '');

  it('refuses every write on every customer route, and changes nothing', async () => {
    const { session } = await openView();
    const count = async () =>
      (
        await rows<{ n: string }>(
          sql`select (select count(*) from tickets) + (select count(*) from ticket_comments)
            + (select count(*) from files) + (select count(*) from sessions where revoked_at is null)
            + (select count(*) from notifications) + (select count(*) from ticket_followers) as n`,
        )
      )[0]!.n;
    const before = await count();
    const writes = customerRoutes().filter((c) => c.method !== 'GET');
    expect(writes.length).toBeGreaterThan(10);
    for (const c of writes) {
      const res = await t.app.inject({
        method: c.method as InjectOptions['method'],
        url: urlOf(c),
        headers: bearer(session.token),
        payload: {},
      });
      expect(res.statusCode, routeKey(c)).toBe(403);
      expect(res.json().code, routeKey(c)).toBe('read_only_session');
    }
    expect(await count()).toBe(before);
  });

  it('answers every customer GET without a server error', async () => {
    const { session } = await openView();
    for (const c of customerRoutes().filter((r) => r.method === 'GET')) {
      const res = await get(urlOf(c), bearer(session.token));
      expect(res.statusCode, `${routeKey(c)}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(res.statusCode, routeKey(c)).not.toBe(401);
      if (c.access.guard === 'user' && c.path !== '/api/Users/me')
        expect(res.json().code).toBe('read_only_session');
    }
  });

  it('binds the file links it reads to the view: they end with it, not hours later', async () => {
    const { session } = await openView();
    const list = await get('/api/acme/102/invoices', bearer(session.token));
    expect(list.statusCode, list.body).toBe(200);
    const url =
      (list.json() as { items?: { invoiceDocumentUrl: string }[] }).items?.[0]?.invoiceDocumentUrl ??
      (list.json() as { invoiceDocumentUrl: string }[])[0]!.invoiceDocumentUrl;
    expect(url).toMatch(/[?&]k=v\d+\.\d+&/);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    // A view's binding cannot be passed off as an ordinary session's of the same number.
    expect((await t.app.inject({ method: 'GET', url: url.replace('k=v', 'k=') })).statusCode).toBe(403);
    t.clock.advance(VIEW_AS_TTL_MIN * 60_000 + 1000);
    const late = await t.app.inject({ method: 'GET', url });
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('link_expired');
  });

  it('ends at its expiry, and a code is good for a minute only', async () => {
    const { session } = await openView();
    const made = await t.app.inject({ method: 'POST', url: `${P}/contacts/102/view-as`, headers: admin });
    t.clock.advance(61_000);
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/auth/view-as',
      payload: { code: made.json().code },
    });
    expect(late.statusCode).toBe(404);
    expect((await get('/api/Users/me', bearer(session.token))).statusCode).toBe(200);
    t.clock.advance(VIEW_AS_TTL_MIN * 60_000);
    const gone = await get('/api/Users/me', bearer(session.token));
    expect(gone.statusCode).toBe(401);
    expect(gone.json().code).toBe('invalid_token');
  });

  it('refuses a code for a contact of another portal', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${P}/contacts/987654/view-as`, headers: admin });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('entity_not_found');
  });
});
