/**
 * The conversation writer itself (issue 29 item 13), called as the e-mail channel will call it: each
 * author kind and channel, what each leaves behind (sender columns, event and its channel, e-mails,
 * read marks, reopen), what it refuses before writing, that a failure at its last step leaves nothing,
 * and the database's own rule of one sender per comment (CHECK and migration 0035).
 */
import { readFileSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyWithSecret } from '@sportello/contracts';
import type { AppError } from '../../../platform/errors';
import { ticketScope } from './visibility';
import type { TenantContext } from '../../../platform/tenancy';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../../test/harness';
import { multipartFile, seedPersonas, type PersonaAccess } from '../../../test/personas';
import { bearer } from '../../../test/seed';
import { seedStaffPersonas } from '../../staff/staff.fixture';
import { writeComment, type CommentAuthor, type CommentInput } from './index';

let t: TestApp;
let owner: PersonaAccess;
let staff: Awaited<ReturnType<typeof seedStaffPersonas>>;
let key: ApiKeyWithSecret;
/** Internal ids of the example's rows the tests write with. */
let ids: {
  portal: number;
  contact: number;
  user: number;
  staffUser: number;
  apiKey: number;
  ticket: number;
  closedStep: number;
  defaultStep: number;
};

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const q = async <T>(s: SQL): Promise<T[]> => rows<T>(await t.ctx.database.db.execute(s));
const one = async <T>(s: SQL): Promise<T> => (await q<T>(s))[0]!;
const num = async (s: SQL) => Number((await one<{ n: number }>(s)).n);

/** What a comment can leave behind, counted over the whole database. */
const footprint = async () => ({
  comments: await num(sql`select count(*)::int as n from ticket_comments`),
  attachments: await num(sql`select count(*)::int as n from ticket_attachments`),
  events: await num(sql`select count(*)::int as n from events`),
  outbox: await num(sql`select count(*)::int as n from outbox`),
  agents: await num(sql`select count(*)::int as n from agents`),
  attachedFiles: await num(sql`select count(*)::int as n from files where attached_at is not null`),
  reads: await num(sql`select count(*)::int as n from staff_ticket_reads`),
  step: await num(sql`select status_step_id as n from tickets where id = ${ids.ticket}::int`),
});

const lastEvents = async (n: number) =>
  (
    await q<{ type: string; source: unknown; data: unknown }>(
      sql`select type, source, data from events order by id desc limit ${n}`,
    )
  )
    .reverse()
    .map((e) => ({
      type: e.type,
      source: typeof e.source === 'string' ? JSON.parse(e.source) : e.source,
      data: (typeof e.data === 'string' ? JSON.parse(e.data) : e.data) as {
        comment?: { id: number; channel: string | null; senderContactId: number | null };
      },
    }));
const outboxId = async () => num(sql`select coalesce(max(id), 0)::int as n from outbox`);
const mailsSince = async (id: number) =>
  (await q<{ payload: unknown }>(sql`select payload from outbox where channel = 'email' and id > ${id}`)).map(
    (r) =>
      (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { to: string; subject: string },
  );
const commentRow = (id: number) =>
  one<Record<string, unknown>>(
    sql`select ext_id::int, sender_contact_id, sender_user_id, sender_agent_id, sender_staff_id, internal,
        channel, original_email_file_id, creation_date from ticket_comments where id = ${id}::int`,
  );

/** The contact 102 (owner) as the writer takes them: their scope is what `ticketScope` makes. */
const contactAuthor = (userId: number | null): CommentAuthor => ({
  kind: 'contact',
  contactId: ids.contact,
  contactExtId: 102,
  userId,
  scope: ticketScope({
    portalId: ids.portal,
    companyId,
    contactId: ids.contact,
    userId: userId ?? -1,
    flags: { administrator: false, viewContactActivityReports: true },
  } as unknown as TenantContext),
});

const base = (over: Partial<CommentInput> & Pick<CommentInput, 'author' | 'channel'>): CommentInput => ({
  portalId: ids.portal,
  ticketExtId: 5003,
  message: '<p>Testo</p>',
  ...over,
});

async function refused(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected a refusal').toBeDefined();
  return e as AppError;
}

/** The message of a failure and of its causes (drizzle wraps the database's error). */
async function failure(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  const messages: string[] = [];
  for (let c = e as { message?: string; cause?: unknown } | undefined; c; c = c.cause as typeof c)
    messages.push(String(c.message));
  return messages.join(' / ') || 'no failure';
}

const uploadAs = async (url: string, headers: Record<string, string>, name = 'nota.txt') => {
  const m = multipartFile(name, `contenuto di ${name}`, 'text/plain');
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...m.headers },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
};
const contactUpload = (name?: string) => uploadAs('/api/acme/102/documents/upload', owner.headers, name);
const staffUpload = (name?: string) => uploadAs('/api/staff/portals/acme/uploads', staff.agentA, name);
const keyUpload = (name?: string) => uploadAs('/api/integration/v1/files', bearer(key.secret), name);

let companyId: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = (await seedPersonas(t)).owner;
  staff = await seedStaffPersonas(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/portals/acme/keys',
    headers: bearer(TEST_ADMIN_KEY),
    payload: { name: 'CRM', scopes: ['write', 'read'] },
  });
  key = res.json();
  const r = await one<
    Record<string, number>
  >(sql`select p.id as portal, c.id as contact, c.company_id as company,
      (select u.id from users u where u.user_name = 'anna.verdi') as "user",
      (select s.id from staff_users s where s.email = 'luca@acme.example') as "staffUser",
      (select k.id from api_keys k where k.portal_id = p.id order by k.id desc limit 1) as "apiKey",
      (select t.id from tickets t where t.portal_id = p.id and t.ext_id = 5003) as ticket,
      (select s.id from status_steps s where s.portal_id = p.id and s.task_status = 2 limit 1) as "closedStep",
      (select s.id from status_steps s where s.portal_id = p.id and s.is_default limit 1) as "defaultStep"
    from portals p join contacts c on c.portal_id = p.id and c.ext_id = 102 where p.key = 'acme'`);
  companyId = Number(r.company);
  ids = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as typeof ids;
});
afterAll(async () => {
  await t?.close();
});

describe('writeComment, by author kind', () => {
  it("writes a contact's portal reply: contact and user as sender, the event with its channel, agents told", async () => {
    const mail0 = await outboxId();
    const fileId = await contactUpload('foto.txt');
    const w = await writeComment(t.ctx, {
      ...base({ author: contactAuthor(ids.user), channel: 'portal' }),
      message: 'Riga uno\nRiga due & tre',
      attachments: [{ fileId }],
    });
    expect(w.message).toBe('Riga uno<br>Riga due &amp; tre');
    expect(await commentRow(w.id)).toMatchObject({
      sender_contact_id: ids.contact,
      sender_user_id: ids.user,
      sender_agent_id: null,
      sender_staff_id: null,
      internal: false,
      channel: 'portal',
    });
    const [e] = await lastEvents(1);
    expect(e).toMatchObject({
      type: 'ticket.comment_added',
      source: { type: 'contact', contactId: 102 },
      data: { comment: { id: w.extId, channel: 'portal', senderContactId: 102 } },
    });
    expect((e!.data.comment as unknown as { attachments: unknown[] }).attachments).toHaveLength(1);
    // The agents hear of a customer's reply (no assignee, no group: the portal's triage, by default
    // its admins).
    expect((await mailsSince(mail0)).map((m) => m.to).sort()).toEqual(['boss@acme.example']);
  });

  it("reopens a closed ticket on a contact's e-mail, and keeps the original e-mail apart from the attachments", async () => {
    await t.ctx.database.db.execute(
      sql`update tickets set status_step_id = ${ids.closedStep}::int where id = ${ids.ticket}::int`,
    );
    const eml = await contactUpload('messaggio.eml');
    const w = await writeComment(t.ctx, {
      ...base({ author: contactAuthor(null), channel: 'email' }),
      message: '<p>Ancora guasto</p>',
      originalEmailFileId: eml,
    });
    expect(await commentRow(w.id)).toMatchObject({
      sender_contact_id: ids.contact,
      sender_user_id: null,
      channel: 'email',
      original_email_file_id: eml,
    });
    expect(await num(sql`select status_step_id as n from tickets where id = ${ids.ticket}::int`)).toBe(
      ids.defaultStep,
    );
    expect(
      await num(sql`select count(*)::int as n from ticket_attachments where comment_id = ${w.id}::int`),
    ).toBe(0);
    expect(
      await num(sql`select count(*)::int as n from files where id = ${eml}::int and attached_at is not null`),
    ).toBe(1);
    const [reopened, added] = await lastEvents(2);
    expect(reopened).toMatchObject({ type: 'ticket.reopened', data: { previousStatusStepId: 3 } });
    expect(added).toMatchObject({ type: 'ticket.comment_added', data: { comment: { channel: 'email' } } });
  });

  it('writes a staff note and a staff reply as the agent of the staff user; only the reply leaves the staff', async () => {
    const author: CommentAuthor = { kind: 'staff', staffUserId: ids.staffUser, displayName: 'Luca' };
    const before = await footprint();
    const mail0 = await outboxId();
    const fileId = await staffUpload();
    const note = await writeComment(t.ctx, {
      ...base({ author, channel: 'desk' }),
      message: '<p>Solo per noi</p>',
      internal: true,
      attachments: [{ fileId, name: 'rinominato.txt' }],
    });
    const noteRow = await commentRow(note.id);
    expect(noteRow).toMatchObject({
      sender_staff_id: ids.staffUser,
      sender_contact_id: null,
      internal: true,
    });
    expect(noteRow.sender_agent_id).not.toBeNull();
    expect(await one(sql`select name from ticket_attachments where comment_id = ${note.id}::int`)).toEqual({
      name: 'rinominato.txt',
    });
    // A note: no event, no e-mail; the writer's read mark.
    expect(await num(sql`select count(*)::int as n from events`)).toBe(before.events);
    expect(await mailsSince(mail0)).toEqual([]);
    expect(
      await num(sql`select count(*)::int as n from staff_ticket_reads
        where staff_user_id = ${ids.staffUser}::int and ticket_id = ${ids.ticket}::int`),
    ).toBe(1);

    const reply = await writeComment(t.ctx, {
      ...base({ author, channel: 'desk' }),
      message: '<p>Risolto</p>',
    });
    expect((await commentRow(reply.id)).sender_agent_id).toBe(noteRow.sender_agent_id);
    const [e] = await lastEvents(1);
    expect(e).toMatchObject({
      type: 'agent.comment_added',
      source: { type: 'staff', staffUserId: ids.staffUser, userName: 'Luca' },
      data: { comment: { id: reply.extId, channel: 'desk' } },
    });
    // The ticket's creator is e-mailed the answer.
    expect(reply.answerEmails).toBeGreaterThan(0);
    expect((await mailsSince(mail0)).length).toBe(reply.answerEmails);
  });

  it("writes a back office's answer through its key: its agent (made when named), its id, date and files", async () => {
    const fileId = await keyUpload();
    const author: CommentAuthor = {
      kind: 'agent',
      apiKeyId: ids.apiKey,
      agentExtId: 77,
      agentName: 'Nuovo Agente',
    };
    const w = await writeComment(t.ctx, {
      ...base({ author, channel: 'api' }),
      extId: 880001,
      creationDate: new Date('2026-01-02T03:04:05Z'),
      attachments: [{ fileId }],
    });
    expect(w.extId).toBe(880001);
    const row = await commentRow(w.id);
    expect(row).toMatchObject({
      ext_id: 880001,
      sender_contact_id: null,
      sender_staff_id: null,
      channel: 'api',
    });
    expect(new Date(row.creation_date as string).toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(
      await one(sql`select display_name from agents where id = ${row.sender_agent_id as number}::int`),
    ).toEqual({ display_name: 'Nuovo Agente' });
    const [e] = await lastEvents(1);
    expect(e).toMatchObject({
      type: 'agent.comment_added',
      source: { type: 'api_key', apiKeyId: ids.apiKey },
    });
    // Its id once only.
    const again = await refused(writeComment(t.ctx, { ...base({ author, channel: 'api' }), extId: 880001 }));
    expect([again.statusCode, again.code]).toEqual([409, 'comment_id_taken']);
  });
});

describe('writeComment refuses before writing', () => {
  it('blank text, a file twice or not the author’s, an unknown agent, a ticket out of reach: nothing written', async () => {
    const before = await footprint();
    const mine = await contactUpload('mia.txt');
    const staffs = await staffUpload('del-desk.txt');
    const contact = contactAuthor(ids.user);
    const cases: [CommentInput, number, string][] = [
      [
        { ...base({ author: contact, channel: 'portal' }), message: '<p>&nbsp; </p><br>' },
        400,
        'empty_comment',
      ],
      [
        {
          ...base({ author: contact, channel: 'portal' }),
          attachments: [{ fileId: mine }, { fileId: mine }],
        },
        400,
        'attachment_unavailable',
      ],
      [
        {
          ...base({ author: contact, channel: 'portal' }),
          attachments: [{ fileId: mine }, { fileId: staffs }],
        },
        400,
        'attachment_unavailable',
      ],
      [
        { ...base({ author: contact, channel: 'portal' }), originalEmailFileId: staffs },
        400,
        'attachment_unavailable',
      ],
      [
        base({ author: { kind: 'agent', apiKeyId: ids.apiKey, agentExtId: 99999 }, channel: 'api' }),
        400,
        'unknown_agent',
      ],
      // Ticket 5001 is the administrator's: the owner's scope does not reach it.
      [{ ...base({ author: contact, channel: 'portal' }), ticketExtId: 5001 }, 404, 'ticket_not_found'],
      [{ ...base({ author: contact, channel: 'portal' }), ticketExtId: 424242 }, 404, 'ticket_not_found'],
    ];
    for (const [input, status, code] of cases) {
      const e = await refused(writeComment(t.ctx, input));
      expect([e.statusCode, e.code], JSON.stringify(input)).toEqual([status, code]);
    }
    expect(await footprint()).toEqual(before);
    // The files refused with the rest are still their uploaders' to attach.
    const w = await writeComment(t.ctx, {
      ...base({ author: contact, channel: 'portal' }),
      attachments: [{ fileId: mine }],
    });
    expect(
      await num(sql`select count(*)::int as n from ticket_attachments where comment_id = ${w.id}::int`),
    ).toBe(1);
  });

  it('refuses an author through a channel not theirs, and a note by anyone but staff (a programming error)', async () => {
    await expect(
      writeComment(t.ctx, base({ author: contactAuthor(ids.user), channel: 'desk' })),
    ).rejects.toThrow(/does not write through desk/);
    await expect(
      writeComment(t.ctx, {
        ...base({ author: contactAuthor(ids.user), channel: 'portal' }),
        internal: true,
      }),
    ).rejects.toThrow(/only staff/);
  });
});

/** Runs `fn` while every insert into `table` fails (a trigger raising), then removes the trigger. */
async function failingInserts(table: string, fn: () => Promise<void>): Promise<void> {
  const db = t.ctx.database.db;
  await db.execute(
    sql.raw(`create function fail_insert() returns trigger language plpgsql as $$
    begin raise exception '${table} refused'; end $$`),
  );
  await db.execute(
    sql.raw(
      `create trigger fail_insert before insert on ${table} for each row execute function fail_insert()`,
    ),
  );
  try {
    await fn();
  } finally {
    await db.execute(sql.raw(`drop trigger fail_insert on ${table}`));
    await db.execute(sql`drop function fail_insert()`);
  }
}

describe('one transaction', () => {
  it('leaves no comment, attachment, event, e-mail, agent, reopen nor claimed file when its last step fails', async () => {
    await t.ctx.database.db.execute(
      sql`update tickets set status_step_id = ${ids.closedStep}::int where id = ${ids.ticket}::int`,
    );
    const fileId = await uploadAs('/api/staff/portals/acme/uploads', staff.adminA, 'tardi.txt');
    const admin = await one<{ id: number }>(
      sql`select id from staff_users where email = 'boss@acme.example'`,
    );
    const author: CommentAuthor = { kind: 'staff', staffUserId: Number(admin.id), displayName: 'Boss' };
    // The read mark is a staff comment's last step: make it fail, as a full disk or a lost connection would.
    await failingInserts('staff_ticket_reads', async () => {
      const before = await footprint();
      expect(
        await failure(
          writeComment(t.ctx, {
            ...base({ author, channel: 'desk' }),
            message: '<p>Risposta che non arriva</p>',
            attachments: [{ fileId }],
          }),
        ),
      ).toMatch(/staff_ticket_reads refused/);
      expect(await footprint()).toEqual(before);
      expect(before.step).toBe(ids.closedStep);
      expect(
        await num(
          sql`select count(*)::int as n from files where id = ${fileId}::int and attached_at is null`,
        ),
      ).toBe(1);
    });
    // A contact's reply fails at its last step as well (the agents' e-mail): no reopen survives it.
    await failingInserts('outbox', async () => {
      const before = await footprint();
      expect(
        await failure(writeComment(t.ctx, base({ author: contactAuthor(ids.user), channel: 'portal' }))),
      ).toMatch(/outbox refused/);
      expect(await footprint()).toEqual(before);
      // And a back office's answer (its last step the customer's e-mail): the agent it made goes too.
      const agent: CommentAuthor = { kind: 'agent', apiKeyId: ids.apiKey, agentExtId: 78, agentName: 'Mai' };
      expect(await failure(writeComment(t.ctx, base({ author: agent, channel: 'api' })))).toMatch(
        /outbox refused/,
      );
      expect(await footprint()).toEqual(before);
      expect(await num(sql`select count(*)::int as n from agents where ext_id = 78`)).toBe(0);
    });
  });
});

describe('one sender per comment, in the database', () => {
  const insert = (senders: string) =>
    t.ctx.database.db.execute(
      sql.raw(`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, ${senders.split('=')[0]})
        values (${ids.portal}, ${ids.ticket}, 990999, '<p>x</p>', now(), ${senders.split('=')[1]})`),
    );

  it('refuses a comment with no sender, two, or a user or staff user beside the other kind', async () => {
    const agent = await one<{ id: number }>(
      sql`select id from agents where portal_id = ${ids.portal}::int limit 1`,
    );
    for (const senders of [
      'internal=false',
      `sender_contact_id, sender_agent_id=${ids.contact}, ${agent.id}`,
      `sender_agent_id, sender_user_id=${agent.id}, ${ids.user}`,
      `sender_contact_id, sender_staff_id=${ids.contact}, ${ids.staffUser}`,
      `sender_user_id=${ids.user}`,
      `sender_staff_id=${ids.staffUser}`,
    ])
      expect(await failure(insert(senders))).toMatch(/ticket_comments_one_sender/);
    expect(await failure(insert(`sender_contact_id, channel=${ids.contact}, 'fax'`))).toMatch(
      /ticket_comments_channel/,
    );
  });

  it('refuses deleting a contact who wrote comments (409 entity_in_use), which would leave them without', async () => {
    const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/integration/v1${url}`,
        headers: bearer(key.secret),
        ...(payload && { payload }),
      });
    expect(
      (await call('POST', '/contacts', { contactId: 151, companyId: 10, referentName: 'Via' })).statusCode,
    ).toBe(201);
    const contact = await one<{ id: number }>(
      sql`select id from contacts where portal_id = ${ids.portal}::int and ext_id = 151`,
    );
    await writeComment(t.ctx, {
      ...base({
        author: {
          kind: 'contact',
          contactId: Number(contact.id),
          contactExtId: 151,
          userId: null,
          // As an administrator of the company: every ticket of it.
          scope: {
            portalId: ids.portal,
            companyId,
            creatorContactId: null,
            followerUserId: null,
            withReports: false,
          },
        },
        channel: 'email',
      }),
      ticketExtId: 5004,
    });
    const res = await call('DELETE', '/contacts/151');
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'entity_in_use',
      message: expect.stringContaining('ticket comments'),
    });
    // The database refuses it too, whoever asks.
    expect(
      await failure(t.ctx.database.db.execute(sql`delete from contacts where id = ${contact.id}::int`)),
    ).toMatch(/ticket_comments_sender_contact_id_contacts_id_fk/);
  });

  it('migration 0035 gives a desk comment its agent back, and stops on one nobody can be named for', async () => {
    const migration = readFileSync(
      new URL('../../../db/migrations/0035_one_comment_sender.sql', import.meta.url),
      'utf8',
    );
    // Back to before 0035, inside a transaction rolled back at the end.
    const undo = `alter table ticket_comments drop constraint ticket_comments_one_sender;
      alter table ticket_comments drop column channel; alter table ticket_comments drop column original_email_file_id;
      alter table ticket_comments drop constraint ticket_comments_sender_contact_id_contacts_id_fk;
      alter table ticket_comments add constraint ticket_comments_sender_contact_id_contacts_id_fk
        foreign key (sender_contact_id) references contacts(id) on delete set null;
      alter table ticket_comments drop constraint ticket_comments_sender_agent_id_agents_id_fk;
      alter table ticket_comments add constraint ticket_comments_sender_agent_id_agents_id_fk
        foreign key (sender_agent_id) references agents(id) on delete set null;`;
    await t.ctx.database.withConnection(async (c) => {
      await c.exec('begin');
      try {
        await c.exec(undo);
        await c.exec(`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, sender_staff_id)
          values (${ids.portal}, ${ids.ticket}, 990998, '<p>dal desk</p>', now(), ${ids.staffUser})`);
        await c.exec(migration);
        const fixed = await c.query<{ agent: number | null; mine: number | null }>(
          `select cm.sender_agent_id as agent, m.agent_id as mine from ticket_comments cm
            join staff_memberships m on m.staff_user_id = cm.sender_staff_id and m.portal_id = cm.portal_id
            where cm.ext_id = 990998 and cm.portal_id = ${ids.portal}`,
        );
        expect(fixed.rows[0]!.agent).not.toBeNull();
        expect(Number(fixed.rows[0]!.agent)).toBe(Number(fixed.rows[0]!.mine));

        await c.exec(undo);
        await c.exec(`insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date)
          values (${ids.portal}, ${ids.ticket}, 990997, '<p>di nessuno</p>', now())`);
        await expect(c.exec(migration)).rejects.toThrow(/1 ticket comments have no sender or two/);
      } finally {
        await c.exec('rollback');
      }
    });
    // Untouched by the rehearsal.
    expect(await failure(insert('internal=false'))).toMatch(/ticket_comments_one_sender/);
  });
});
