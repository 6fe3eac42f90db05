import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, localFiles, type TestApp } from '../../test/harness';
import { verifyPassword } from '../../platform/passwords';
import { ticketNumberOf } from '../../platform/ticket-numbers';
import { makePdf } from './demo-assets';
import { buildDemoDocument, DEMO_KEYS, DEMO_PASSWORD } from './demo-data';
import { loadDemoDataIfEmpty } from './demo';
import { DEMO_STAFF } from './demo-staff';
import { importDocument } from './import.service';
import { dumpTables } from './import.test-support';

async function rows<T = Record<string, unknown>>(t: TestApp, text: string): Promise<T[]> {
  return (await t.ctx.database.withConnection((sql) => sql.query<T>(text))).rows;
}

describe('demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('loads the demo portal into an empty database, once', async () => {
    expect(await loadDemoDataIfEmpty(t.ctx)).toBe(true);
    expect(await loadDemoDataIfEmpty(t.ctx)).toBe(false);
    const portals = await rows(t, 'select key, name, base_color, time_zone, logo_file_id from portals');
    expect(portals).toHaveLength(1);
    expect(portals[0]).toMatchObject({
      key: 'demo',
      name: 'Sportello Assistenza',
      base_color: '#0b7285',
      time_zone: 'Europe/Rome',
    });
    expect(portals[0]?.logo_file_id).not.toBeNull();
  });

  it('has the three demo users with their contacts and permissions', async () => {
    const users = await rows<{ user_name: string; password_hash: string }>(
      t,
      'select user_name, password_hash from users order by user_name',
    );
    expect(users.map((u) => u.user_name)).toEqual(['demo', 'giulia.bianchi', 'luca.verdi']);
    for (const u of users) expect(await verifyPassword(u.password_hash, DEMO_PASSWORD)).toBe(true);

    const contacts = await rows<Record<string, unknown>>(
      t,
      `select u.user_name, co.company_name, c.* from user_contacts uc join users u on u.id = uc.user_id
         join contacts c on c.id = uc.contact_id join companies co on co.id = c.company_id order by u.user_name, co.ext_id`,
    );
    const of = (name: string) => contacts.filter((c) => c.user_name === name);
    // demo: administrator with every permission in company 1, and a contact of company 2 (company switcher).
    expect(of('demo').map((c) => c.company_name)).toEqual(['Rossi Impianti Srl', 'Bottega Verdi Snc']);
    const admin = of('demo')[0] as Record<string, unknown>;
    for (const flag of [
      'manage_tickets',
      'administrator',
      'view_contact_contracts',
      'view_recurring_advances',
      'view_contact_activity_reports',
      'view_contact_wiki',
      'view_estimates',
      'view_contact_invoices',
      'view_contact_documents',
      'upload_contact_documents',
    ])
      expect(admin[flag]).toBe(true);
    expect(admin.phone).toBeTruthy();
    const giulia = of('giulia.bianchi');
    expect(giulia).toHaveLength(1);
    expect(giulia[0]).toMatchObject({
      company_name: 'Rossi Impianti Srl',
      manage_tickets: true,
      view_contact_activity_reports: true,
      administrator: false,
      view_contact_contracts: false,
      view_contact_invoices: false,
    });
    const luca = of('luca.verdi');
    expect(luca[0]).toMatchObject({
      company_name: 'Bottega Verdi Snc',
      administrator: false,
      view_contact_contracts: true,
      view_recurring_advances: true,
      view_contact_activity_reports: true,
      view_contact_wiki: true,
      view_estimates: true,
      view_contact_invoices: true,
      view_contact_documents: true,
    });
  });

  it('has the demo staff desk accounts, signed in with the demo password', async () => {
    const staff = await rows<{ email: string; status: string; role: string; agent: string; groups: string }>(
      t,
      `select s.email, s.status, m.role, a.display_name as agent,
              (select string_agg(g.name, ', ' order by g.ext_id) from staff_group_members sg
                 join assignee_groups g on g.id = sg.group_id where sg.staff_user_id = s.id) as groups
         from staff_users s join staff_memberships m on m.staff_user_id = s.id
         join agents a on a.id = m.agent_id order by s.email`,
    );
    expect(staff).toEqual([
      {
        email: DEMO_STAFF[0].email,
        status: 'active',
        role: 'admin',
        agent: 'Marco Ferri',
        groups: 'Helpdesk IT',
      },
      {
        email: DEMO_STAFF[1].email,
        status: 'active',
        role: 'agent',
        agent: 'Sara Conti',
        groups: 'Helpdesk IT, Manutenzione impianti',
      },
    ]);
    for (const s of DEMO_STAFF) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/staff/auth/login',
        payload: { email: s.email, password: DEMO_PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/staff/me',
        headers: { authorization: `Bearer ${res.json<{ token: string }>().token}` },
      });
      expect(me.json<{ portals: { webPortalKey: string }[] }>().portals.map((p) => p.webPortalKey)).toEqual([
        'demo',
      ]);
    }
  });

  it('is a complete, current portal', async () => {
    const count = async (table: string) =>
      Number((await rows<{ n: number }>(t, `select count(*)::int as n from ${table}`))[0]?.n);
    expect(await count('ticket_types')).toBe(3);
    expect(await count('status_steps')).toBe(4);
    expect(await count('agents')).toBe(3);
    expect(await count('public_files')).toBe(2);
    expect(await count('tickets')).toBeGreaterThanOrEqual(12);
    expect(await count('ticket_attachments')).toBeGreaterThanOrEqual(2);
    expect(await count('activity_reports')).toBeGreaterThanOrEqual(4);
    expect(await count('estimates')).toBeGreaterThanOrEqual(3);
    expect(await count('appointment_links')).toBe(1);
    expect(await count('task_links')).toBe(1);
    const [closing] = await rows(t, `select name, task_status from status_steps where is_closing`);
    expect(closing).toEqual({ name: 'Chiuso', task_status: 2 });
    const [agent] = await rows(t, `select count(*)::int as n from agents where profile_file_id is not null`);
    expect(agent?.n).toBe(1);
    const types = await rows<{ t: number }>(
      t,
      `select distinct (trigger->>'recurrenceType')::int as t from recurring_advances order by 1`,
    );
    expect(types.map((r) => r.t)).toEqual([10, 20, 30]);
    const properties = await rows<{ data_type: string }>(
      t,
      'select distinct data_type from wiki_properties order by 1',
    );
    expect(properties.map((p) => p.data_type)).toEqual(['bool', 'date', 'file', 'number', 'text', 'url']);
    const signatures = await rows(
      t,
      `select s.document_key, s.require_otp, c.phone is not null as has_phone from signature_requests s
         join contacts c on c.id = s.contact_id order by s.require_otp desc`,
    );
    expect(signatures).toEqual([
      { document_key: DEMO_KEYS.signatureWithOtp, require_otp: true, has_phone: true },
      { document_key: DEMO_KEYS.signatureWithoutOtp, require_otp: false, has_phone: true },
    ]);

    // Contracts relative to now (2026-11-20): active, expiring within 30 days, expired.
    const now = t.clock.now().getTime();
    const sc = await rows<{ status: number; active_to: string | null; packages: number }>(
      t,
      `select status, active_to, (select count(*)::int from service_contract_packages p where p.service_contract_id = s.id) as packages
         from service_contracts s`,
    );
    const days = (d: string | null) => (d === null ? Infinity : (new Date(d).getTime() - now) / 86_400_000);
    expect(sc.some((s) => s.status === 1 && days(s.active_to) > 30)).toBe(true);
    expect(sc.some((s) => s.status === 1 && days(s.active_to) > 0 && days(s.active_to) <= 30)).toBe(true);
    expect(sc.some((s) => s.status === 4 && days(s.active_to) < 0)).toBe(true);
    expect(sc.some((s) => s.packages === 0)).toBe(true);
    const ac = await rows<{ end: string | null }>(t, 'select "end" from activity_contracts');
    expect(ac.some((a) => days(a.end) < 0)).toBe(true);
    expect(ac.some((a) => days(a.end) > 0)).toBe(true);
    const [recent] = await rows<{ created_on: string }>(
      t,
      'select max(created_on) as created_on from tickets',
    );
    expect(now - new Date(String(recent?.created_on)).getTime()).toBeLessThan(2 * 86_400_000);
    // One number format: the demo's tickets are numbered as the portal numbers the tickets it opens.
    const numbered = await rows<{ ticket_number: string; p: number }>(
      t,
      'select ticket_number, internal_annual_progressive as p from tickets where internal_annual_progressive > 0',
    );
    expect(numbered.length).toBeGreaterThan(5);
    for (const n of numbered) expect(n.ticket_number).toBe(ticketNumberOf(2026, n.p));

    // The PDFs are real PDFs.
    const pdfs = await rows<{ sha256: string }>(
      t,
      `select sha256 from files where content_type = 'application/pdf' limit 3`,
    );
    const { readFileSync } = await import('node:fs');
    for (const f of pdfs)
      expect(readFileSync(localFiles(t).pathOf(f.sha256)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('builds the same bytes twice and re-imports without changing a row', async () => {
    const now = t.clock.now();
    const spec = { title: 'Prova', lines: ['Perché è così'] };
    expect((await makePdf(spec, now)).equals(await makePdf(spec, now))).toBe(true);
    const before = await dumpTables(t.ctx.database); // the list counters included
    t.clock.advance(3_600_000);
    await importDocument(t.ctx, await buildDemoDocument(now));
    expect(await dumpTables(t.ctx.database)).toEqual(before);
  });

  it('holds nothing written or answered later than the moment it is loaded, at any time of day', async () => {
    // 00:30 in Rome is before every "today at …" of the demo; the journeys met it as a flaky inbox order.
    for (const now of ['2026-11-23T23:30:00Z', '2026-11-24T11:00:00Z', '2026-11-24T22:59:00Z']) {
      const doc = (await buildDemoDocument(new Date(now))) as unknown as {
        portals: {
          companies: { tickets?: { createdOn: string; comments?: { creationDate: string }[] }[] }[];
        }[];
      };
      const moments = doc.portals
        .flatMap((p) => p.companies)
        .flatMap((c) =>
          (c.tickets ?? []).flatMap((tk) => [
            tk.createdOn,
            ...(tk.comments ?? []).map((m) => m.creationDate),
          ]),
        );
      expect(moments.length).toBeGreaterThan(10);
      expect(
        moments.filter((m) => Date.parse(m) > Date.parse(now)),
        now,
      ).toEqual([]);
    }
  });
});
