/**
 * Every portal route × every persona, with the status each must get. Personas are described in
 * test/personas.ts; the target of id routes is ticket 5003, created by the owner (acme/102).
 */
import { sql } from 'drizzle-orm';
import { deskEntityRoutes, routeKey } from '@sportello/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStaffPersonas } from '../modules/staff/staff.fixture';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../test/harness';
import { multipartFile, PERSONAS, seedPersonas, type Persona, type PersonaAccess } from '../test/personas';
import { registeredRoutes } from './access';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

type Build = (p: PersonaAccess) => Omit<InjectOptions, 'headers'> & { headers?: Record<string, string> };
const base = (p: PersonaAccess) => `/api/${p.company}/${p.contactId}`;
const get =
  (suffix: string): Build =>
  (p) => ({ method: 'GET', url: `${base(p)}${suffix}` });
const upload =
  (suffix: string): Build =>
  (p) => {
    const m = multipartFile('note.txt', 'hello', 'text/plain');
    return { method: 'POST', url: `${base(p)}${suffix}`, payload: m.payload, headers: m.headers };
  };

/**
 * Columns: owner, colleague, admin, noFlag, otherCompany, otherPortal, anonymous, forged.
 * 404 (never 403) where a ticket exists but is not the caller's; 400 where a body id is outside the
 * caller's company.
 */
const matrix: Record<string, { build: Build; expect: number[] }> = {
  'GET /api/:company/:contactid/tickets': {
    build: get('/tickets?from=2026-01-01&to=2026-12-31 23:59'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/tickets/all': {
    build: get('/tickets/all?webUserIds=1,2'),
    expect: [403, 403, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/tickets/:ticketid': {
    build: get('/tickets/5003'),
    expect: [200, 404, 200, 403, 404, 403, 401, 401],
  },
  'POST /api/:company/:contactid/tickets': {
    build: (p) => ({
      method: 'POST',
      url: `${base(p)}/tickets`,
      payload: {
        title: 'Matrix',
        taskTypeId: 1,
        description: '<p>x</p>',
        wikiElementId: 102,
        attachments: [],
      },
    }),
    // Wiki element 102 belongs to company 10: for company 20 it does not exist.
    expect: [201, 201, 201, 403, 400, 403, 401, 401],
  },
  'POST /api/:company/:contactid/tickets/:ticketid/close': {
    build: (p) => ({ method: 'POST', url: `${base(p)}/tickets/5003/close` }),
    expect: [200, 404, 200, 403, 404, 403, 401, 401],
  },
  // After the close row: the ticket is closed, so it can be rated, then reopened.
  'PUT /api/:company/:contactid/tickets/:ticketid/rating': {
    build: (p) => ({
      method: 'PUT',
      url: `${base(p)}/tickets/5003/rating`,
      payload: { rating: 4, comment: 'ok' },
    }),
    expect: [200, 404, 200, 403, 404, 403, 401, 401],
  },
  'POST /api/:company/:contactid/tickets/:ticketid/reopen': {
    build: (p) => ({ method: 'POST', url: `${base(p)}/tickets/5003/reopen` }),
    expect: [200, 404, 200, 403, 404, 403, 401, 401],
  },
  'GET /api/:company/:contactid/tickets/unread': {
    build: get('/tickets/unread'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'POST /api/:company/:contactid/tickets/:ticketid/read': {
    build: (p) => ({ method: 'POST', url: `${base(p)}/tickets/5003/read` }),
    expect: [204, 404, 204, 403, 404, 403, 401, 401],
  },
  'GET /api/:company/:contactid/tickets/:ticketid/followers': {
    build: get('/tickets/5003/followers'),
    expect: [200, 404, 200, 403, 404, 403, 401, 401],
  },
  // An empty list: a follower added here would reach the ticket in the rows after.
  'PUT /api/:company/:contactid/tickets/:ticketid/followers': {
    build: (p) => ({
      method: 'PUT',
      url: `${base(p)}/tickets/5003/followers`,
      payload: { webUserIds: [] },
    }),
    expect: [200, 404, 200, 403, 404, 403, 401, 401],
  },
  'GET /api/:company/:contactid/overview': {
    build: get('/overview'),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'POST /api/:company/:contactid/comments': {
    build: (p) => ({
      method: 'POST',
      url: `${base(p)}/Comments`,
      payload: { taskId: 5003, message: '<p>hi</p>', commentType: 0, attachments: [] },
    }),
    expect: [201, 404, 201, 403, 404, 403, 401, 401],
  },
  'POST /api/:company/:contactid/documents/upload': {
    build: upload('/documents/upload'),
    expect: [201, 201, 201, 403, 201, 403, 401, 401],
  },
  'POST /api/:company/:contactid/comments/attachments': {
    build: upload('/comments/attachments'),
    expect: [201, 201, 201, 403, 201, 403, 401, 401],
  },
  'GET /api/users/:contactid/colleagues': {
    build: (p) => ({ method: 'GET', url: `/api/users/${p.contactId}/colleagues?company=${p.company}` }),
    expect: [403, 403, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/settings/:company/tickets/types': {
    build: (p) => ({ method: 'GET', url: `/api/settings/${p.company}/tickets/types` }),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'GET /api/settings/:company/publicfiles': {
    build: (p) => ({ method: 'GET', url: `/api/settings/${p.company}/publicfiles` }),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'GET /api/settings/:company/tags': {
    build: (p) => ({ method: 'GET', url: `/api/settings/${p.company}/tags` }),
    expect: [200, 200, 200, 200, 200, 200, 200, 200],
  },
  'GET /api/:company/:contactid/activities/activityreports': {
    build: get('/activities/activityreports?from=2026-01-01'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/activitycontracts': {
    build: get('/activitycontracts'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/activitycontracts/servicecontracts': {
    build: get('/activitycontracts/servicecontracts'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/wikielements': {
    build: get('/wikielements?filter=srv'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/documents': {
    build: get('/documents'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'POST /api/:company/:contactid/documents/upload/contact': {
    build: upload('/documents/upload/contact'),
    expect: [201, 201, 201, 403, 201, 403, 401, 401],
  },
  'GET /api/:company/:contactid/invoices': {
    build: get('/invoices'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/estimates': {
    build: get('/estimates'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/search': {
    // Every contact may search; what each finds is scoped (modules/search/search.test.ts).
    build: get('/search?q=ACME'),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/notifications': {
    build: get('/notifications'),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'POST /api/:company/:contactid/notifications/read': {
    build: (p) => ({ method: 'POST', url: `${base(p)}/notifications/read`, payload: { all: true } }),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/notifications/preferences': {
    build: get('/notifications/preferences'),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'PUT /api/:company/:contactid/notifications/preferences': {
    build: (p) => ({
      method: 'PUT',
      url: `${base(p)}/notifications/preferences`,
      payload: {
        agentReply: true,
        statusChange: true,
        newDocument: true,
        newInvoice: true,
        signatureRequest: true,
      },
    }),
    expect: [200, 200, 200, 200, 200, 403, 401, 401],
  },
  'GET /api/:company/:contactid/jobadvances/recurring': {
    build: get('/jobadvances/recurring'),
    expect: [200, 200, 200, 403, 200, 403, 401, 401],
  },
};

describe('access matrix', () => {
  it('covers every registered route that reaches portal data', () => {
    const contracts = registeredRoutes(t.app).flatMap((r) => (r.contract ? [r.contract] : []));
    const guarded = contracts
      .filter((c) => ['tenant', 'portal', 'contact'].includes(c.access.guard))
      .map((c) => routeKey(c));
    expect(guarded.length).toBeGreaterThan(15);
    expect(guarded.filter((k) => !(k in matrix))).toEqual([]);
    // A row for a route that no longer exists is a stale row.
    const known = new Set(contracts.map((c) => routeKey(c)));
    expect(Object.keys(matrix).filter((k) => !known.has(k))).toEqual([]);
    for (const row of Object.values(matrix)) expect(row!.expect).toHaveLength(PERSONAS.length);
  });

  for (const [route, row] of Object.entries(matrix)) {
    it(route, async () => {
      const actual: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const [i, persona] of PERSONAS.entries()) {
        const p = personas[persona];
        const req = row!.build(p);
        const res = await t.app.inject({
          ...req,
          headers: { ...req.headers, ...p.headers },
        } as InjectOptions);
        actual[persona] = res.statusCode;
        wanted[persona] = row!.expect[i]!;
        if (res.statusCode >= 400) {
          // Every refusal is the JSON error shape.
          const body = res.json() as { code?: unknown; message?: unknown };
          expect(typeof body.code, `${route} as ${persona}`).toBe('string');
          expect(typeof body.message, `${route} as ${persona}`).toBe('string');
        }
      }
      expect(actual).toEqual(wanted);
    });
  }

  it('serves the other portal its own data under the same ids', async () => {
    const beta = { ...personas.otherPortal, company: 'beta' };
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/beta/102/tickets/5003',
      headers: beta.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('BETA Richiesta di Anna');
    const acme = await t.app.inject({
      method: 'GET',
      url: '/api/acme/102/tickets/5003',
      headers: personas.owner.headers,
    });
    expect(acme.json().title).toBe('ACME Richiesta di Anna');
    // Nothing of the other portal leaks into a list, whoever asks.
    for (const url of [
      '/tickets',
      '/wikielements',
      '/documents',
      '/invoices',
      '/activitycontracts/servicecontracts',
    ]) {
      const r = await t.app.inject({ method: 'GET', url: `/api/beta/102${url}`, headers: beta.headers });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).not.toContain('ACME');
    }
  });

  it('keeps another company out of the lists of the same portal', async () => {
    const p = personas.otherCompany;
    for (const url of [
      '/tickets/all',
      '/activities/activityreports',
      '/invoices',
      '/wikielements',
      '/documents',
    ]) {
      const r = await t.app.inject({ method: 'GET', url: `/api/acme/201${url}`, headers: p.headers });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).not.toMatch(/Contoso|Stampante|Anna|SRV-01|FT-2026-101/);
    }
  });
});

/** A URL for a contract's path: acme, contact 102, ticket 5003, 1 for any other id. */
const urlOf = (path: string, company = 'acme') =>
  path
    .replace(':company', company)
    .replace(':contactid', '102')
    .replace(':ticketid', '5003')
    .replace(/:[A-Za-z0-9_]+/g, '1');

describe('staff and contact sessions', () => {
  const guardedBy = (kinds: string[]) =>
    registeredRoutes(t.app).flatMap((r) =>
      r.contract && kinds.includes(r.contract.access.guard) ? [r.contract] : [],
    );

  it('never lets a staff token act as a contact, on any contact route', async () => {
    const routes = guardedBy(['user', 'tenant', 'portal', 'contact']);
    expect(routes.length).toBeGreaterThan(15);
    for (const c of routes) {
      for (const [who, headers] of Object.entries(staff)) {
        const res = await t.app.inject({ method: c.method, url: urlOf(c.path), headers });
        expect(res.statusCode, `${routeKey(c)} as staff ${who}`).toBe(401);
        expect(res.json().code, `${routeKey(c)} as staff ${who}`).toBe('invalid_token');
      }
    }
  });

  // Every staff route, several requests each (this and the next): the list grows with the desk.
  it('never lets a contact token work on a staff route, and keeps staff in their own portals', async () => {
    const routes = guardedBy(['staff']);
    expect(routes.length).toBeGreaterThan(1);
    for (const c of routes) {
      for (const p of ['owner', 'admin', 'otherPortal'] as const) {
        const res = await t.app.inject({
          method: c.method,
          url: urlOf(c.path),
          headers: personas[p].headers,
        });
        expect(res.statusCode, `${routeKey(c)} as contact ${p}`).toBe(401);
      }
      if (!c.path.includes(':company')) continue;
      // Staff of portal beta only: refused on acme whatever the route, before validation.
      const foreign = await t.app.inject({ method: c.method, url: urlOf(c.path), headers: staff.agentB });
      expect(foreign.statusCode, `${routeKey(c)} as agent of beta`).toBe(403);
      const own = await t.app.inject({ method: c.method, url: urlOf(c.path), headers: staff.agentA });
      const wanted = (c.access as { role?: string }).role === 'admin' ? [403] : [200, 201, 204, 400, 404];
      expect(wanted, `${routeKey(c)} as agent of acme`).toContain(own.statusCode);
      // Past the guard: any answer of the route itself (409: a delete the entity's content refuses). An
      // admin's DELETE aims at an id nobody holds: deleting the shared ticket 5003 would break later tests.
      const adminUrl =
        c.method === 'DELETE' && c.path.includes('/admin/')
          ? urlOf(c.path).replace(/\/\d+$/, '/424242')
          : urlOf(c.path);
      const admin = await t.app.inject({ method: c.method, url: adminUrl, headers: staff.adminA });
      expect([200, 201, 204, 400, 404, 409], `${routeKey(c)} as admin of acme`).toContain(admin.statusCode);
    }
  }, 120_000);

  it('never takes an API key or the installation key for a staff session', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/admin/portals/acme/keys',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
      payload: { name: 'CRM', scopes: ['read', 'write', 'events'] },
    });
    expect(made.statusCode).toBe(201);
    const routes = guardedBy(['staff']);
    for (const c of routes) {
      for (const secret of [made.json().secret as string, TEST_ADMIN_KEY]) {
        const res = await t.app.inject({
          method: c.method,
          url: urlOf(c.path),
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(res.statusCode, `${routeKey(c)} with a key`).toBe(401);
      }
    }
  }, 120_000);

  it('never shows an internal note written on the desk on any contact route, whoever asks', async () => {
    const NOTE = 'MATRIX-NOTE-interna';
    const PUBLIC = 'MATRIX-RISPOSTA-pubblica';
    for (const [message, internal] of [
      [NOTE, true],
      [PUBLIC, false],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/staff/portals/acme/tickets/5003/comments',
        headers: staff.agentA,
        payload: { message: `<p>${message}</p>`, internal },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    let seenPublic = false;
    for (const [route, row] of Object.entries(matrix)) {
      if (!route.startsWith('GET')) continue;
      for (const persona of PERSONAS) {
        const p = personas[persona];
        const req = row.build(p);
        const res = await t.app.inject({
          ...req,
          headers: { ...req.headers, ...p.headers },
        } as InjectOptions);
        expect(res.body, `${route} as ${persona}`).not.toContain(NOTE);
        seenPublic ||= res.body.includes(PUBLIC);
      }
    }
    // The same route walk does show the public reply: the check looks where the note would be.
    expect(seenPublic).toBe(true);
    const task = await t.app.inject({ method: 'GET', url: '/api/tasks/acme/acme-task-3c4d5e6f7a8b9c0d' });
    expect(task.body).not.toContain(NOTE);
  });

  it('shows a staff user the portals they belong to, and only those', async () => {
    const me = async (h: Record<string, string>) =>
      (await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: h })).json() as {
        portals: { webPortalKey: string; role: string }[];
      };
    expect((await me(staff.agentA)).portals).toEqual([
      expect.objectContaining({ webPortalKey: 'acme', role: 'agent' }),
    ]);
    expect((await me(staff.adminA)).portals).toEqual([
      expect.objectContaining({ webPortalKey: 'acme', role: 'admin' }),
    ]);
    expect((await me(staff.agentB)).portals).toEqual([
      expect.objectContaining({ webPortalKey: 'beta', role: 'agent' }),
    ]);
  });
});

describe("routes of the signed-in user's own account", () => {
  it('refuse an anonymous caller and a forged token, before reading the body', async () => {
    const routes = registeredRoutes(t.app).flatMap((r) =>
      r.contract && r.contract.access.guard === 'user' ? [r.contract] : [],
    );
    // Users/me, logout, password, and the profile's routes (account.ts).
    expect(routes.length).toBeGreaterThan(14);
    for (const c of routes) {
      const url = urlOf(c.path).replace(/\/1(?=\/|$)/g, '/00000000-0000-4000-8000-000000000000');
      const anonymous = await t.app.inject({ method: c.method, url, payload: {} });
      expect(anonymous.statusCode, `${routeKey(c)} anonymous`).toBe(401);
      expect(anonymous.json().code, `${routeKey(c)} anonymous`).toBe('unauthorized');
      const forged = await t.app.inject({
        method: c.method,
        url,
        payload: {},
        headers: { authorization: 'Bearer forged' },
      });
      expect(forged.statusCode, `${routeKey(c)} forged`).toBe(401);
      expect(forged.json().code, `${routeKey(c)} forged`).toBe('invalid_token');
    }
  });

  it("never reach another user's sessions or passkeys", async () => {
    const sessions = await t.app.inject({
      method: 'GET',
      url: '/api/account/sessions',
      headers: personas.owner.headers,
    });
    const ownerSession = (sessions.json() as { id: string; current: boolean }[]).find((s) => s.current)!;
    // Another persona (another user) names the owner's session: not found, and it lives on.
    const other = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${ownerSession.id}`,
      headers: personas.colleague.headers,
    });
    expect(other.statusCode).toBe(404);
    const still = await t.app.inject({
      method: 'GET',
      url: '/api/Users/me',
      headers: personas.owner.headers,
    });
    expect(still.statusCode).toBe(200);
  });
});

/**
 * The desk's routes through the entity service that every staff member of a portal may use (issue 14:
 * a helpdesk agent opens tickets for customers and shares task pages), beside two of the admin-only
 * entity routes they must not widen. Columns: agent of acme, admin of acme, agent of beta only, a
 * contact of acme, nobody.
 */
describe('desk routes of agents and admins', () => {
  const STAFF_COLUMNS = ['agentA', 'adminA', 'agentB', 'contact', 'anonymous'] as const;
  const newTicket = {
    companyId: 10,
    creatorContactId: 102,
    title: 'Matrix desk',
    taskTypeId: 1,
    statusStepId: 1,
  };
  const headersOf = (who: (typeof STAFF_COLUMNS)[number]) =>
    who === 'contact' ? personas.owner.headers : who === 'anonymous' ? {} : staff[who];
  const desk = '/api/staff/portals/acme';
  const matrixMacro = (shared: boolean) => ({
    name: 'Matrix',
    shared,
    texts: { 'it-IT': 'Ciao {{customer.first_name}}' },
  });
  const slaDay = [['09:00', '18:00']];
  const slaTarget = { firstResponse: 60, resolution: 480 };
  const matrixSlaPolicy = {
    enabled: true,
    hours: [[], slaDay, slaDay, slaDay, slaDay, slaDay, []],
    holidays: ['2026-12-25'],
    targets: { low: slaTarget, normal: slaTarget, high: slaTarget, urgent: slaTarget },
  };
  /** A fresh shared macro of acme, made by its admin. */
  const sharedMacro = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: `${desk}/macros`,
        headers: staff.adminA,
        payload: matrixMacro(true),
      })
    ).json().id as number;
  /** A fresh view of acme's admin (not shared: the bound of shared views stays far). */
  const adminView = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: `${desk}/views`,
        headers: staff.adminA,
        payload: { name: 'Matrix admin', query: {} },
      })
    ).json().id as number;
  const rows: Record<string, { build: () => Promise<InjectOptions> | InjectOptions; expect: number[] }> = {
    'POST /api/staff/portals/:company/tickets': {
      build: () => ({ method: 'POST', url: `${desk}/tickets`, payload: newTicket }),
      expect: [201, 201, 403, 401, 401],
    },
    'GET /api/staff/portals/:company/companies': {
      build: () => ({ method: 'GET', url: `${desk}/companies?q=acme` }),
      expect: [200, 200, 403, 401, 401],
    },
    'GET /api/staff/portals/:company/companies/:id/contacts': {
      build: () => ({ method: 'GET', url: `${desk}/companies/10/contacts` }),
      expect: [200, 200, 403, 401, 401],
    },
    'GET /api/staff/portals/:company/tickets/:ticketid/task-links': {
      build: () => ({ method: 'GET', url: `${desk}/tickets/5003/task-links` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/tickets/:ticketid/task-links': {
      build: () => ({ method: 'POST', url: `${desk}/tickets/5003/task-links` }),
      expect: [201, 201, 403, 401, 401],
    },
    'DELETE /api/staff/portals/:company/tickets/:ticketid/task-links/:eventkey': {
      // A fresh link of ticket 5003 for each column, made by the admin.
      build: async () => {
        const made = await t.app.inject({
          method: 'POST',
          url: `${desk}/tickets/5003/task-links`,
          headers: staff.adminA,
        });
        return { method: 'DELETE', url: `${desk}/tickets/5003/task-links/${made.json().eventKey}` };
      },
      expect: [204, 204, 403, 401, 401],
    },
    // Each member's own profile (issue 28): theirs to read and change, in the portals they belong to.
    'GET /api/staff/portals/:company/profile': {
      build: () => ({ method: 'GET', url: `${desk}/profile` }),
      expect: [200, 200, 403, 401, 401],
    },
    'PATCH /api/staff/portals/:company/profile': {
      build: () => ({ method: 'PATCH', url: `${desk}/profile`, payload: { signature: 'Matrix' } }),
      expect: [200, 200, 403, 401, 401],
    },
    // What a member made that outlives them (issue 29, B8): the portal's admins only.
    'GET /api/staff/portals/:company/admin/staff/:staffid/made': {
      build: async () => {
        const [m] = (
          (await t.ctx.database.db.execute(
            sql`select id from staff_users where email = 'luca@acme.example'`,
          )) as unknown as { rows: { id: number }[] }
        ).rows;
        return { method: 'GET', url: `${desk}/admin/staff/${m!.id}/made` };
      },
      expect: [403, 200, 403, 401, 401],
    },
    // The messages read from the support mailbox are every agent's of the portal (docs/email.md); none
    // with id 1 waits here, so a member gets 404, and the body is checked before that.
    'GET /api/staff/portals/:company/email/inbound': {
      build: () => ({ method: 'GET', url: `${desk}/email/inbound?status=waiting` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/email/inbound/:inboundId/attach': {
      build: () => ({ method: 'POST', url: `${desk}/email/inbound/1/attach`, payload: { contactId: 102 } }),
      expect: [404, 404, 403, 401, 401],
    },
    // Inviting the sender is the attach of an unknown sender: every member of the portal (docs/email.md).
    'POST /api/staff/portals/:company/email/inbound/:inboundId/invite': {
      build: () => ({
        method: 'POST',
        url: `${desk}/email/inbound/1/invite`,
        payload: { companyId: 10, referentName: 'Matrix' },
      }),
      expect: [404, 404, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/email/inbound/:inboundId/discard': {
      build: () => ({ method: 'POST', url: `${desk}/email/inbound/1/discard` }),
      expect: [404, 404, 403, 401, 401],
    },
    'GET /api/staff/portals/:company/email/inbound/:inboundId/raw': {
      build: () => ({ method: 'GET', url: `${desk}/email/inbound/1/raw` }),
      expect: [404, 404, 403, 401, 401],
    },
    // The inbox's bulk action (issue 28): every member of the portal, as the ticket's own change.
    'POST /api/staff/portals/:company/tickets/bulk': {
      build: () => ({
        method: 'POST',
        url: `${desk}/tickets/bulk`,
        payload: { tickets: [{ id: 5003 }], change: { priority: 'high' } },
      }),
      expect: [200, 200, 403, 401, 401],
    },
    // Canned replies (issue 28): each member's own, the portal's shared ones written by its admins.
    'GET /api/staff/portals/:company/macros': {
      build: () => ({ method: 'GET', url: `${desk}/macros?q=matrix` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/macros': {
      build: () => ({ method: 'POST', url: `${desk}/macros`, payload: matrixMacro(false) }),
      expect: [201, 201, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/macros (shared)': {
      build: () => ({ method: 'POST', url: `${desk}/macros`, payload: matrixMacro(true) }),
      expect: [403, 201, 403, 401, 401],
    },
    'PUT /api/staff/portals/:company/macros/:macroid (shared)': {
      build: async () => ({
        method: 'PUT',
        url: `${desk}/macros/${await sharedMacro()}`,
        payload: matrixMacro(true),
      }),
      expect: [403, 200, 403, 401, 401],
    },
    'DELETE /api/staff/portals/:company/macros/:macroid (shared)': {
      build: async () => ({ method: 'DELETE', url: `${desk}/macros/${await sharedMacro()}` }),
      expect: [403, 204, 403, 401, 401],
    },
    'GET /api/staff/portals/:company/tickets/:ticketid/macros/:macroid': {
      build: async () => ({ method: 'GET', url: `${desk}/tickets/5003/macros/${await sharedMacro()}` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/tickets/:ticketid/reply-with-actions': {
      build: () => ({
        method: 'POST',
        url: `${desk}/tickets/5003/reply-with-actions`,
        payload: { message: 'Matrix', internal: true, actions: { priority: 'normal' } },
      }),
      expect: [201, 201, 403, 401, 401],
    },
    // The bell (issue 28): each member's own notices of the portal; another portal's member nothing.
    'GET /api/staff/portals/:company/notifications': {
      build: () => ({ method: 'GET', url: `${desk}/notifications?limit=5` }),
      expect: [200, 200, 403, 401, 401],
    },
    'GET /api/staff/portals/:company/notifications/count': {
      build: () => ({ method: 'GET', url: `${desk}/notifications/count` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/notifications/read': {
      build: () => ({ method: 'POST', url: `${desk}/notifications/read`, payload: { all: true } }),
      expect: [200, 200, 403, 401, 401],
    },
    // Saved views (issue 28): a member's own; a view the admin shared is theirs to change, and sharing
    // is the admins' (an agent finds no other's view: 404).
    'GET /api/staff/portals/:company/views': {
      build: () => ({ method: 'GET', url: `${desk}/views` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/views': {
      build: () => ({
        method: 'POST',
        url: `${desk}/views`,
        payload: { name: 'Matrix', query: { view: 'mine' } },
      }),
      expect: [201, 201, 403, 401, 401],
    },
    'PATCH /api/staff/portals/:company/views/:viewid': {
      build: async () => ({
        method: 'PATCH',
        url: `${desk}/views/${await adminView()}`,
        payload: { name: 'Renamed' },
      }),
      expect: [404, 200, 403, 401, 401],
    },
    'DELETE /api/staff/portals/:company/views/:viewid': {
      build: async () => ({ method: 'DELETE', url: `${desk}/views/${await adminView()}` }),
      expect: [404, 204, 403, 401, 401],
    },
    'PUT /api/staff/portals/:company/views/:viewid/shared': {
      build: async () => ({
        method: 'PUT',
        url: `${desk}/views/${await adminView()}/shared`,
        payload: { shared: true },
      }),
      expect: [403, 200, 403, 401, 401],
    },
    // Service levels (issue 28): every member reads the policy, its admins replace it.
    'GET /api/staff/portals/:company/admin/sla': {
      build: () => ({ method: 'GET', url: `${desk}/admin/sla` }),
      expect: [200, 200, 403, 401, 401],
    },
    'PUT /api/staff/portals/:company/admin/sla': {
      build: () => ({ method: 'PUT', url: `${desk}/admin/sla`, payload: matrixSlaPolicy }),
      expect: [403, 200, 403, 401, 401],
    },
    // A company's own service levels (issue 28): the admins'; beta's own company is not acme's (404).
    'GET /api/staff/portals/:company/admin/sla/companies': {
      build: () => ({ method: 'GET', url: `${desk}/admin/sla/companies` }),
      expect: [403, 200, 403, 401, 401],
    },
    'PUT /api/staff/portals/:company/admin/sla/companies/:id': {
      build: () => ({
        method: 'PUT',
        url: `${desk}/admin/sla/companies/20`,
        payload: { targets: { urgent: { firstResponse: 30 } } },
      }),
      expect: [403, 200, 403, 401, 401],
    },
    "PUT /api/staff/portals/:company/admin/sla/companies/:id (another portal's company)": {
      build: async () => {
        await t.ctx.database.db.execute(
          sql`insert into companies (portal_id, ext_id, company_name)
            select id, 778, 'BETA Matrix' from portals where key = 'beta' on conflict do nothing`,
        );
        return {
          method: 'PUT',
          url: `${desk}/admin/sla/companies/778`,
          payload: { targets: { urgent: { firstResponse: 30 } } },
        };
      },
      expect: [403, 404, 403, 401, 401],
    },
    'DELETE /api/staff/portals/:company/admin/sla/companies/:id': {
      // A fresh override of company 20 for each column, set by the admin.
      build: async () => {
        await t.app.inject({
          method: 'PUT',
          url: `${desk}/admin/sla/companies/20`,
          headers: staff.adminA,
          payload: { targets: { high: { resolution: 60 } } },
        });
        return { method: 'DELETE', url: `${desk}/admin/sla/companies/20` };
      },
      expect: [403, 204, 403, 401, 401],
    },
    // Reports (issue 28): every member of the portal; the agents' breakdown and filter are the admins'.
    ...Object.fromEntries(
      (['volume', 'times', 'ratings'] as const).flatMap((kind) => [
        [
          `GET /api/staff/portals/:company/reports/${kind}`,
          {
            build: () => ({ method: 'GET', url: `${desk}/reports/${kind}?from=2026-11-01&to=2026-11-20` }),
            expect: [200, 200, 403, 401, 401],
          },
        ],
        [
          `GET /api/staff/portals/:company/reports/${kind}.csv`,
          {
            build: () => ({
              method: 'GET',
              url: `${desk}/reports/${kind}.csv?from=2026-11-01&to=2026-11-20&breakdown=agent`,
            }),
            expect: [403, 200, 403, 401, 401],
          },
        ],
      ]),
    ),
    // Triage (issue 28): the admins read and choose who hears of unrouted tickets.
    'GET /api/staff/portals/:company/admin/triage': {
      build: () => ({ method: 'GET', url: `${desk}/admin/triage` }),
      expect: [403, 200, 403, 401, 401],
    },
    'PUT /api/staff/portals/:company/admin/triage': {
      build: () => ({ method: 'PUT', url: `${desk}/admin/triage`, payload: { groupId: null } }),
      expect: [403, 200, 403, 401, 401],
    },
    // The customer beside the ticket (issue 28): every member; invoices inside only for admins.
    'GET /api/staff/portals/:company/tickets/:ticketid/context': {
      build: () => ({ method: 'GET', url: `${desk}/tickets/5003/context` }),
      expect: [200, 200, 403, 401, 401],
    },
    // Merging (issue 28): every member merges; only the portal's admins undo. Each column starts from
    // 5004 not merged (the build undoes first), so each merge is the column's own.
    'GET /api/staff/portals/:company/tickets/:ticketid/merge': {
      build: () => ({ method: 'GET', url: `${desk}/tickets/5004/merge` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/tickets/:ticketid/merge': {
      build: async () => {
        await t.app.inject({ method: 'POST', url: `${desk}/tickets/5004/merge/undo`, headers: staff.adminA });
        return { method: 'POST', url: `${desk}/tickets/5004/merge`, payload: { targetId: 5002 } };
      },
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/tickets/:ticketid/merge/undo': {
      build: async () => {
        await t.app.inject({
          method: 'POST',
          url: `${desk}/tickets/5004/merge`,
          headers: staff.adminA,
          payload: { targetId: 5002 },
        });
        return { method: 'POST', url: `${desk}/tickets/5004/merge/undo` };
      },
      expect: [403, 200, 403, 401, 401],
    },
    // Time spent (issue 28): every member of the portal.
    'GET /api/staff/portals/:company/tickets/:ticketid/time': {
      build: () => ({ method: 'GET', url: `${desk}/tickets/5003/time` }),
      expect: [200, 200, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/tickets/:ticketid/time': {
      build: () => ({
        method: 'POST',
        url: `${desk}/tickets/5003/time`,
        payload: { minutes: 15, billable: true },
      }),
      expect: [201, 201, 403, 401, 401],
    },
    // The entity routes stay the admins': the desk's agents go through the rows above.
    'POST /api/staff/portals/:company/admin/tickets': {
      build: () => ({
        method: 'POST',
        url: `${desk}/admin/tickets`,
        payload: { ...newTicket, title: 'Matrix admin' },
      }),
      expect: [403, 201, 403, 401, 401],
    },
    'POST /api/staff/portals/:company/admin/tags': {
      build: () => ({ method: 'POST', url: `${desk}/admin/tags`, payload: { name: 'Matrix' } }),
      expect: [403, 201, 403, 401, 401],
    },
  };

  it('has a row for every desk route of the entity service', () => {
    const desked = Object.values(deskEntityRoutes).map((c) => routeKey(c));
    expect(desked.filter((k) => !(k in rows))).toEqual([]);
    for (const c of Object.values(deskEntityRoutes)) expect(c.access).toEqual({ guard: 'staff' });
  });

  for (const [route, row] of Object.entries(rows)) {
    it(route, async () => {
      const actual: Record<string, number> = {};
      const wanted: Record<string, number> = {};
      for (const [i, who] of STAFF_COLUMNS.entries()) {
        const req = await row.build();
        const res = await t.app.inject({ ...req, headers: headersOf(who) });
        actual[who] = res.statusCode;
        wanted[who] = row.expect[i]!;
        if (res.statusCode >= 400)
          expect(res.json(), `${route} as ${who}`).toMatchObject({
            code: expect.any(String),
            message: expect.any(String),
          });
      }
      expect(actual).toEqual(wanted);
    });
  }
});
