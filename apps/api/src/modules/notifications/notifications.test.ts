/**
 * Customer notifications: written by the triggers of migration 0013 in the transaction of the change
 * (whoever writes), to the users who may see the thing, e-mailed when their switch is on, never to the
 * user who made the change from the portal; the bell lists, counts and marks read.
 */
import type { NotificationList } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderNotificationMail } from '../tickets/core';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, type TestApp } from '../../test/harness';
import { seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';

let t: TestApp;
let personas: Record<Persona, PersonaAccess>;
const db = () => t.ctx.database.db;
const rows = <T>(q: ReturnType<typeof sql>) => queryRows<T>(db(), q);

beforeAll(async () => {
  t = await createTestApp();
  personas = await seedPersonas(t);
});
afterAll(async () => {
  await t?.close();
});
const clear = async () => {
  await db().execute(sql`delete from notifications`);
  await db().execute(sql`delete from outbox where channel = 'notification'`);
};
beforeEach(async () => {
  await clear();
  await db().execute(sql`update users set notify_status_changes = true, notify_new_invoices = true`);
});

async function bellOf(p: PersonaAccess): Promise<NotificationList> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/${p.company}/${p.contactId}/notifications`,
    headers: p.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationList;
}
const kindsOf = async (p: PersonaAccess) => (await bellOf(p)).items.map((i) => `${i.kind}:${i.title}`);
const queued = async () =>
  (
    await rows<{ id: number; n: number }>(
      sql`select id, (payload->>'notification')::int as n from outbox where channel = 'notification' order by id`,
    )
  ).map((r) => Number(r.n));

/** Moves acme's ticket `ext` to step `stepExt` as the back office would (no portal actor). */
const moveTicket = (ext: number, stepExt: number) =>
  db().execute(sql`update tickets t set status_step_id = s.id from status_steps s, portals p
    where p.key = 'acme' and t.portal_id = p.id and s.portal_id = p.id and t.ext_id = ${ext} and s.ext_id = ${stepExt}`);

const addInvoice = (companyExt: number, number: string, daysAgo: number) =>
  db()
    .execute(sql`insert into invoices (portal_id, company_id, ext_id, document_number, total, invoice_date, file_id)
    select p.id, c.id, (select coalesce(max(ext_id), 0) + 1 from invoices), ${number}, 10,
      now() - make_interval(days => ${daysAgo}), (select file_id from invoices limit 1)
    from portals p join companies c on c.portal_id = p.id where p.key = 'acme' and c.ext_id = ${companyExt}`);

describe('notifications', () => {
  it('tells the creator of a ticket of a step change, in the bell and by e-mail in their language', async () => {
    await moveTicket(5003, 1);
    await clear();
    await moveTicket(5003, 2);
    expect(await kindsOf(personas.owner)).toEqual(['statusChange:ACME Richiesta di Anna']);
    const bell = await bellOf(personas.owner);
    expect(bell.unread).toBe(1);
    expect(bell.items[0]).toMatchObject({ detail: 'In lavorazione', refId: 5003, read: false });
    // Nobody else: the admin sees the ticket but did not open it.
    expect(await kindsOf(personas.admin)).toEqual([]);
    const [id] = await queued();
    const mail = await renderNotificationMail(t.ctx, id!);
    expect(mail).toMatchObject({ to: 'anna@acme.example' });
    expect(mail!.subject).toBe('[ACME Assistenza] Il ticket «ACME Richiesta di Anna» ha cambiato stato');
    expect(mail!.text).toContain('/acme/102/tickets/5003');
    await db().execute(sql`update users set language = 'es' where user_name = 'anna.verdi'`);
    expect((await renderNotificationMail(t.ctx, id!))!.subject).toContain('ha cambiado de estado');
    await db().execute(sql`update users set language = null where user_name = 'anna.verdi'`);
  });

  it('writes nothing when the change rolls back', async () => {
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`update tickets t set status_step_id = s.id from status_steps s, portals p
          where p.key = 'acme' and t.portal_id = p.id and s.portal_id = p.id and t.ext_id = 5003 and s.ext_id = 3`);
        const mid = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from notifications`);
        expect(Number(mid[0]!.n)).toBe(1); // written inside the change's own transaction
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await kindsOf(personas.owner)).toEqual([]);
    expect(await queued()).toEqual([]);
  });

  it('respects the e-mail switches: the bell still shows, no e-mail is queued', async () => {
    const save = await t.app.inject({
      method: 'PUT',
      url: '/api/acme/102/notifications/preferences',
      headers: personas.owner.headers,
      payload: {
        agentReply: true,
        statusChange: false,
        newDocument: true,
        newInvoice: true,
        signatureRequest: true,
      },
    });
    expect(save.statusCode, save.body).toBe(200);
    await moveTicket(5003, 1);
    expect(await kindsOf(personas.owner)).toEqual(['statusChange:ACME Richiesta di Anna']);
    expect(await queued()).toEqual([]);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/acme/102/notifications/preferences',
      headers: personas.owner.headers,
    });
    expect(read.json()).toMatchObject({ statusChange: false, newInvoice: true });
  });

  it('does not send a queued e-mail whose switch was turned off before it left', async () => {
    await moveTicket(5003, 1);
    await clear();
    await moveTicket(5003, 2);
    const [id] = await queued();
    await db().execute(sql`update users set notify_status_changes = false where user_name = 'anna.verdi'`);
    expect(await renderNotificationMail(t.ctx, id!)).toBeUndefined();
  });

  it('never tells the portal user of their own change, but tells the creator of an admin’s', async () => {
    const close = (p: PersonaAccess) =>
      t.app.inject({
        method: 'POST',
        url: `/api/acme/${p.contactId}/tickets/5003/close`,
        headers: p.headers,
      });
    await moveTicket(5003, 1);
    await db().execute(sql`delete from notifications`);
    expect((await close(personas.owner)).statusCode).toBe(200);
    expect(await kindsOf(personas.owner)).toEqual([]);
    await moveTicket(5003, 1);
    await db().execute(sql`delete from notifications`);
    expect((await close(personas.admin)).statusCode).toBe(200);
    expect(await kindsOf(personas.owner)).toEqual(['statusChange:ACME Richiesta di Anna']);
  });

  it('tells of a new invoice the contacts of its company that see invoices, not older history', async () => {
    await addInvoice(10, 'FT-NEW-1', 0);
    await addInvoice(10, 'FT-OLD-1', 60);
    for (const p of ['owner', 'colleague', 'admin'] as const)
      expect(await kindsOf(personas[p]), p).toEqual(['newInvoice:FT-NEW-1']);
    expect(await kindsOf(personas.noFlag)).toEqual([]);
    expect(await kindsOf(personas.otherCompany)).toEqual([]);
  });

  it('tells a contact of a new document of theirs, and nobody else', async () => {
    const add = (name: string, uploadedBy: 'none' | 'contact') =>
      db()
        .execute(sql`insert into documents (portal_id, company_id, contact_id, ext_id, document_name, create_date, file_id)
        select c.portal_id, c.company_id, c.id, (select coalesce(max(ext_id), 0) + 1 from documents), ${name}, now(),
          (select f.id from files f where f.portal_id = c.portal_id and
            (case when ${uploadedBy} = 'contact' then f.uploaded_by_contact_id is not null else f.uploaded_by_contact_id is null end)
            limit 1)
        from contacts c join portals p on p.id = c.portal_id where p.key = 'acme' and c.ext_id = 102`);
    await add('Verbale.pdf', 'none');
    expect(await kindsOf(personas.owner)).toEqual(['newDocument:Verbale.pdf']);
    expect(await kindsOf(personas.colleague)).toEqual([]);
  });

  it('tells the contact of a document to sign, and of an agent reply in the bell only', async () => {
    await db()
      .execute(sql`insert into signature_requests (portal_id, document_key, contact_id, document_name, file_id)
      select c.portal_id, 'acme-new-key-1234567890', c.id, 'Modulo privacy', (select file_id from signature_requests limit 1)
      from contacts c join portals p on p.id = c.portal_id where p.key = 'acme' and c.ext_id = 102`);
    await db()
      .execute(sql`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, sender_agent_id)
      select t.portal_id, t.id, 990002, '<p>Risolto</p>', now(), (select id from agents where portal_id = t.portal_id limit 1)
      from tickets t join portals p on p.id = t.portal_id where p.key = 'acme' and t.ext_id = 5003`);
    const bell = await bellOf(personas.owner);
    expect(bell.items.map((i) => i.kind)).toEqual(['agentReply', 'signatureRequest']);
    expect(bell.items[1]!.refKey).toBe('acme-new-key-1234567890');
    expect((await queued()).length).toBe(1); // the reply's e-mail is its writer's (comments.mail.ts)
  });

  it('marks read one or all, only the caller’s own', async () => {
    await addInvoice(10, 'FT-A', 0);
    await addInvoice(10, 'FT-B', 0);
    const owner = await bellOf(personas.owner);
    const admin = await bellOf(personas.admin);
    expect(owner.unread).toBe(2);
    const mark = (p: PersonaAccess, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/acme/${p.contactId}/notifications/read`,
        headers: p.headers,
        payload,
      });
    // Another user's ids change nothing.
    expect((await mark(personas.owner, { ids: admin.items.map((i) => i.id) })).json().unread).toBe(2);
    const one = (await mark(personas.owner, { ids: [owner.items[0]!.id] })).json() as NotificationList;
    expect(one.unread).toBe(1);
    expect(one.items.map((i) => i.read)).toEqual([true, false]);
    expect((await mark(personas.owner, { all: true })).json().unread).toBe(0);
    expect((await bellOf(personas.admin)).unread).toBe(2);
    for (const bad of [{}, { ids: [] }, { ids: ['x'] }, { all: false }, { all: true, ids: [] }])
      expect((await mark(personas.owner, bad)).statusCode, JSON.stringify(bad)).toBe(400);
  });
});
