/**
 * Changes one by one through the integration API (a key) and the staff admin API (a staff admin): each
 * change writes its rows only, its event and its audit row in one transaction; bad input of any kind
 * is a 4xx {code, message} that changes nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../../test/harness';
import { seedPersonas } from '../../../test/personas';
import { bearer, tokenFor } from '../../../test/seed';
import { lastEmailTo } from '../../staff/staff.fixture';
import { csvCell } from './audit.service';
import { redact } from './entities.service';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';

let t: TestApp;
let write = '';
let readOnly = '';
let betaKey = '';
let writeKeyId = 0;
let admin: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  ({ t, write, readOnly, betaKey, writeKeyId, admin, agent } = await entityWorld({
    writeKeyName: '=SUM(1+1) back office',
    readOnly: true,
  }));
});
afterAll(async () => {
  await t?.close();
});
const { call, rows, count } = entityHelpers(() => t);

const eventsOf = (type: string) =>
  rows<{ type: string; source: unknown; data: unknown }>(
    sql`select type, source, data from events where type = ${type} order by id`,
  );
const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;

/** Everything a refused request must leave as it was. */
async function snapshot() {
  return {
    audit: await count('audit_log'),
    events: await count('events'),
    companies: await count('companies'),
    contacts: await count('contacts'),
    tickets: await count('tickets'),
    versions: await rows(sql`select company_id, version from company_list_versions order by company_id`),
  };
}

describe('companies', () => {
  it('creates, reads, updates and deletes, each with its event and audit row', async () => {
    const created = await call('POST', `${V1}/companies`, write, { id: 70, companyName: 'Nuova Srl' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 70, companyName: 'Nuova Srl' });
    expect((await call('GET', `${V1}/companies/70`, readOnly)).json()).toEqual({
      id: 70,
      companyName: 'Nuova Srl',
    });

    const updated = await call('PATCH', `${V1}/companies/70`, write, { companyName: 'Nuova Spa' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ id: 70, companyName: 'Nuova Spa' });

    expect((await call('DELETE', `${V1}/companies/70`, write)).statusCode).toBe(204);
    expect((await call('GET', `${V1}/companies/70`, readOnly)).statusCode).toBe(404);

    const [c] = await eventsOf('company.created');
    expect(parse(c!.source)).toEqual({ type: 'api_key', apiKeyId: writeKeyId });
    expect(parse(c!.data)).toEqual({ company: { id: 70, companyName: 'Nuova Srl' } });
    const [u] = await eventsOf('company.updated');
    expect(parse(u!.data)).toEqual({
      company: { id: 70, companyName: 'Nuova Spa' },
      previous: { id: 70, companyName: 'Nuova Srl' },
    });
    expect(await eventsOf('company.deleted')).toHaveLength(1);

    const audit = await rows<Record<string, unknown>>(
      sql`select actor_type, api_key_id, actor_name, entity, entity_id, action, before, after
        from audit_log where entity = 'company' and entity_id = '70' order by id`,
    );
    expect(audit.map((a) => [a.action, parse(a.before ?? 'null'), parse(a.after ?? 'null')])).toEqual([
      ['created', null, { id: 70, companyName: 'Nuova Srl' }],
      ['updated', { id: 70, companyName: 'Nuova Srl' }, { id: 70, companyName: 'Nuova Spa' }],
      ['deleted', { id: 70, companyName: 'Nuova Spa' }, null],
    ]);
    expect(audit[0]).toMatchObject({
      actor_type: 'api_key',
      api_key_id: writeKeyId,
      actor_name: '=SUM(1+1) back office',
    });
  });

  it('numbers a company created without an id, and refuses a taken id with 409', async () => {
    const res = await call('POST', `${ADMIN}/companies`, admin, { companyName: 'Dal desk' });
    expect(res.statusCode).toBe(201);
    expect(res.json().id).toBeGreaterThan(20);
    const before = await snapshot();
    const taken = await call('POST', `${V1}/companies`, write, { id: 10, companyName: 'Doppia' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('entity_exists');
    expect(await snapshot()).toEqual(before);
  });

  it('writes nothing, and records nothing, when an update changes no value', async () => {
    const before = await snapshot();
    const res = await call('PATCH', `${V1}/companies/10`, write, { companyName: 'ACME Contoso Srl' });
    expect(res.statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to delete a company that still holds contacts or tickets', async () => {
    const before = await snapshot();
    const res = await call('DELETE', `${V1}/companies/10`, write);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'entity_in_use' });
    expect(await snapshot()).toEqual(before);
  });

  it("keeps each key in its portal: another portal's key does not see or change acme's rows", async () => {
    await call('POST', `${V1}/companies`, write, { id: 71, companyName: 'Solo ACME' });
    expect((await call('GET', `${V1}/companies/71`, betaKey)).statusCode).toBe(404);
    const res = await call('PATCH', `${V1}/companies/71`, betaKey, { companyName: 'Presa' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('entity_not_found');
    expect((await call('GET', `${V1}/companies/71`, readOnly)).json().companyName).toBe('Solo ACME');
  });
});

describe('contacts', () => {
  it('creates a contact with its flags; an update of one flag keeps the others', async () => {
    const res = await call('POST', `${V1}/contacts`, write, {
      contactId: 150,
      companyId: 10,
      referentName: 'Nuovo Contatto',
      email: 'nuovo@acme.example',
      permissions: { manageTickets: true, viewContactInvoices: true },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      contactId: 150,
      companyId: 10,
      phone: null,
      permissions: { manageTickets: true, viewContactInvoices: true, administrator: false },
    });
    const up = await call('PATCH', `${ADMIN}/contacts/150`, admin, {
      permissions: { administrator: true },
      phone: '+39 333 000000',
    });
    expect(up.statusCode).toBe(200);
    expect(up.json().permissions).toMatchObject({
      manageTickets: true,
      viewContactInvoices: true,
      administrator: true,
      viewEstimates: false,
    });
    const [a] = await rows<Record<string, unknown>>(
      sql`select actor_type, staff_user_id, actor_name from audit_log
        where entity = 'contact' and entity_id = '150' and action = 'updated'`,
    );
    expect(a).toMatchObject({ actor_type: 'staff', actor_name: 'boss@acme.example' });
    const [e] = await eventsOf('contact.updated');
    expect(parse(e!.source)).toMatchObject({ type: 'staff' });
  });

  it('answers 422 unknown_reference for an unknown company and changes nothing', async () => {
    const before = await snapshot();
    const res = await call('POST', `${V1}/contacts`, write, {
      companyId: 999,
      referentName: 'Orfano',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'unknown_reference' });
    expect(res.json().message).toContain('companyId');
    const moved = await call('PATCH', `${V1}/contacts/101`, write, { companyId: 999 });
    expect(moved.statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
  });

  it('deletes a contact; its users lose it and their sessions end', async () => {
    await call('POST', `${V1}/contacts`, write, { contactId: 151, companyId: 20, referentName: 'Via' });
    expect((await call('DELETE', `${V1}/contacts/151`, write)).statusCode).toBe(204);
    expect(await count('contacts', `ext_id = 151`)).toBe(0);
    // A contact with documents keeps them: refused.
    const withDocs = await call('DELETE', `${V1}/contacts/101`, write);
    expect(withDocs.statusCode).toBe(409);
    expect(withDocs.json().code).toBe('entity_in_use');
  });
});

describe('tickets', () => {
  it('changes step, assignee, group, type and next activity, keeping the conversation', async () => {
    const comments = await count('ticket_comments');
    const res = await call('PATCH', `${V1}/tickets/5003`, write, {
      statusStepId: 1,
      assignedUserId: 1,
      assignedGroupId: 1,
      taskTypeId: 1,
      nextPlannedActivityInfo: 'Sopralluogo lunedì',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: 5003,
      statusStepId: 1,
      assignedUserId: 1,
      assignedGroupId: 1,
      taskTypeId: 1,
      nextPlannedActivityInfo: 'Sopralluogo lunedì',
    });
    expect(await count('ticket_comments')).toBe(comments);
    const [e] = await eventsOf('ticket.updated');
    expect(parse(e!.data)).toMatchObject({
      ticket: { id: 5003, statusStepId: 1, assignedUserId: 1, nextPlannedActivityInfo: 'Sopralluogo lunedì' },
      previousStatusStepId: 2,
    });
  });

  it('writes an everyday change by row id: the answer is what is stored; unknown references 422', async () => {
    const res = await call('PATCH', `${V1}/tickets/5002`, write, {
      title: 'Stampante ferma',
      assignedUserId: null,
      statusStepId: 3,
    });
    expect(res.statusCode).toBe(200);
    expect((await call('GET', `${V1}/tickets/5002`, readOnly)).json()).toEqual(res.json());
    // A change naming nothing of the portal writes nothing, and says which field.
    const before = { ...(await snapshot()), ticket: res.json() };
    for (const [field, value] of [
      ['statusStepId', 77],
      ['assignedUserId', 77],
      ['assignedGroupId', 77],
      ['taskTypeId', 77],
    ] as const) {
      const bad = await call('PATCH', `${V1}/tickets/5002`, write, { title: 'Mai scritto', [field]: value });
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ code: 'unknown_reference' });
      expect(bad.json().message).toContain(field);
    }
    // The same values again: nothing to write, no event, no audit row.
    const same = await call('PATCH', `${V1}/tickets/5002`, write, {
      title: 'Stampante ferma',
      statusStepId: 3,
    });
    expect(same.json()).toEqual(res.json());
    expect({
      ...(await snapshot()),
      ticket: (await call('GET', `${V1}/tickets/5002`, readOnly)).json(),
    }).toEqual(before);
  });

  it('names the key or the staff admin as the author in the ticket timeline', async () => {
    await call('PATCH', `${V1}/tickets/5001`, write, { statusStepId: 2 });
    await call('PATCH', `${ADMIN}/tickets/5001`, admin, { assignedGroupId: null });
    const changes = await rows<{ kind: string; actor_kind: string; actor_id: number; actor_name: string }>(
      sql`select ch.kind, ch.actor_kind, ch.actor_id, ch.actor_name from ticket_changes ch
        join tickets t on t.id = ch.ticket_id join portals p on p.id = t.portal_id
        where p.key = 'acme' and t.ext_id = 5001 order by ch.id`,
    );
    expect(changes.map((c) => [c.kind, c.actor_kind, c.actor_name])).toEqual([
      ['step', 'api_key', '=SUM(1+1) back office'],
      ['group', 'staff', expect.stringMatching(/./)],
    ]);
    expect(changes[0]!.actor_id).toBe(writeKeyId);
    const [e] = (await eventsOf('ticket.updated')).filter(
      (x) => (parse(x.source) as { type: string }).type === 'staff',
    );
    expect(parse(e!.source)).toMatchObject({ type: 'staff', userName: expect.stringMatching(/./) });
  });

  it("moves only the changed company's list version", async () => {
    const v = async () =>
      Object.fromEntries(
        (
          await rows<{ ext: number; version: number }>(
            sql`select co.ext_id as ext, v.version from company_list_versions v
              join companies co on co.id = v.company_id join portals p on p.id = co.portal_id
              where p.key = 'acme' and co.ext_id in (10, 20)`,
          )
        ).map((r) => [Number(r.ext), Number(r.version)]),
      );
    const before = await v();
    const res = await call('PATCH', `${V1}/tickets/5003`, write, { title: 'Titolo nuovo' });
    expect(res.statusCode).toBe(200);
    const after = await v();
    expect(after[10]).toBeGreaterThan(before[10] ?? 0);
    expect(after[20]).toBe(before[20]);
  });

  it('creates a ticket (the portal numbers it) with a sanitised description, and deletes it', async () => {
    const res = await call('POST', `${ADMIN}/tickets`, admin, {
      companyId: 20,
      title: 'Dal desk',
      description: '<p>ok</p><script>alert(1)</script>',
      taskTypeId: 1,
      statusStepId: 1,
      creatorContactId: 201,
    });
    expect(res.statusCode).toBe(201);
    const tk = res.json();
    expect(tk.description).toBe('<p>ok</p>');
    expect(tk.id).toBeGreaterThan(6001);
    const [e] = (await eventsOf('ticket.created')).filter(
      (x) => (parse(x.data).ticket as { id: number }).id === tk.id,
    );
    expect(parse(e!.source)).toMatchObject({ type: 'staff' });
    expect((await call('DELETE', `${ADMIN}/tickets/${tk.id}`, admin)).statusCode).toBe(204);
    expect(await eventsOf('ticket.deleted')).toHaveLength(1);
  });

  it('answers 422 naming the field for each unknown reference, 404 for an unknown ticket', async () => {
    const before = await snapshot();
    for (const [field, value] of [
      ['statusStepId', 99],
      ['taskTypeId', 99],
      ['assignedUserId', 99],
      ['assignedGroupId', 99],
      ['wikiElementId', 99],
      // A contact of another company is unknown to this ticket.
      ['creatorContactId', 201],
    ] as const) {
      const res = await call('PATCH', `${V1}/tickets/5003`, write, { [field]: value });
      expect(res.statusCode, field).toBe(422);
      expect(res.json(), field).toMatchObject({ code: 'unknown_reference' });
      expect(res.json().message, field).toContain(field);
    }
    const gone = await call('PATCH', `${V1}/tickets/424242`, write, { title: 'x' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('entity_not_found');
    const blank = await call('PATCH', `${V1}/tickets/5003`, write, { title: '   ' });
    expect(blank.statusCode).toBe(400);
    const badDate = await call('PATCH', `${V1}/tickets/5003`, write, { createdOn: '2026-02-30' });
    expect(badDate.statusCode).toBe(400);
    const extra = await call('PATCH', `${V1}/tickets/5003`, write, { comments: [] });
    expect(extra.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('users', () => {
  const openLinks = (name: string, purpose: string) =>
    count(
      'user_tokens t join users u on u.id = t.user_id',
      `lower(u.user_name) = '${name}' and t.purpose = '${purpose}' and t.used_at is null`,
    );

  it('invites a person by e-mail to contacts of the portal, resends and revokes the invitation', async () => {
    const res = await call('POST', `${V1}/users`, write, {
      userName: 'nuova.persona',
      email: 'nuova@acme.example',
      contactIds: [102, 104],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      userName: 'nuova.persona',
      email: 'nuova@acme.example',
      contactIds: [102, 104],
      status: 'invited',
      invitationPending: true,
    });
    const mail = await lastEmailTo(t, 'nuova@acme.example');
    expect(mail?.text).toMatch(/\/confirm\?token=[^&\s]+&company=acme/);
    expect(await eventsOf('user.invited')).toHaveLength(1);

    const again = await call('POST', `${ADMIN}/users/Nuova.Persona/invitation`, admin);
    expect(again.statusCode).toBe(200);
    expect(await openLinks('nuova.persona', 'invite')).toBe(1);
    const second = await lastEmailTo(t, 'nuova@acme.example');
    expect(second?.text).not.toBe(mail?.text);

    const revoked = await call('DELETE', `${V1}/users/nuova.persona/invitation`, write);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().invitationPending).toBe(false);
    expect(await openLinks('nuova.persona', 'invite')).toBe(0);
    // Nothing open any more: a second revocation changes and records nothing.
    const audit = await count('audit_log', `entity = 'user'`);
    expect((await call('DELETE', `${V1}/users/nuova.persona/invitation`, write)).statusCode).toBe(200);
    expect(await count('audit_log', `entity = 'user'`)).toBe(audit);
    expect(
      (
        await rows<{ action: string }>(
          sql`select action from audit_log where entity = 'user' and entity_id = 'nuova.persona' order by id`,
        )
      ).map((r) => r.action),
    ).toEqual(['invited', 'invited', 'invitation_revoked']);
  });

  it('refuses a taken name (409), an unknown contact (422) and an active user’s invitation (409)', async () => {
    const before = await snapshot();
    const taken = await call('POST', `${V1}/users`, write, {
      userName: 'ANNA.VERDI',
      email: 'x@acme.example',
      contactIds: [102],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('entity_exists');
    const unknown = await call('POST', `${V1}/users`, write, {
      userName: 'orfano',
      email: 'orfano@acme.example',
      contactIds: [102, 999],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'unknown_reference' });
    expect(await count('users', `user_name = 'orfano'`)).toBe(0);
    const active = await call('POST', `${V1}/users/anna.verdi/invitation`, write);
    expect(active.statusCode).toBe(409);
    expect(active.json().code).toBe('user_already_active');
    const bad = await call('POST', `${V1}/users`, write, {
      userName: 'con spazio',
      email: 'x',
      contactIds: [],
    });
    expect(bad.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('shows a user only to the portals of its contacts', async () => {
    expect((await call('GET', `${V1}/users/anna.verdi`, readOnly)).json().contactIds).toEqual([102]);
    expect((await call('GET', `${V1}/users/beta.anna`, readOnly)).statusCode).toBe(404);
    expect((await call('POST', `${V1}/users/beta.anna/deactivate`, write)).statusCode).toBe(404);
  });

  it('sends a password-reset link', async () => {
    const res = await call('POST', `${ADMIN}/users/mario.rossi/password-reset`, admin);
    expect(res.statusCode).toBe(200);
    const mail = await lastEmailTo(t, 'mario@acme.example');
    expect(mail?.text).toMatch(/\/confirm\?token=[^&\s]+&company=acme/);
    expect(await openLinks('mario.rossi', 'recovery')).toBe(1);
    await call('POST', `${ADMIN}/users/mario.rossi/password-reset`, admin);
    expect(await openLinks('mario.rossi', 'recovery')).toBe(1);
    expect(await eventsOf('user.password_reset_sent')).toHaveLength(2);
  });

  it('deactivates a user: out of the portal, and its sessions end at once', async () => {
    const token = await tokenFor(t, 'giulia.blu');
    const tickets = () =>
      t.app.inject({ method: 'GET', url: '/api/acme/201/tickets', headers: bearer(token) });
    expect((await tickets()).statusCode).toBe(200);
    const res = await call('POST', `${V1}/users/giulia.blu/deactivate`, write);
    expect(res.statusCode).toBe(200);
    expect(res.json().contactIds).toEqual([]);
    expect((await tickets()).statusCode).toBe(401);
    expect((await call('GET', `${V1}/users/giulia.blu`, readOnly)).statusCode).toBe(404);
    const [e] = await eventsOf('user.deactivated');
    expect(parse(e!.data)).toMatchObject({ user: { userName: 'giulia.blu' } });
  });
});

describe('invoices and estimates', () => {
  const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`).toString('base64');

  it('creates an invoice with its PDF, changes it with or without new bytes, deletes it', async () => {
    const res = await call('POST', `${V1}/invoices`, write, {
      id: 9100,
      companyId: 10,
      documentNumber: 'FT-2026/100',
      total: 1220.5,
      invoiceDate: '2026-11-01',
      document: { name: 'ft-100.pdf', contentType: 'application/pdf', base64: pdf('uno') },
    });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv).toMatchObject({
      id: 9100,
      companyId: 10,
      total: 1220.5,
      // A day is midnight in the portal's time zone (Europe/Rome).
      invoiceDate: '2026-10-31T23:00:00.000Z',
      file: { name: 'ft-100.pdf', contentType: 'application/pdf' },
    });
    const bytes = await call('GET', `${V1}/files/${inv.file.id}`, readOnly);
    expect(bytes.body).toContain('% uno');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/invoices',
      headers: bearer(await tokenFor(t, 'mario.rossi')),
    });
    expect(list.body).toContain('FT-2026/100');

    const total = await call('PATCH', `${V1}/invoices/9100`, write, { total: 99 });
    expect(total.json()).toMatchObject({ total: 99, file: { id: inv.file.id } });
    const file = await call('PATCH', `${ADMIN}/invoices/9100`, admin, {
      document: { name: 'ft-100-bis.pdf', base64: pdf('due') },
    });
    expect(file.statusCode).toBe(200);
    expect(file.json().file.id).not.toBe(inv.file.id);
    expect(file.json().file.name).toBe('ft-100-bis.pdf');
    const [e] = await eventsOf('invoice.updated');
    expect(parse(e!.data)).toMatchObject({ invoice: { id: 9100, total: 99 }, previous: { total: 1220.5 } });
    expect((await call('DELETE', `${V1}/invoices/9100`, write)).statusCode).toBe(204);
    expect((await call('GET', `${V1}/invoices/9100`, readOnly)).statusCode).toBe(404);
  });

  it('carries an invoice’s payment: due, then paid, as the customer sees it', async () => {
    const made = await call('POST', `${V1}/invoices`, write, {
      id: 9101,
      companyId: 10,
      documentNumber: 'FT-2026/101',
      total: 50,
      invoiceDate: '2026-11-01',
      dueDate: '2026-12-01',
      document: { name: 'ft-101.pdf', contentType: 'application/pdf', base64: pdf('pay') },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ dueDate: '2026-11-30T23:00:00.000Z', paidDate: null });
    const mine = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/acme/101/invoices',
        headers: bearer(await tokenFor(t, 'mario.rossi')),
      });
      return (res.json() as { id: number; payment: string | null }[]).find((i) => i.id === 9101);
    };
    expect(await mine()).toMatchObject({ payment: 'due' });
    const paid = await call('PATCH', `${V1}/invoices/9101`, write, { paidDate: '2026-11-15' });
    expect(paid.json()).toMatchObject({ paidDate: '2026-11-14T23:00:00.000Z' });
    const updates = (await eventsOf('invoice.updated')).map((e) => parse(e.data));
    expect(updates.find((d) => (d.invoice as { id: number }).id === 9101)).toMatchObject({
      previous: { paidDate: null },
    });
    expect(await mine()).toMatchObject({ payment: 'paid' });
    expect((await call('PATCH', `${V1}/invoices/9101`, write, { dueDate: '10000-01-01' })).statusCode).toBe(
      400,
    );
    expect((await call('DELETE', `${V1}/invoices/9101`, write)).statusCode).toBe(204);
  });

  it('creates and deletes an estimate, numbered by the portal', async () => {
    const res = await call('POST', `${ADMIN}/estimates`, admin, {
      companyId: 20,
      estimateName: 'Impianto',
      estimateNumber: 'P-7',
      total: 10,
      estimateCreationDate: '2026-10-02',
      document: { name: 'p7.pdf', base64: pdf('p7') },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ companyId: 20, revisionNumber: 0, file: { name: 'p7.pdf' } });
    expect(await eventsOf('estimate.created')).toHaveLength(1);
    expect((await call('DELETE', `${ADMIN}/estimates/${res.json().id}`, admin)).statusCode).toBe(204);
  });

  it("adds a contact's document the contact then sees, numbered after the portal's uploads", async () => {
    const res = await call('POST', `${ADMIN}/documents`, admin, {
      companyId: 10,
      contactId: 101,
      documentName: 'Contratto firmato',
      createDate: '2026-11-02',
      file: { name: 'contratto.pdf', base64: pdf('contratto') },
    });
    expect(res.statusCode).toBe(201);
    const doc = res.json();
    expect(doc).toMatchObject({ companyId: 10, contactId: 101, file: { name: 'contratto.pdf' } });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/documents',
      headers: bearer(await tokenFor(t, 'mario.rossi')),
    });
    expect(list.body).toContain('Contratto firmato');
    // A contact of another company is not this document's.
    const wrong = await call('PATCH', `${V1}/documents/${doc.id}`, write, { contactId: 201 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toContain('contactId');
    const renamed = await call('PATCH', `${V1}/documents/${doc.id}`, write, {
      documentName: 'Contratto 2026',
    });
    expect(renamed.json()).toMatchObject({ documentName: 'Contratto 2026', file: { id: doc.file.id } });
    expect((await eventsOf('document.updated')).length).toBe(1);
    expect((await call('DELETE', `${V1}/documents/${doc.id}`, write)).statusCode).toBe(204);
  });

  it('adds an activity report linked to a ticket of its company, and refuses a ticket of another', async () => {
    const res = await call('POST', `${V1}/reports`, write, {
      companyId: 10,
      name: 'Intervento 12/11',
      dateTime: '2026-11-12T09:30:00Z',
      taskId: 5003,
      document: { name: 'rapportino.pdf', base64: pdf('rapportino') },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ companyId: 10, taskId: 5003, dateTime: '2026-11-12T09:30:00.000Z' });
    const other = await call('PATCH', `${V1}/reports/${res.json().id}`, write, { taskId: 6001 });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toContain('taskId');
    const unlinked = await call('PATCH', `${ADMIN}/reports/${res.json().id}`, admin, { taskId: null });
    expect(unlinked.json()).toMatchObject({ taskId: null, file: { id: res.json().file.id } });
    expect(await eventsOf('report.created')).toHaveLength(1);
  });

  it('refuses an unknown company with 422 and keeps neither row nor bytes', async () => {
    const before = { ...(await snapshot()), files: await count('files'), blobs: await count('blobs') };
    const res = await call('POST', `${V1}/invoices`, write, {
      companyId: 999,
      documentNumber: 'X',
      total: 1,
      invoiceDate: '2026-11-01',
      document: { name: 'x.pdf', base64: pdf('orfano') },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('unknown_reference');
    const noFile = await call('POST', `${V1}/invoices`, write, {
      companyId: 10,
      documentNumber: 'X',
      total: 1,
      invoiceDate: '2026-11-01',
    });
    expect(noFile.statusCode).toBe(400);
    expect({ ...(await snapshot()), files: await count('files'), blobs: await count('blobs') }).toEqual(
      before,
    );
  });
});

describe('integration API rules', () => {
  it('replays a POST with the same Idempotency-Key and refuses the key with another body', async () => {
    const h = { 'idempotency-key': 'create-company-72' };
    const first = await call('POST', `${V1}/companies`, write, { id: 72, companyName: 'Una volta' }, h);
    expect(first.statusCode).toBe(201);
    const again = await call('POST', `${V1}/companies`, write, { id: 72, companyName: 'Una volta' }, h);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await count('audit_log', `entity = 'company' and entity_id = '72'`)).toBe(1);
    const other = await call('POST', `${V1}/companies`, write, { id: 73, companyName: 'Altra' }, h);
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
  });

  it('needs the write scope to change and the read scope to read', async () => {
    const res = await call('POST', `${V1}/companies`, readOnly, { companyName: 'No' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('missing_scope');
  });

  it('refuses an agent every admin action', async () => {
    const res = await call('POST', `${ADMIN}/companies`, agent, { companyName: 'No' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('admin_required');
    expect((await call('GET', `${ADMIN}/audit-log`, agent)).statusCode).toBe(403);
  });
});

describe('audit log', () => {
  it('lists newest first with filters and keyset pages', async () => {
    const all = (await call('GET', `${ADMIN}/audit-log?limit=200`, admin)).json();
    expect(all.items.length).toBeGreaterThan(5);
    const ids = all.items.map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

    const first = (await call('GET', `${ADMIN}/audit-log?limit=2`, admin)).json();
    expect(first.items).toHaveLength(2);
    const second = (await call('GET', `${ADMIN}/audit-log?limit=2&cursor=${first.nextCursor}`, admin)).json();
    expect(second.items.map((i: { id: number }) => i.id)).toEqual(ids.slice(2, 4));

    const byEntity = (
      await call('GET', `${ADMIN}/audit-log?entity=company&entityId=70&action=updated`, admin)
    ).json();
    expect(byEntity.items).toHaveLength(1);
    expect(byEntity.items[0]).toMatchObject({
      entity: 'company',
      entityId: '70',
      action: 'updated',
      actor: { type: 'api_key', id: writeKeyId, name: '=SUM(1+1) back office' },
    });
    const byStaff = (await call('GET', `${ADMIN}/audit-log?actorType=staff`, admin)).json();
    expect(byStaff.items.length).toBeGreaterThan(0);
    expect(byStaff.items.every((i: { actor: { type: string } }) => i.actor.type === 'staff')).toBe(true);
    const byKey = (await call('GET', `${ADMIN}/audit-log?apiKeyId=${writeKeyId}&limit=200`, admin)).json();
    expect(byKey.items.every((i: { actor: { id: number } }) => i.actor.id === writeKeyId)).toBe(true);
    const future = (await call('GET', `${ADMIN}/audit-log?from=2030-01-01T00:00:00Z`, admin)).json();
    expect(future.items).toEqual([]);
    const bad = await call('GET', `${ADMIN}/audit-log?cursor=abc`, admin);
    expect(bad.statusCode).toBe(400);
    const backwards = await call(
      'GET',
      `${ADMIN}/audit-log?from=2026-12-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      admin,
    );
    expect(backwards.statusCode).toBe(400);
  });

  it('exports CSV with formula-looking cells made inert', async () => {
    const res = await call('GET', `${ADMIN}/audit-log.csv?entity=company`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,occurredAt,actorType,actorId,actorName,entity,entityId,action,before,after');
    const listed = (await call('GET', `${ADMIN}/audit-log?entity=company&limit=200`, admin)).json();
    expect(lines).toHaveLength(listed.items.length + 1);
    expect(res.body).toContain(`,'=SUM(1+1) back office,`);
    expect(res.body).not.toMatch(/,=SUM/);
  });

  it('escapes every formula trigger and quotes separators', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('=a,"b"')).toBe(`"'=a,""b"""`);
    expect(csvCell(null)).toBe('');
    expect(csvCell('plain')).toBe('plain');
  });

  it('redacts secret-looking values at any depth', () => {
    expect(redact({ a: 1, password: 'x', nested: [{ tokenHash: 'y', ok: 'z' }] })).toEqual({
      a: 1,
      password: '[redacted]',
      nested: [{ tokenHash: '[redacted]', ok: 'z' }],
    });
  });
});

describe('upload limit', () => {
  it('answers 413 for a file above MAX_UPLOAD_MB and keeps nothing', async () => {
    const small = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
    try {
      await seedPersonas(small);
      const key = (
        await small.app.inject({
          method: 'POST',
          url: '/api/admin/portals/acme/keys',
          headers: bearer(TEST_ADMIN_KEY),
          payload: { name: 'w', scopes: ['write'] },
        })
      ).json().secret as string;
      const invoices = async () =>
        (
          (await small.ctx.database.db.execute(sql`select count(*)::int as n from invoices`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]!.n;
      const before = await invoices();
      const res = await small.app.inject({
        method: 'POST',
        url: `${V1}/invoices`,
        headers: bearer(key),
        payload: {
          companyId: 10,
          documentNumber: 'Grande',
          total: 1,
          invoiceDate: '2026-11-01',
          document: { name: 'big.pdf', base64: Buffer.alloc(1024 * 1024 + 10).toString('base64') },
        },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('payload_too_large');
      expect(await invoices()).toBe(before);
    } finally {
      await small.close();
    }
  });
});
