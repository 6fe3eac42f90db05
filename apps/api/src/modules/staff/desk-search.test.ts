/**
 * Search as agents search (issue 28 item 3): a ticket by its number however it is said, by its
 * requester's name or e-mail and its company's name, in the inbox's search and in the search as one
 * types, which also answers the contacts and companies it names; never another portal's.
 */
import type { InboxAnswer, StaffSearchAnswer } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas } from '../../test/personas';
import { ticketNumberOf } from './inbox.queries';
import { seedStaffPersonas } from './staff.fixture';

let t: TestApp;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;

beforeAll(async () => {
  t = await createTestApp();
  await seedPersonas(t);
  staff = await seedStaffPersonas(t);
});
afterAll(async () => {
  await t?.close();
});

const get = async <T>(url: string, who = staff.agentA) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/staff/portals/acme${url}`, headers: who });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
};
const inboxIds = async (q: string, view = 'open') =>
  (await get<InboxAnswer>(`/tickets?view=${view}&q=${encodeURIComponent(q)}`)).items.map((i) => i.id);
const quick = (q: string) => get<StaffSearchAnswer>(`/search?q=${encodeURIComponent(q)}`);

describe('search as agents search', () => {
  it('reads a number as agents say it', () => {
    for (const q of ['118', '0118', '#118', '2026/0118', 'T-2026-00118', '2026-118', 't 2026/0118'])
      expect(ticketNumberOf(q), q).toMatchObject({ progressive: 118 });
    expect(ticketNumberOf('2026/0118')!.year).toBe('2026');
    expect(ticketNumberOf('0118')!.year).toBeNull();
    for (const q of ['0', 'printer 118', '2026/', 'ABCD-118', '118a'])
      expect(ticketNumberOf(q), q).toBeNull();
  });

  it('finds ticket 99 by "99", "0099", "#99", "2026/0099" and "T-2026-00099", not by another year', async () => {
    for (const q of ['99', '0099', '#99', '2026/0099', 'T-2026-00099']) {
      expect(await inboxIds(q), q).toContain(6001);
      expect(
        (await quick(q)).tickets.map((x) => x.id),
        q,
      ).toContain(6001);
    }
    expect(await inboxIds('2025/0099')).not.toContain(6001);
  });

  it("finds tickets by their requester's name or e-mail and by their company's name", async () => {
    expect(await inboxIds('Giulia Blu')).toEqual([6001]);
    expect(await inboxIds('giulia@acme')).toEqual([6001]);
    // No ticket's title or text says Contoso: its company's name does.
    const contoso = await inboxIds('contoso');
    expect(contoso.length).toBeGreaterThan(0);
    expect(contoso).not.toContain(6001);
    expect(await inboxIds('anna@acme', 'closed')).toEqual(await inboxIds('ACME Anna Verdi', 'closed'));
  });

  it('answers as one types, grouped by tickets, contacts and companies of the portal only', async () => {
    const r = await quick('Giulia');
    expect(r.tickets.map((x) => x.id)).toEqual([6001]);
    // Portal beta holds a BETA Giulia Blu: never shown to an agent of acme.
    expect(r.contacts).toEqual([
      { id: 201, referentName: 'ACME Giulia Blu', email: 'giulia@acme.example', company: expect.any(Object) },
    ]);
    expect(r.companies).toEqual([]);
    const companies = await quick('globex');
    expect(companies.companies.map((c) => c.name)).toEqual(['ACME Globex Spa']);
    expect(companies.tickets.map((x) => x.id)).toContain(6001);
    // Two characters: tickets by number or words only, no person.
    expect((await quick('gi')).contacts).toEqual([]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/acme/search?q=',
      headers: staff.agentA,
    });
    expect(bad.statusCode).toBe(400);
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/staff/portals/acme/search?q=Giulia',
      headers: staff.agentB,
    });
    expect(other.statusCode).toBe(403);
  });
});
