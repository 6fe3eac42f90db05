import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { TicketComment, TicketDetail, TicketListItem } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/sql-json';
import { createTestApp, localFiles, type TestApp } from '../../test/harness';
import { bearer, tokenFor } from '../../test/seed';
import { multipartFile, seedPersonas, type Persona, type PersonaAccess } from '../../test/personas';

let t: TestApp;
let p: Record<Persona, PersonaAccess>;

beforeAll(async () => {
  t = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
  p = await seedPersonas(t, (doc) => {
    // One user holding contact id 101 in both portals: the colleagues call must ask which one.
    doc.users.push({
      userName: 'double.holder',
      email: 'double@acme.example',
      contacts: [
        { webPortalKey: 'acme', contactId: 101 },
        { webPortalKey: 'beta', contactId: 101 },
      ],
    });
  });
});
afterAll(async () => {
  await t?.close();
});

const as = (who: Persona) => p[who].headers;
const get = (who: Persona, path: string) =>
  t.app.inject({ method: 'GET', url: `/api/acme/${p[who].contactId}${path}`, headers: as(who) });
const post = (who: Persona, path: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/acme/${p[who].contactId}${path}`, headers: as(who), payload });
const upload = (who: Persona, path: string, name: string, bytes: Buffer | string, type = 'text/plain') => {
  const m = multipartFile(name, bytes, type);
  return t.app.inject({
    method: 'POST',
    url: `/api/acme/${p[who].contactId}${path}`,
    headers: { ...as(who), ...m.headers },
    payload: m.payload,
  });
};
const count = async (table: string) =>
  Number(
    (
      await queryRows<{ n: number }>(t.ctx.database.db, sql.raw(`select count(*)::int as n from ${table}`))
    )[0]!.n,
  );
const userId = async (userName: string) =>
  Number(
    (
      await queryRows<{ id: number }>(
        t.ctx.database.db,
        sql`select id from users where user_name = ${userName}`,
      )
    )[0]!.id,
  );
const ids = (list: TicketListItem[]) => list.map((x) => x.id);

describe('my tickets and all tickets', () => {
  it('lists the contact’s own tickets, newest first, with the A3 fields', async () => {
    const res = await get('admin', '/tickets');
    expect(res.statusCode).toBe(200);
    const list = res.json() as TicketListItem[];
    expect(ids(list)).toEqual([5001, 5002]);
    expect(list[0]).toMatchObject({
      id: 5001,
      title: 'ACME Stampante non funziona',
      ticketNumber: '2026/0012',
      internalAnnualProgressive: 12,
      createdOn: '2026-10-12T00:00:00.000Z',
      taskType: { id: 1, name: 'ACME Guasto', color: '#d32f2f' },
      taskStatus: { step: { name: 'Nuovo', taskStatus: 0 } },
      nextPlannedActivityInfo: 'Intervento previsto',
      creatorContactWebUser: { referentName: 'ACME Mario Rossi', companyName: 'ACME Contoso Srl' },
      activityReport: { id: 1, name: 'ACME Rapportino 1', dateTime: '2026-10-13T00:00:00.000Z' },
      wikiElement: { id: 100, name: 'ACME-SRV-01' },
    });
    expect(list[1]!.taskStatus.step.taskStatus).toBe(2);
    const doc = await t.app.inject({ method: 'GET', url: list[0]!.activityReport!.documentUrl });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
  });

  it('omits report links for a contact without viewContactActivityReports', async () => {
    await t.ctx.database.db.execute(
      sql`update contacts set view_contact_activity_reports = false where ext_id = 101
        and portal_id = (select id from portals where key = 'acme')`,
    );
    try {
      const list = (await get('admin', '/tickets')).json() as TicketListItem[];
      expect(list.map((x) => x.activityReport)).toEqual([null, null]);
    } finally {
      await t.ctx.database.db.execute(
        sql`update contacts set view_contact_activity_reports = true where ext_id = 101
          and portal_id = (select id from portals where key = 'acme')`,
      );
    }
  });

  it('all tickets: every ticket of the company, agent-created ones without creator', async () => {
    const list = (await get('admin', '/tickets/all')).json() as TicketListItem[];
    expect(ids(list)).toEqual([5004, 5003, 5001, 5002]);
    expect(list[0]!.creatorContactWebUser).toBeNull();
    expect(list[1]!.creatorContactWebUser?.referentName).toBe('ACME Anna Verdi');
  });

  it('all tickets: webUserIds keeps the tickets created by those users’ contacts', async () => {
    const anna = await userId('anna.verdi');
    const mario = await userId('mario.rossi');
    expect(ids((await get('admin', `/tickets/all?webUserIds=${anna}`)).json())).toEqual([5003]);
    expect(ids((await get('admin', `/tickets/all?webUserIds=${anna}, ${mario}`)).json())).toEqual([
      5003, 5001, 5002,
    ]);
    // A user of the other portal holds a contact with the same id, yet reaches nothing here.
    const beta = await userId('beta.anna');
    expect((await get('admin', `/tickets/all?webUserIds=${beta}`)).json()).toEqual([]);
    for (const bad of ['abc', '1,,2', '1;2', '-1', '99999999999999999999']) {
      const res = await get('admin', `/tickets/all?webUserIds=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code, bad).toBeTypeOf('string');
    }
  });

  it('wikiFilter keeps tickets linked to that asset, and needs viewContactWiki', async () => {
    expect(ids((await get('admin', '/tickets?wikiFilter=100')).json())).toEqual([5001]);
    expect(ids((await get('admin', '/tickets/all?wikiFilter=102')).json())).toEqual([5003]);
    // An element of the other portal with the same id does not widen anything.
    expect(ids((await get('admin', '/tickets?wikiFilter=999')).json())).toEqual([]);
    expect((await get('admin', '/tickets?wikiFilter=x')).statusCode).toBe(400);
  });

  it('from/to are days of the portal time zone; to may carry HH:mm', async () => {
    // 2026-11-19T23:30Z is 00:30 on 20 November in Rome.
    t.clock.set('2026-11-19T23:30:00Z');
    const created = await post('owner', '/tickets', { title: 'Late', taskTypeId: 2, description: 'x' });
    t.clock.set('2026-11-20T10:00:00Z');
    expect(created.statusCode).toBe(201);
    const id = (created.json() as TicketDetail).id;
    const has = async (q: string) => ids((await get('owner', `/tickets?${q}`)).json()).includes(id);
    expect(await has('from=2026-11-20')).toBe(true);
    expect(await has('from=2026-11-21')).toBe(false);
    expect(await has('to=2026-11-19')).toBe(false);
    expect(await has('to=2026-11-20')).toBe(true);
    expect(await has(`to=${encodeURIComponent('2026-11-20 00:30')}`)).toBe(true);
    expect(await has(`to=${encodeURIComponent('2026-11-20 00:29')}`)).toBe(false);
    expect(await has('from=2026-11-20&to=2026-11-20')).toBe(true);
    for (const bad of ['from=2026-02-30', 'from=20261120', 'to=2026-11-20 25:00', 'to=yesterday']) {
      const res = await get('owner', `/tickets?${bad.replace(' ', '%20')}`);
      expect(res.statusCode, bad).toBe(400);
      expect(Object.keys(res.json())).toEqual(expect.arrayContaining(['code', 'message']));
    }
  });
});

describe('ticket detail', () => {
  it('has description, assignees, report, attachments and the conversation', async () => {
    const res = await get('admin', '/tickets/5001');
    expect(res.statusCode).toBe(200);
    const d = res.json() as TicketDetail;
    expect(d).toMatchObject({
      id: 5001,
      description: '<p>La stampante <b>non</b> stampa.</p>',
      assignedGroup: { name: 'ACME Helpdesk' },
      assignedUser: { firstName: 'Luca', lastName: 'Bianchi' },
      isClosed: false,
      activityReport: { id: 1 },
    });
    expect(d.comments.map((c) => c.id)).toEqual([1, 2]);
    const [agent, contact] = d.comments as [TicketComment, TicketComment];
    expect(agent.senderContactWebUser).toBeNull();
    expect(agent.senderUser).toEqual({
      displayName: 'ACME Agent Luca',
      hasProfileImage: false,
      profileImage: null,
    });
    expect(agent.attachments.map((a) => a.name)).toEqual([
      'schermata.png',
      'verbale-di-intervento-lungo.pdf',
    ]);
    expect(contact.senderUser).toBeNull();
    expect(contact.senderContactWebUser).toEqual({
      webUser: { id: await userId('mario.rossi'), userName: 'mario.rossi' },
      referentName: 'ACME Mario Rossi',
    });
    const file = await t.app.inject({ method: 'GET', url: agent.attachments[0]!.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  });

  it('is 404 for a ticket of a colleague, of another company or of nobody', async () => {
    for (const [who, id] of [
      ['colleague', 5003],
      ['owner', 5001],
      ['owner', 6001],
      ['owner', 424242],
    ] as const) {
      const res = await get(who, `/tickets/${id}`);
      expect(res.statusCode, `${who} ${id}`).toBe(404);
      expect(res.json().code).toBe('ticket_not_found');
    }
    expect((await get('owner', '/tickets/abc')).statusCode).toBe(400);
  });
});

describe('new tickets', () => {
  const valid = { title: 'Printer', taskTypeId: 1, description: '<p>Broken</p>', wikiElementId: 100 };

  it('creates the ticket at the default step with the next numbers of the portal', async () => {
    const res = await post('owner', '/tickets', valid);
    expect(res.statusCode).toBe(201);
    const d = res.json() as TicketDetail;
    expect(d.id).toBeGreaterThan(6001);
    expect(d).toMatchObject({
      title: 'Printer',
      description: '<p>Broken</p>',
      taskType: { id: 1 },
      taskStatus: { step: { name: 'Nuovo', taskStatus: 0 } },
      creatorContactWebUser: { contactId: 102, referentName: 'ACME Anna Verdi' },
      wikiElement: { id: 100 },
      createdOn: t.clock.now().toISOString(),
      comments: [],
    });
    // In the back office's format, continuing its count: the fixture's tickets read `2026/0099`.
    expect(d.ticketNumber).toBe(`2026/0${d.internalAnnualProgressive}`);
    expect(d.internalAnnualProgressive).toBeGreaterThan(99);
    // The customer's confirmation, queued with the ticket, in their language (the portal's: Italian).
    const [mail] = await queryRows<{ payload: { to: string; subject: string; text: string } }>(
      t.ctx.database.db,
      sql`select payload from outbox where channel = 'email' and payload->>'subject' like ${`%${d.ticketNumber}%`}`,
    );
    expect(mail?.payload.subject).toBe(`[ACME Assistenza] Ticket ${d.ticketNumber} ricevuto: Printer`);
    expect(mail?.payload.text).toContain('Broken');
    expect(mail?.payload.text).toContain(`/acme/102/tickets/${d.id}`);
    const next = (await post('owner', '/tickets', valid)).json() as TicketDetail;
    expect(next.id).toBe(d.id + 1);
    expect(next.internalAnnualProgressive).toBe(d.internalAnnualProgressive + 1);
    // The other portal keeps its own numbering.
    const beta = await t.app.inject({
      method: 'POST',
      url: '/api/beta/102/tickets',
      headers: as('otherPortal'),
      payload: valid,
    });
    expect(beta.statusCode).toBe(201);
    expect((beta.json() as TicketDetail).id).toBe(6002);
    expect((beta.json() as TicketDetail).internalAnnualProgressive).toBe(100);
    // Numbering restarts with the year (in the portal's zone: 23:30Z on 31/12 is already 2027 in Rome).
    t.clock.set('2026-12-31T23:30:00Z');
    const token = await tokenFor(t, 'anna.verdi');
    const y = (
      await t.app.inject({
        method: 'POST',
        url: '/api/acme/102/tickets',
        headers: bearer(token),
        payload: valid,
      })
    ).json() as TicketDetail;
    t.clock.set('2026-11-20T10:00:00Z');
    expect(y.ticketNumber).toBe('2027/0001');
  });

  it('refuses bad input with 400 {code, message} and saves nothing', async () => {
    const before = await count('tickets');
    const cases: [object, string][] = [
      [{ ...valid, title: '   ' }, 'required_fields'],
      [{ ...valid, description: '' }, 'required_fields'],
      [{ ...valid, description: '<p> </p><script>alert(1)</script>' }, 'required_fields'],
      [{ ...valid, taskTypeId: null }, 'required_fields'],
      [{ ...valid, taskTypeId: 99 }, 'unknown_ticket_type'],
      [{ ...valid, wikiElementId: 999 }, 'unknown_wiki_element'],
      [{ ...valid, attachments: [123456] }, 'attachment_unavailable'],
      [{ ...valid, taskTypeId: '1' }, 'validation_error'],
      [{ title: 'x', description: 'y' }, 'validation_error'],
      [{ ...valid, title: 'x'.repeat(256) }, 'validation_error'],
      [{ ...valid, attachments: Array.from({ length: 21 }, (_, i) => i) }, 'validation_error'],
    ];
    for (const [body, code] of cases) {
      const res = await post('owner', '/tickets', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ code, message: expect.any(String) });
    }
    const missing = await post('owner', '/tickets', { ...valid, title: '' });
    expect(missing.json().message).toBe('Please fill in all required fields');
    expect(await count('tickets')).toBe(before);
  });

  it('keeps the line breaks of a plain-text description', async () => {
    const d = (
      await post('owner', '/tickets', { ...valid, description: 'one\ntwo < three' })
    ).json() as TicketDetail;
    expect(d.description).toBe('one<br>two &lt; three');
  });
});

describe('uploads and attachments', () => {
  it('uploads a file and attaches it once, by its uploader only', async () => {
    const up = await upload(
      'owner',
      '/documents/upload',
      'photo.png',
      Buffer.from('fake png bytes'),
      'image/png',
    );
    expect(up.statusCode).toBe(201);
    const { id, url } = up.json() as { id: number; url: string };
    expect((await t.app.inject({ method: 'GET', url })).body).toBe('fake png bytes');

    // Another contact of the same company, or of another portal, cannot use it.
    for (const [who, company] of [
      ['colleague', 'acme'],
      ['otherPortal', 'beta'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/${company}/${p[who].contactId}/tickets`,
        headers: as(who),
        payload: { title: 'steal', taskTypeId: 1, description: 'x', attachments: [id] },
      });
      expect(res.statusCode, who).toBe(400);
      expect(res.json().code).toBe('attachment_unavailable');
    }
    const created = await post('owner', '/tickets', {
      title: 'With file',
      taskTypeId: 1,
      description: 'x',
      attachments: [id],
    });
    expect(created.statusCode).toBe(201);
    const d = created.json() as TicketDetail;
    expect(d.attachments).toEqual([{ id: expect.any(Number), name: 'photo.png', url: expect.any(String) }]);

    const before = await count('tickets');
    const again = await post('owner', '/tickets', {
      title: 'Again',
      taskTypeId: 1,
      description: 'x',
      attachments: [id],
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('attachment_unavailable');
    const comment = await post('owner', '/Comments', {
      taskId: d.id,
      message: 'x',
      commentType: 0,
      attachments: [id],
    });
    expect(comment.statusCode).toBe(400);
    expect(await count('tickets')).toBe(before);
  });

  it('answers 413 above MAX_UPLOAD_MB and keeps nothing', async () => {
    const filesBefore = await count('files');
    const blobsOnDisk = () => {
      const root = localFiles(t).root;
      const walk = (d: string): number =>
        readdirSync(d).reduce((n, e) => {
          const full = join(d, e);
          return n + (statSync(full).isDirectory() ? walk(full) : 1);
        }, 0);
      return walk(root);
    };
    const diskBefore = blobsOnDisk();
    for (const path of ['/documents/upload', '/comments/attachments', '/documents/upload/contact']) {
      const res = await upload('owner', path, 'big.bin', Buffer.alloc(1024 * 1024 + 10, 7));
      expect(res.statusCode, path).toBe(413);
      expect(res.json().code).toBe('payload_too_large');
    }
    expect(await count('files')).toBe(filesBefore);
    expect(blobsOnDisk()).toBe(diskBefore);
    // Exactly at the limit is fine.
    expect(
      (await upload('owner', '/documents/upload', 'edge.bin', Buffer.alloc(1024 * 1024, 1))).statusCode,
    ).toBe(201);
  });

  it('refuses a request without the multipart field file', async () => {
    const json = await post('owner', '/documents/upload', { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('multipart_required');
    const m = multipartFile('a.txt', 'x', 'text/plain', 'other');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/acme/102/comments/attachments',
      headers: { ...as('owner'), ...m.headers },
      payload: m.payload,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('file_required');
  });

  it('keeps only the base name of an uploaded file', async () => {
    const up = await upload('owner', '/comments/attachments', '../../etc/pass\u0007wd', 'x');
    expect(up.statusCode).toBe(201);
    expect(decodeURIComponent(up.json().url)).toContain('/passwd?');
  });
});

describe('comments', () => {
  it('adds a comment with attachments, from the current user', async () => {
    const up = (await upload('owner', '/comments/attachments', 'log.txt', 'log')).json() as { id: number };
    const res = await post('owner', '/Comments', {
      taskId: 5003,
      message: '<p>More info <img src=x onerror=alert(1)></p>',
      commentType: 0,
      ticketEmailReply_Recipient: null,
      ticketEmailReply_CCList: null,
      attachments: [up.id],
    });
    expect(res.statusCode).toBe(201);
    const c = res.json() as TicketComment;
    expect(c.message).toBe('<p>More info <img></p>');
    expect(c.senderContactWebUser).toEqual({
      webUser: { id: await userId('anna.verdi'), userName: 'anna.verdi' },
      referentName: 'ACME Anna Verdi',
    });
    expect(c.attachments.map((a) => a.name)).toEqual(['log.txt']);
    const d = (await get('owner', '/tickets/5003')).json() as TicketDetail;
    expect(d.comments.at(-1)!.id).toBe(c.id);
  });

  it('refuses a reply with no text and no attachment, whatever markup or spaces it holds', async () => {
    const before = await count('ticket_comments');
    for (const message of [
      '',
      '   ',
      '<p></p>',
      '<p> &nbsp; </p><p><br></p>',
      '\n\t',
      '<script>x</script>',
    ]) {
      const res = await post('owner', '/Comments', { taskId: 5003, message, commentType: 0 });
      expect(res.statusCode, JSON.stringify(message)).toBe(400);
      expect(res.json().code).toBe('empty_comment');
    }
    expect(await count('ticket_comments')).toBe(before);
    // A file alone is a reply.
    const up = (await upload('owner', '/comments/attachments', 'only.txt', 'x')).json() as { id: number };
    const res = await post('owner', '/Comments', { taskId: 5003, message: '<p></p>', attachments: [up.id] });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a ticket the contact may not open, and bad input', async () => {
    const before = await count('ticket_comments');
    expect(
      (await post('colleague', '/Comments', { taskId: 5003, message: 'x', commentType: 0 })).statusCode,
    ).toBe(404);
    expect(
      (await post('owner', '/Comments', { taskId: 6001, message: 'x', commentType: 0 })).statusCode,
    ).toBe(404);
    expect(
      (await post('owner', '/Comments', { taskId: 5003, message: 'x', commentType: 1 })).statusCode,
    ).toBe(400);
    expect((await post('owner', '/Comments', { message: 'x' })).statusCode).toBe(400);
    expect(await count('ticket_comments')).toBe(before);
  });
});

describe('closing a ticket', () => {
  it('moves it to the closing step, idempotently', async () => {
    const d = (
      await post('owner', '/tickets', { title: 'To close', taskTypeId: 1, description: 'x' })
    ).json() as TicketDetail;
    // The back office planned something, and leaves it there when the ticket closes.
    await queryRows(
      t.ctx.database.db,
      sql`update tickets set next_planned_activity_info = 'Visit on Monday'
        where ext_id = ${d.id} and portal_id = (select id from portals where key = 'acme')`,
    );
    expect(((await get('owner', `/tickets/${d.id}`)).json() as TicketDetail).nextPlannedActivityInfo).toBe(
      'Visit on Monday',
    );
    const first = await post('owner', `/tickets/${d.id}/close`, {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      id: d.id,
      isClosed: true,
      taskStatus: { step: { name: 'Chiuso', taskStatus: 2 } },
      // Closed, nothing is planned any more: not on the ticket, nor in the list.
      nextPlannedActivityInfo: null,
    });
    const listed = ((await get('owner', '/tickets')).json() as TicketDetail[]).find((x) => x.id === d.id);
    expect(listed?.nextPlannedActivityInfo).toBeNull();
    const second = await post('owner', `/tickets/${d.id}/close`, {});
    expect(second.statusCode).toBe(200);
    expect(second.json().taskStatus).toEqual(first.json().taskStatus);
    expect((await post('colleague', `/tickets/${d.id}/close`, {})).statusCode).toBe(404);
  });

  it('reopens a closed ticket that gets a reply, moving it to the default step', async () => {
    const d = (
      await post('owner', '/tickets', { title: 'To reopen', taskTypeId: 1, description: 'x' })
    ).json() as TicketDetail;
    const opened = d.taskStatus;
    expect(d.isClosed).toBe(false);
    expect((await post('owner', `/tickets/${d.id}/close`, {})).json().isClosed).toBe(true);
    const reply = await post('owner', '/Comments', { taskId: d.id, message: 'Still broken', commentType: 0 });
    expect(reply.statusCode).toBe(201);
    const after = (await get('owner', `/tickets/${d.id}`)).json() as TicketDetail;
    expect(after.isClosed).toBe(false);
    expect(after.taskStatus).toEqual(opened);
    // A reply to an open ticket leaves its step alone.
    await post('owner', '/Comments', { taskId: d.id, message: 'More', commentType: 0 });
    expect(((await get('owner', `/tickets/${d.id}`)).json() as TicketDetail).taskStatus).toEqual(opened);
  });

  it('keeps a closed ticket closed when the reply is refused', async () => {
    const d = (
      await post('owner', '/tickets', { title: 'Stays closed', taskTypeId: 1, description: 'x' })
    ).json() as TicketDetail;
    await post('owner', `/tickets/${d.id}/close`, {});
    const bad = await post('owner', '/Comments', { taskId: d.id, message: 'x', attachments: [2_000_000] });
    expect(bad.statusCode).toBe(400);
    expect(((await get('owner', `/tickets/${d.id}`)).json() as TicketDetail).isClosed).toBe(true);
  });
});

describe('colleagues and ticket types', () => {
  it('lists the other users of the company', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/users/101/colleagues?company=acme',
      headers: as('admin'),
    });
    expect(res.statusCode).toBe(200);
    const list = res.json() as { webUserId: number; referentName: string }[];
    expect(list.map((c) => c.referentName)).toEqual([
      'ACME Anna Verdi',
      'ACME Mario Rossi', // double.holder holds 101 as well
      'ACME Nuovo Utente',
      'ACME Senza Permessi',
    ]);
    expect(list.map((c) => c.webUserId)).not.toContain(await userId('mario.rossi'));
    expect(list.map((c) => c.webUserId)).toContain(await userId('anna.verdi'));
    // Without ?company= the contact is found among the user's own.
    const bare = await t.app.inject({
      method: 'GET',
      url: '/api/users/101/colleagues',
      headers: as('admin'),
    });
    expect(bare.json()).toEqual(list);
  });

  it('asks which portal when the user holds that contact id in two', async () => {
    const h = bearer(await tokenFor(t, 'double.holder'));
    const res = await t.app.inject({ method: 'GET', url: '/api/users/101/colleagues', headers: h });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('company_required');
    const acme = await t.app.inject({
      method: 'GET',
      url: '/api/users/101/colleagues?company=acme',
      headers: h,
    });
    const beta = await t.app.inject({
      method: 'GET',
      url: '/api/users/101/colleagues?company=beta',
      headers: h,
    });
    expect(acme.body).toContain('ACME Anna Verdi');
    expect(beta.body).toContain('BETA Anna Verdi');
    expect(beta.body).not.toContain('ACME');
  });

  it('lists the portal ticket types', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/settings/acme/tickets/types',
      headers: as('noFlag'),
    });
    expect(res.json()).toEqual([
      // One name each (names per language: localized-names.test.ts).
      { id: 1, name: 'ACME Guasto', names: null, color: '#d32f2f' },
      { id: 2, name: 'ACME Richiesta', names: null, color: '#1976d2' },
    ]);
  });
});

describe('statements per request (no N+1)', () => {
  const measure = async (fn: () => Promise<{ statusCode: number }>) => {
    const before = t.ctx.database.stats.statements;
    const res = await fn();
    expect(res.statusCode).toBe(200);
    return t.ctx.database.stats.statements - before;
  };

  it('does not grow with the number of tickets, comments or contracts', async () => {
    const list = () => measure(() => get('admin', '/tickets/all'));
    const detail = () => measure(() => get('admin', '/tickets/5001'));
    const contracts = () => measure(() => get('admin', '/activitycontracts/servicecontracts'));
    const small = { list: await list(), detail: await detail(), contracts: await contracts() };

    for (let i = 0; i < 25; i++) {
      const up = (await upload('admin', '/comments/attachments', `f${i}.txt`, `f${i}`)).json() as {
        id: number;
      };
      await post('admin', '/tickets', { title: `Bulk ${i}`, taskTypeId: 1, description: 'x' });
      await post('admin', '/Comments', {
        taskId: 5001,
        message: `c${i}`,
        commentType: 0,
        attachments: [up.id],
      });
    }
    const large = { list: await list(), detail: await detail(), contracts: await contracts() };
    expect(large).toEqual(small);
    // Session and tenant in one statement, then the list itself (a changed list: the cache cannot answer).
    expect(small).toEqual({ list: 2, detail: 2, contracts: 2 });
    expect(((await get('admin', '/tickets/5001')).json() as TicketDetail).comments.length).toBe(27);
  });
});
