/**
 * The one search never finds what the contact may not see: the same personas as the access matrix
 * (other company, other portal, missing flag, another user's ticket for a non-administrator), plus
 * internal notes, which are the staff's.
 */
import { permissionFlags, searchKinds, type PermissionFlag, type SearchResult } from '@sportello/contracts';
import { searchQuery } from './search.queries';
import { likeEscape } from '../../platform/sql-json';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t, (doc) => {
    // Contact 103 of company 10: tickets and wiki only (no invoices, estimates, documents, contracts).
    const acme = doc.portals[0] as { companies: { contacts: Record<string, unknown>[] }[] };
    const c103 = acme.companies[0]!.contacts.find((c) => c.contactId === 103);
    if (c103) c103.permissions = { manageTickets: true, viewContactWiki: true };
    doc.users.push({
      userName: 'solo.ticket',
      email: 'solo@acme.example',
      contacts: [{ webPortalKey: 'acme', contactId: 103 }],
    });
  });
  // An internal note on the owner's ticket, and a public reply on the admin's: only the reply is searchable.
  await t.ctx.database.db
    .execute(sql`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, internal,
      sender_agent_id)
    select t.portal_id, t.id, 990001, '<p>segretissimo nota interna</p>', now(), true,
      (select id from agents where portal_id = t.portal_id order by id limit 1)
    from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = 5003`);
});
afterAll(async () => {
  await t?.close();
});

async function find(p: PersonaAccess, q: string, company = p.company, contactId = p.contactId) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/${company}/${contactId}/search?q=${encodeURIComponent(q)}`,
    headers: p.headers,
  });
  return res;
}
/** kind → titles, for compact expectations. */
async function titles(p: PersonaAccess, q: string): Promise<Record<string, string[]>> {
  const res = await find(p, q);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as SearchResult;
  return Object.fromEntries(body.groups.map((g) => [g.kind, g.items.map((i) => i.title).sort()]));
}

describe('search scoping', () => {
  it('finds for the owner only their own tickets and documents, and the company rest', async () => {
    expect(await titles(personas.owner, 'ACME')).toEqual({
      tickets: ['ACME Richiesta di Anna'],
      wiki: ['ACME-FW-01', 'ACME-SRV-01', 'ACME-SRV-02'],
      invoices: ['ACME-FT-2025-900', 'ACME-FT-2026-101'],
      estimates: ['P-2026-7'],
      documents: ['ACME documento-anna.pdf'],
      activityContracts: ['ACME Monte ore 2026', 'ACME Pacchetto interventi 2025'],
      serviceContracts: ['ACME Manutenzione server', 'ACME Supporto rete', 'ACME Vecchio contratto'],
    });
  });

  it("finds no ticket for a colleague who created none (another user's ticket stays hidden)", async () => {
    const got = await titles(personas.colleague, 'ACME');
    expect(got.tickets).toBeUndefined();
    expect(got.documents).toBeUndefined();
    expect(got.invoices).toEqual(['ACME-FT-2025-900', 'ACME-FT-2026-101']);
    expect(await titles(personas.colleague, '2026/0014')).toEqual({});
    expect(await titles(personas.colleague, '5003')).toEqual({});
  });

  it("finds a contact's followed tickets beside their own, and no other colleague's", async () => {
    // The colleague (acme/104, user colleague.user) follows the admin's "Rete lenta" (5002): the
    // search reads their followed tickets as a branch of its own.
    const db = t.ctx.database.db;
    const follow = (on: boolean) =>
      on
        ? db.execute(sql`insert into ticket_followers (ticket_id, user_id, created_at)
            select t.id, u.id, now() from tickets t join portals p on p.id = t.portal_id, users u
            where p.key = 'acme' and t.ext_id = 5002 and u.user_name = 'colleague.user'`)
        : db.execute(sql`delete from ticket_followers where user_id = (select id from users
            where user_name = 'colleague.user')`);
    await follow(true);
    try {
      for (const q of ['Rete', '2026/0013', '5002', '2026/00', 'ACME'])
        expect((await titles(personas.colleague, q)).tickets, q).toEqual(['ACME Rete lenta']);
      expect((await titles(personas.colleague, 'Stampante')).tickets).toBeUndefined();
      // The owner's own ticket and nothing the colleague follows.
      expect((await titles(personas.owner, 'ACME')).tickets).toEqual(['ACME Richiesta di Anna']);
    } finally {
      await follow(false);
    }
    expect((await titles(personas.colleague, 'Rete')).tickets).toBeUndefined();
  });

  it("finds every ticket of the company for an administrator, never another company's", async () => {
    const got = await titles(personas.admin, 'ACME');
    expect(got.tickets).toEqual([
      'ACME Aperto da agente',
      'ACME Rete lenta',
      'ACME Richiesta di Anna',
      'ACME Stampante non funziona',
    ]);
    expect(got.documents).toEqual(['ACME carta-identita.pdf', 'ACME foto-impianto.png']);
    expect(JSON.stringify(got)).not.toMatch(/Globex|GLOBEX/);
  });

  it('finds fragments through the scope alone, never with an operator a trigram index serves', async () => {
    // `ilike` would let a statement prepared once (its generic plan) read a trigram index, whose entries
    // are every portal's: all of it for a text shorter than a trigram, every number sharing the
    // trigrams of "INV-10" for a number fragment. strpos leaves the rows to the scope's indexes.
    const got = await titles(personas.admin, 'FT');
    expect(got.invoices).toEqual(['ACME-FT-2025-900', 'ACME-FT-2026-101']);
    const tenant = {
      userId: 0,
      portalId: 1,
      portalKey: 'acme',
      timeZone: 'UTC',
      companyId: 1,
      companyName: '',
      contactId: 1,
      contactExtId: 1,
      flags: Object.fromEntries(permissionFlags.map((f) => [f, true])) as Record<PermissionFlag, boolean>,
      listVersion: 0,
    };
    for (const q of ['FT', 'INV-10', '2026/0012', '5002', 'stampante']) {
      const s = searchQuery(
        tenant,
        {
          q,
          kinds: new Set(searchKinds),
          ticketScope: {
            portalId: 1,
            companyId: 1,
            creatorContactId: null,
            followerUserId: null,
            withReports: false,
          },
          limit: 8,
        },
        searchKinds,
      );
      expect(s!.sql, q).not.toMatch(/ilike|[^i]like |~~/i);
      // The portal's condition is kept out of index choices (`portal_id + 0`) in every group but the
      // ticket number's exact lookup, which the portal's number index serves.
      expect(s!.sql.match(/\w+\.portal_id = /g), q).toEqual(['t.portal_id = ']);
    }
  });

  it("means by a fragment what `ilike '%text%'` means, on this database", async () => {
    // The fragment test is strpos(lower(value), lower(text)) > 0 (search.queries.ts): the same folding
    // as ilike, and wildcards and the escape character taken literally, as the escaped pattern did.
    const values = [
      'ACME-FT-2026-101',
      'Città Àlfa',
      'STRASSE straße',
      'İstanbul',
      '50%_off\\x',
      'Ωmega ωMEGA',
    ];
    const texts = [
      'ft-2026',
      'FT-2026-1',
      'CITTÀ',
      'àlfa',
      'straße',
      'STRASSE',
      'istanbul',
      'i̇stanbul',
      '0%_',
      '_o',
      '\\x',
      'ωmega',
      '%',
    ];
    const pairs = values.flatMap((v) => texts.map((q) => ({ v, q, like: `%${likeEscape(q)}%` })));
    const r = await t.ctx.database.db.execute(sql`
      select x.v, x.q, x.v ilike x.pattern as by_like, strpos(lower(x.v), lower(x.q)) > 0 as by_strpos
      from unnest(${sql.param(pairs.map((x) => x.v))}::text[], ${sql.param(pairs.map((x) => x.q))}::text[],
        ${sql.param(pairs.map((x) => x.like))}::text[]) as x(v, q, pattern)`);
    const rows = (r as unknown as { rows: { v: string; q: string; by_like: boolean; by_strpos: boolean }[] })
      .rows;
    expect(rows).toHaveLength(pairs.length);
    for (const x of rows) expect(x.by_strpos, `${x.v} / ${x.q}`).toBe(x.by_like);
    expect(rows.filter((x) => x.by_like).length).toBeGreaterThan(8);
  });

  it('finds nothing at all for a contact without flags', async () => {
    expect(await titles(personas.noFlag, 'ACME')).toEqual({});
  });

  it('searches a kind only with the permission of its list', async () => {
    const solo = { ...personas.noFlag, contactId: 103 };
    const { bearer, tokenFor } = await import('../../test/seed');
    solo.headers = bearer(await tokenFor(t, 'solo.ticket'));
    const got = await titles(solo, 'ACME');
    expect(Object.keys(got).sort()).toEqual(['wiki']);
  });

  it('keeps the other company to its own rows', async () => {
    expect(await titles(personas.otherCompany, 'ACME')).toEqual({
      tickets: ['ACME Ticket Globex'],
      invoices: ['ACME-FT-GLOBEX-1'],
    });
  });

  it('refuses another portal, and finds nothing of acme in it', async () => {
    expect((await find(personas.otherPortal, 'ACME')).statusCode).toBe(403);
    const beta = { ...personas.otherPortal, company: 'beta' };
    const res = await find(beta, 'ACME');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ groups: [] });
    expect(JSON.stringify((await titles(beta, 'BETA')).tickets)).toBe('["BETA Richiesta di Anna"]');
  });

  it('refuses without a session', async () => {
    expect((await find(personas.anonymous, 'ACME')).statusCode).toBe(401);
    expect((await find(personas.forged, 'ACME')).statusCode).toBe(401);
  });
});

describe('search matching', () => {
  it('finds a ticket by number, id, title fragment and words of the public conversation', async () => {
    const a = personas.admin;
    expect((await titles(a, '2026/0012')).tickets).toEqual(['ACME Stampante non funziona']);
    expect((await titles(a, '5002')).tickets).toEqual(['ACME Rete lenta']);
    expect((await titles(a, 'tampan')).tickets).toEqual(['ACME Stampante non funziona']);
    expect((await titles(a, 'carico')).tickets).toEqual(['ACME Stampante non funziona']);
  });

  it('finds number fragments of every kind in any case, within the scope only', async () => {
    // Company 10's tickets are 2026/0012–0015; Globex's (company 20) is 2026/0099; the beta portal
    // is a clone with the same numbers.
    expect(await titles(personas.admin, '2026/00')).toEqual({
      tickets: [
        'ACME Aperto da agente',
        'ACME Rete lenta',
        'ACME Richiesta di Anna',
        'ACME Stampante non funziona',
      ],
    });
    expect(await titles(personas.owner, '2026/00')).toEqual({ tickets: ['ACME Richiesta di Anna'] });
    expect(await titles(personas.colleague, '2026/00')).toEqual({});
    expect(await titles(personas.otherCompany, '2026/00')).toEqual({ tickets: ['ACME Ticket Globex'] });
    expect(await titles(personas.admin, 'acme-ft-20')).toEqual({
      invoices: ['ACME-FT-2025-900', 'ACME-FT-2026-101'],
    });
    expect(await titles(personas.admin, 'globex-1')).toEqual({});
    expect(await titles(personas.otherCompany, 'GLOBEX-1')).toEqual({ invoices: ['ACME-FT-GLOBEX-1'] });
    expect(await titles(personas.noFlag, '2026/00')).toEqual({});
  });

  it('never searches internal notes', async () => {
    expect(await titles(personas.owner, 'segretissimo')).toEqual({});
    expect(await titles(personas.admin, 'segretissimo')).toEqual({});
  });

  it("follows every change of a ticket's public conversation: reply added, changed, made internal, deleted", async () => {
    const a = personas.admin;
    const db = t.ctx.database.db;
    const ticket = sql`(select t.id from tickets t join portals p on p.id = t.portal_id
      where p.key = 'acme' and t.ext_id = 5002)`;
    await db.execute(sql`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, internal,
        sender_agent_id)
      select t.portal_id, t.id, 990101, '<p>parola girasole</p>', now(), false,
        (select id from agents where portal_id = t.portal_id order by id limit 1) from tickets t where t.id = ${ticket}`);
    expect((await titles(a, 'girasole')).tickets).toEqual(['ACME Rete lenta']);
    await db.execute(
      sql`update ticket_comments set message = '<p>parola tulipano</p>' where ext_id = 990101`,
    );
    expect(await titles(a, 'girasole')).toEqual({});
    expect((await titles(a, 'tulipano')).tickets).toEqual(['ACME Rete lenta']);
    await db.execute(sql`update ticket_comments set internal = true where ext_id = 990101`);
    expect(await titles(a, 'tulipano')).toEqual({});
    await db.execute(sql`update ticket_comments set internal = false where ext_id = 990101`);
    expect((await titles(a, 'tulipano')).tickets).toEqual(['ACME Rete lenta']);
    await db.execute(sql`delete from ticket_comments where ext_id = 990101`);
    expect(await titles(a, 'tulipano')).toEqual({});
    // The ticket's other words stay.
    expect((await titles(a, '5002')).tickets).toEqual(['ACME Rete lenta']);
  });

  it('dates and orders a ticket by its public activity: an internal note neither shows nor moves it', async () => {
    const a = personas.admin;
    const db = t.ctx.database.db;
    const hitOf = async (q: string, title: string) => {
      const res = await find(a, q);
      expect(res.statusCode, res.body).toBe(200);
      const tickets = (res.json() as SearchResult).groups.find((g) => g.kind === 'tickets')?.items ?? [];
      return { date: tickets.find((i) => i.title === title)?.date, order: tickets.map((i) => i.title) };
    };
    const ticket = sql`(select t.id from tickets t join portals p on p.id = t.portal_id
      where p.key = 'acme' and t.ext_id = 5002)`;
    const created = (await db.execute(
      sql`select created_on from tickets where id = ${ticket}`,
    )) as unknown as { rows: { created_on: Date | string }[] };
    const createdAt = new Date(created.rows[0]!.created_on).toISOString();
    expect((await hitOf('ACME', 'ACME Rete lenta')).date).toBe(createdAt);
    const before = (await hitOf('ACME', 'ACME Rete lenta')).order;
    // A note written now (the owner's ticket 5003 has one from the start, and its hit is not dated by it).
    await db.execute(sql`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, internal,
        sender_agent_id)
      select t.portal_id, t.id, 990201, '<p>solo per noi</p>', '2027-03-01T10:00:00Z', true, (select id from agents where portal_id = t.portal_id order by id limit 1)
      from tickets t where t.id = ${ticket}`);
    expect((await hitOf('ACME', 'ACME Rete lenta')).date).toBe(createdAt);
    expect((await hitOf('ACME', 'ACME Rete lenta')).order).toEqual(before);
    // The list says the same date: one fact for every customer screen.
    const list = await t.app.inject({ method: 'GET', url: '/api/acme/101/tickets', headers: a.headers });
    const row = (list.json() as { id: number; lastActivityAt: string }[]).find((r) => r.id === 5002);
    expect(row?.lastActivityAt).toBe(createdAt);
    // A public reply dates it; the note made public does, and made internal again or deleted no longer.
    await db.execute(sql`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, internal,
        sender_agent_id)
      select t.portal_id, t.id, 990202, '<p>risposta</p>', '2027-02-01T10:00:00Z', false, (select id from agents where portal_id = t.portal_id order by id limit 1)
      from tickets t where t.id = ${ticket}`);
    expect((await hitOf('ACME', 'ACME Rete lenta')).date).toBe('2027-02-01T10:00:00.000Z');
    expect((await hitOf('ACME', 'ACME Rete lenta')).order[0]).toBe('ACME Rete lenta');
    await db.execute(sql`update ticket_comments set internal = false where ext_id = 990201`);
    expect((await hitOf('ACME', 'ACME Rete lenta')).date).toBe('2027-03-01T10:00:00.000Z');
    await db.execute(sql`update ticket_comments set internal = true where ext_id = 990201`);
    expect((await hitOf('ACME', 'ACME Rete lenta')).date).toBe('2027-02-01T10:00:00.000Z');
    await db.execute(sql`delete from ticket_comments where ext_id in (990201, 990202)`);
    expect((await hitOf('ACME', 'ACME Rete lenta')).date).toBe(createdAt);
  });

  it("keeps a long conversation's words bounded (a tsvector holds 1 MB at most)", async () => {
    const db = t.ctx.database.db;
    // Random-looking words: 6,000 distinct per message, ~70 KB of words each.
    const words = (seed: number) =>
      Array.from({ length: 6000 }, (_, i) => `w${seed}x${(i * 7919).toString(36)}q`).join(' ');
    for (let i = 0; i < 6; i++)
      await db.execute(sql`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, internal,
          sender_agent_id)
        select t.portal_id, t.id, ${990200 + i}, ${words(i)}, now(), false,
          (select id from agents where portal_id = t.portal_id order by id limit 1)
        from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = 5001`);
    const size = await db.execute(sql`select pg_column_size(t.conversation_vector) as n from tickets t
      join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = 5001`);
    expect(Number((size as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBeLessThanOrEqual(
      262144 + 131072,
    );
    await db.execute(sql`delete from ticket_comments where ext_id between 990200 and 990205`);
  });

  it('finds invoices and estimates by number fragment and answers signed file links', async () => {
    const res = await find(personas.owner, 'ft-2026');
    const body = res.json() as SearchResult;
    expect(body.groups.map((g) => g.kind)).toEqual(['invoices']);
    const item = body.groups[0]!.items[0]!;
    expect(item.title).toBe('ACME-FT-2026-101');
    expect(item.url).toMatch(/^\/api\/files\//);
    const file = await t.app.inject({ method: 'GET', url: item.url!, headers: personas.owner.headers });
    expect(file.statusCode).toBe(200);
    expect((await titles(personas.owner, 'p-2026')).estimates).toEqual(['P-2026-7']);
  });

  it('takes LIKE wildcards literally', async () => {
    expect(await titles(personas.admin, '%_%')).toEqual({});
  });

  it('answers 400 for a query too short, too long or missing', async () => {
    for (const q of ['a', ' a ', 'x'.repeat(101)]) {
      const res = await find(personas.owner, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/acme/102/search',
      headers: personas.owner.headers,
    });
    expect(none.statusCode).toBe(400);
  });
});
