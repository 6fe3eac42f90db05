import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, localFiles, type TestApp } from '../../test/harness';
import { exampleDocument } from '../../test/seed';
import { verifyPassword } from '../../platform/passwords';
import type { AppError } from '../../platform/errors';
import { importDocument } from './import.service';
import { countRows, dumpTables, generatedDocument } from './import.test-support';
import { FileSweeper } from '../../platform/file-sweeper';

// The tests edit the document freely, as a back office with typos would.
type AnyObj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const clone = <T>(v: T): T => structuredClone(v);
const example = () => exampleDocument() as AnyObj;

async function rows<T = AnyObj>(t: TestApp, text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.ctx.database.withConnection((sql) => sql.query<T>(text, params))).rows;
}

async function importError(t: TestApp, doc: unknown, baseDir?: string): Promise<AppError> {
  try {
    await importDocument(t.ctx, doc, baseDir === undefined ? {} : { baseDir });
  } catch (e) {
    return e as AppError;
  }
  throw new Error('the import was expected to fail');
}

describe('importDocument', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('imports the example document and answers the counts', async () => {
    const counts = await importDocument(t.ctx, example());
    expect(counts).toMatchObject({
      portals: 1,
      users: 3,
      companies: 2,
      contacts: 5,
      tickets: 5,
      comments: 2,
      attachments: 2,
      activityReports: 2,
      activityContracts: 2,
      serviceContracts: 3,
      invoices: 3,
      estimates: 1,
      recurringAdvances: 3,
      documents: 3,
      signatureRequests: 3,
      appointmentLinks: 1,
      taskLinks: 1,
    });
    expect(await countRows(t.ctx.database, 'tickets')).toBe(5);
    expect(await countRows(t.ctx.database, 'users')).toBe(3);
    const [portal] = await rows(t, 'select * from portals');
    expect(portal).toMatchObject({ key: 'acme', name: 'ACME Assistenza', base_color: '#1565c0' });
    expect(portal?.logo_file_id).not.toBeNull();
    // Portal-created tickets, comments, attachments and documents continue after the back office's ids.
    expect(Number(portal?.ticket_seq)).toBe(6001);
    expect(Number(portal?.comment_seq)).toBe(2);
    expect(Number(portal?.attachment_seq)).toBe(2);
    expect(Number(portal?.document_seq)).toBe(3);
  });

  it('keeps the links between entities', async () => {
    const [ticket] = await rows(
      t,
      `select t.title, tt.ext_id::int as type, s.name as step, c.ext_id::int as creator, g.name as grp, a.display_name as agent,
              w.ext_id::int as wiki
         from tickets t join ticket_types tt on tt.id = t.type_id join status_steps s on s.id = t.status_step_id
         left join contacts c on c.id = t.creator_contact_id left join assignee_groups g on g.id = t.assigned_group_id
         left join agents a on a.id = t.assigned_user_id left join wiki_elements w on w.id = t.wiki_element_id
        where t.ext_id = 5001`,
    );
    expect(ticket).toMatchObject({
      title: 'ACME Stampante non funziona',
      type: 1,
      step: 'Nuovo',
      creator: 101,
      grp: 'ACME Helpdesk',
      agent: 'ACME Agent Luca',
      wiki: 100,
    });
    const attachments = await rows(
      t,
      `select ta.name, f.content_type, f.size from ticket_attachments ta join files f on f.id = ta.file_id order by ta.ext_id`,
    );
    expect(attachments.map((a) => [a.name, a.content_type])).toEqual([
      ['schermata.png', 'image/png'],
      ['verbale-di-intervento-lungo.pdf', 'application/pdf'],
    ]);
    const links = await rows(
      t,
      `select sc.ext_id::int as sc, (select array_agg(tg.ext_id::int) from service_contract_tags x join tags tg on tg.id = x.tag_id where x.service_contract_id = sc.id) as tags
         from service_contracts sc order by sc.ext_id`,
    );
    expect(links.map((l) => [l.sc, l.tags])).toEqual([
      [1, [1]],
      [2, [2]],
      [3, null],
    ]);
    const [userContacts] = await rows(
      t,
      `select count(*)::int as n from user_contacts uc join users u on u.id = uc.user_id where u.user_name = 'mario.rossi'`,
    );
    expect(userContacts?.n).toBe(2);
    const [mario] = await rows(t, `select password_hash from users where user_name = 'mario.rossi'`);
    expect(mario?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(mario?.password_hash, 'Correct-Horse-9')).toBe(true);
  });

  it('reads a day as midnight in the portal time zone and a date-time as given', async () => {
    const [inv] = await rows(t, `select invoice_date from invoices where ext_id = 1`);
    expect(new Date(inv?.invoice_date).toISOString()).toBe('2026-10-16T22:00:00.000Z');
    const [ticket] = await rows(t, `select created_on from tickets where ext_id = 5001`);
    expect(new Date(ticket?.created_on).toISOString()).toBe('2026-10-12T00:00:00.000Z');
  });

  it('queues one invitation e-mail, in Italian and English, with a single-use link', async () => {
    const mails = await rows(t, `select payload from outbox where channel = 'email'`);
    expect(mails).toHaveLength(1);
    const payload = mails[0]?.payload as { to: string; subject: string; text: string };
    expect(payload.to).toBe('nuovo@acme.example');
    expect(payload.text).toContain('Buongiorno');
    expect(payload.text).toContain('Hello');
    const token = /\/confirm\?token=([\w-]+)/.exec(payload.text)?.[1];
    expect(token).toBeTruthy();
    // The link names the portal, so the invitation page shows its branding.
    expect(payload.text).toMatch(/\/confirm\?token=[\w-]+&company=acme\b/);
    const tokens = await rows(t, `select purpose, token_hash, expires_at from user_tokens`);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.purpose).toBe('invite');
    const { sha256 } = await import('../../platform/auth');
    expect(tokens[0]?.token_hash).toBe(sha256(token as string));
    expect(new Date(tokens[0]?.expires_at).getTime()).toBe(t.clock.now().getTime() + 7 * 24 * 3600_000);
  });

  it('is idempotent: a second import of the same document changes no row', async () => {
    // The list counters included: a re-import writes only rows that differ (import.rewrites.test.ts).
    const before = await dumpTables(t.ctx.database);
    t.clock.advance(60_000);
    await importDocument(t.ctx, example());
    const after = await dumpTables(t.ctx.database);
    expect(after).toEqual(before);
    expect(before.outbox).toHaveLength(1);
  });

  it('rejects a broken document with every problem and its path, and changes nothing', async () => {
    const before = await dumpTables(t.ctx.database);
    const doc = example();
    const p = doc.portals[0];
    const acme = p.companies[0];
    acme.tickets[3].taskTypeId = 7;
    acme.tickets[0].statusStepId = 99;
    acme.tickets[1].creatorContactId = 201; // a contact of the other company
    acme.tickets[0].comments[1].senderContactId = 555;
    acme.tickets[0].comments[0].senderContactId = 101; // two senders
    acme.tickets[2].wikiElementId = 4242;
    acme.activityReports[0].taskId = 9999;
    acme.invoices[1].id = acme.invoices[0].id;
    acme.serviceContracts[0].tagIds = [1, 77];
    acme.documents[0].contactId = 999;
    acme.tickets[0].titel = 'typo';
    p.statusSteps[1].isDefault = true;
    p.agents[0].id = 'one';
    p.appointmentLinks[0].agentId = 5;
    p.taskLinks[0].ticketId = 31337;
    doc.users[0].contacts.push({ webPortalKey: 'nope', contactId: 1 });
    doc.users[2].contacts[0].contactId = 1234;

    const err = await importError(t, doc);
    expect(err.statusCode).toBe(400);
    expect(err.code).toBe('import_invalid');
    const problems = err.details as { path: string; message: string }[];
    const at = (path: string) => problems.filter((x) => x.path === path).map((x) => x.message);
    const c = 'portals[0].companies[0]';
    expect(at(`${c}.tickets[3].taskTypeId`)).toEqual(['unknown ticket type 7']);
    expect(at(`${c}.tickets[0].statusStepId`)).toEqual(['unknown status step 99']);
    expect(at(`${c}.tickets[1].creatorContactId`)[0]).toMatch(/belongs to company 20/);
    expect(at(`${c}.tickets[0].comments[1].senderContactId`)).toEqual(['unknown contact 555']);
    expect(at(`${c}.tickets[0].comments[0]`)[0]).toMatch(/exactly one sender/);
    expect(at(`${c}.tickets[2].wikiElementId`)).toEqual(['unknown wiki element 4242']);
    expect(at(`${c}.activityReports[0].taskId`)).toEqual(['unknown ticket 9999']);
    expect(at(`${c}.invoices[1].id`)[0]).toMatch(/duplicate id 1/);
    expect(at(`${c}.serviceContracts[0].tagIds[1]`)).toEqual(['unknown tag 77']);
    expect(at(`${c}.documents[0].contactId`)).toEqual(['unknown contact 999']);
    expect(at(`${c}.tickets[0].titel`)).toEqual(['unknown field "titel"']);
    // Two defaults in one list: the schema's rule, said once.
    expect(at('portals[0].statusSteps')).toEqual(['at most one status step may have isDefault']);
    expect(at('portals[0].agents[0].id')[0]).toMatch(/expected number/);
    expect(at('portals[0].appointmentLinks[0].agentId')).toEqual(['unknown agent 5']);
    expect(at('portals[0].taskLinks[0].ticketId')).toEqual(['unknown ticket 31337']);
    expect(at('users[0].contacts[2].webPortalKey')).toEqual(['unknown portal "nope"']);
    expect(at('users[2].contacts[0].contactId')).toEqual(['unknown contact 1234 in portal "acme"']);
    expect(err.message).toBe(`The import document has ${problems.length} problems`);

    expect(await dumpTables(t.ctx.database)).toEqual(before);
  });

  it('rejects what is not a document at all', async () => {
    const err = await importError(t, [1, 2]);
    expect(err.code).toBe('import_invalid');
    const err2 = await importError(t, { formatVersion: 2, portals: [], users: [] });
    expect((err2.details as { path: string }[])[0]?.path).toBe('formatVersion');
  });

  it('accepts anything under extra and rejects unknown fields elsewhere', async () => {
    const doc = example();
    doc.extra = { source: 'crm', exportedAt: '2026-11-01' };
    doc.portals[0].extra = { crmId: 42, nested: [1, { a: null }] };
    doc.portals[0].companies[0].tickets[0].extra = { priority: 'alta' };
    await expect(importDocument(t.ctx, doc)).resolves.toMatchObject({ tickets: 5 });
    doc.portals[0].companies[1].colour = 'red';
    const err = await importError(t, doc);
    expect(err.details).toEqual([
      { path: 'portals[0].companies[1].colour', message: 'unknown field "colour"' },
    ]);
  });

  it('sanitises HTML on import and strips </style from the custom CSS', async () => {
    const doc = example();
    const p = doc.portals[0];
    p.footerCustomHtml =
      '<p>Footer <script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a></p>';
    p.privacyHtml = '<h1 onclick="alert(1)">Privacy</h1><iframe src="https://evil.example"></iframe>';
    p.customCss = '.a { color: red; }</style><script>alert(1)</script>';
    p.companies[0].tickets[0].description = '<p>Ciao<script>alert(1)</script></p>';
    p.companies[0].tickets[0].comments[0].message = '<p onmouseover="x()">Ok</p><svg onload="x()"></svg>';
    await importDocument(t.ctx, doc);
    const [portal] = await rows(
      t,
      `select footer_custom_html, privacy_html, custom_css from portals where key = 'acme'`,
    );
    const footer = String(portal?.footer_custom_html);
    expect(footer).toContain('Footer');
    expect(footer).not.toMatch(/script|onerror|javascript:/i);
    expect(String(portal?.privacy_html)).not.toMatch(/onclick|iframe/i);
    expect(String(portal?.privacy_html)).toContain('Privacy');
    expect(String(portal?.custom_css)).not.toMatch(/<\/style/i);
    expect(String(portal?.custom_css)).toContain('.a { color: red; }');
    const [ticket] = await rows(t, `select description from tickets where ext_id = 5001`);
    expect(ticket?.description).toBe('<p>Ciao</p>');
    const [comment] = await rows(t, `select message from ticket_comments where ext_id = 1`);
    expect(String(comment?.message)).not.toMatch(/onmouseover|svg|onload/i);
    // Put the example back for the tests below.
    await importDocument(t.ctx, example());
  });

  it('merges: entities absent from the document stay, inline children are replaced', async () => {
    const doc = example();
    const p = doc.portals[0];
    const acme = p.companies[0];
    // Only ticket 5001, with one comment left (no attachments) and one new one.
    acme.tickets = [acme.tickets[0]];
    acme.tickets[0].title = 'ACME Stampante ancora guasta';
    acme.tickets[0].comments = [
      { ...acme.tickets[0].comments[1] },
      {
        id: 3,
        message: '<p>Nuovo</p>',
        creationDate: '2026-10-15T08:00:00Z',
        senderAgentId: 1,
        attachments: [],
      },
    ];
    p.companies = [acme];
    doc.users = [];
    await importDocument(t.ctx, doc);
    expect(await countRows(t.ctx.database, 'tickets')).toBe(5);
    const comments = await rows(
      t,
      `select c.ext_id::int as ext_id from ticket_comments c join tickets t on t.id = c.ticket_id where t.ext_id = 5001 order by c.ext_id`,
    );
    expect(comments.map((c) => c.ext_id)).toEqual([2, 3]);
    expect(await countRows(t.ctx.database, 'ticket_attachments')).toBe(0);
    const [ticket] = await rows(t, `select title from tickets where ext_id = 5001`);
    expect(ticket?.title).toBe('ACME Stampante ancora guasta');
    expect(await countRows(t.ctx.database, 'users')).toBe(3);

    // Re-importing the full example restores the original children; files rows are reused.
    const files = await countRows(t.ctx.database, 'files');
    await importDocument(t.ctx, example());
    expect(await countRows(t.ctx.database, 'ticket_attachments')).toBe(2);
    expect(await countRows(t.ctx.database, 'files')).toBe(files);
  });

  it('keeps the comments written on the staff desk when the document does not list them', async () => {
    await importDocument(t.ctx, example());
    const [staff] = await rows<{ id: number }>(
      t,
      `insert into staff_users (email, display_name, status) values ('desk@acme.example', 'Desk', 'active')
       returning id`,
    );
    const [ticket] = await rows<{ id: number; portal_id: number }>(
      t,
      `select id, portal_id from tickets where ext_id = 5001 order by id limit 1`,
    );
    for (const [ext, internal] of [
      [98001, true],
      [98002, false],
    ] as const)
      await rows(
        t,
        `insert into ticket_comments (portal_id, ticket_id, ext_id, message, creation_date, internal, sender_staff_id,
           sender_agent_id)
         values ($1, $2, $3, '<p>Dal desk</p>', now(), $4, $5, (select id from agents where portal_id = $1 order by id limit 1))`,
        [ticket!.portal_id, ticket!.id, ext, internal, staff!.id],
      );
    // The back office does not know them: its document lists the ticket's other comments only.
    await importDocument(t.ctx, example());
    const kept = await rows<{ ext_id: number }>(
      t,
      `select ext_id::int as ext_id from ticket_comments where ticket_id = $1 and ext_id > 98000 order by ext_id`,
      [ticket!.id],
    );
    expect(kept.map((c) => c.ext_id)).toEqual([98001, 98002]);
  });

  it('keeps two portals that use the same ids apart', async () => {
    const doc = example();
    const p = clone(doc.portals[0]);
    p.webPortalKey = 'acme-bis';
    p.webPortalName = 'ACME Bis';
    for (const c of p.companies) for (const tk of c.tickets) tk.title = `BIS ${tk.title}`;
    for (const s of p.signatureRequests) s.documentKey = `${s.documentKey}-bis`;
    const bis = {
      formatVersion: 1,
      portals: [p],
      users: [
        {
          userName: 'bis.user',
          email: 'bis@example.com',
          password: 'Another-Pass-1',
          contacts: [{ webPortalKey: 'acme-bis', contactId: 101 }],
        },
      ],
    };
    await importDocument(t.ctx, bis);
    const tickets = await rows(
      t,
      `select p.key, t.title from tickets t join portals p on p.id = t.portal_id where t.ext_id = 5001 order by p.key`,
    );
    expect(tickets).toEqual([
      { key: 'acme', title: 'ACME Stampante non funziona' },
      { key: 'acme-bis', title: 'BIS ACME Stampante non funziona' },
    ]);
    expect(await countRows(t.ctx.database, 'tickets')).toBe(10);
    const [holder] = await rows(
      t,
      `select p.key from user_contacts uc join users u on u.id = uc.user_id join contacts c on c.id = uc.contact_id
         join portals p on p.id = c.portal_id where u.user_name = 'bis.user'`,
    );
    expect(holder?.key).toBe('acme-bis');
    // The first portal is untouched by the second one's import.
    const [acmeTicket] = await rows(
      t,
      `select c.ext_id::int as creator, c.portal_id = t.portal_id as same from tickets t join contacts c on c.id = t.creator_contact_id
         join portals p on p.id = t.portal_id where p.key = 'acme-bis' and t.ext_id = 5001`,
    );
    expect(acmeTicket).toEqual({ creator: 101, same: true });
  });

  it('signs a user out when an import changes their password, and only then', async () => {
    const { issueSession } = await import('../../platform/auth');
    const [mario] = await rows(t, `select id from users where user_name = 'mario.rossi'`);
    await issueSession(t.ctx.database.db, t.clock, mario?.id, 12);
    await importDocument(t.ctx, example());
    expect(
      await rows(t, `select id from sessions where user_id = $1 and revoked_at is null`, [mario?.id]),
    ).toHaveLength(1);
    const doc = example();
    doc.users[0].password = 'A-New-Password-2';
    doc.users[0].userName = 'Mario.Rossi'; // case-insensitive: the same user
    await importDocument(t.ctx, doc);
    expect(
      await rows(t, `select id from sessions where user_id = $1 and revoked_at is null`, [mario?.id]),
    ).toHaveLength(0);
    const [after] = await rows(
      t,
      `select id, user_name, password_hash from users where lower(user_name) = 'mario.rossi'`,
    );
    expect(after?.id).toBe(mario?.id);
    expect(after?.user_name).toBe('Mario.Rossi');
    expect(await verifyPassword(after?.password_hash, 'A-New-Password-2')).toBe(true);
    await importDocument(t.ctx, example());
  });

  it('accepts path file references only with a base directory (the command line)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sportello-import-'));
    try {
      mkdirSync(join(dir, 'files'));
      writeFileSync(join(dir, 'files', 'listino.pdf'), '%PDF-1.4 listino di prova\n%%EOF\n');
      const doc = example();
      doc.portals[0].publicFiles.push({
        id: 2,
        fileName: 'Listino.pdf',
        file: { name: 'listino.pdf', path: 'files/listino.pdf' },
      });
      const http = await importError(t, doc);
      expect(http.details).toEqual([
        {
          path: 'portals[0].publicFiles[1].file.path',
          message: 'a file path is allowed only from the command line; send base64',
        },
      ]);
      doc.portals[0].publicFiles[1].file.path = 'files/missing.pdf';
      const missing = await importError(t, doc, dir);
      expect((missing.details as { path: string; message: string }[])[0]?.message).toMatch(/file not found/);

      doc.portals[0].publicFiles[1].file.path = 'files/listino.pdf';
      await importDocument(t.ctx, doc, { baseDir: dir });
      const [file] = await rows(
        t,
        `select f.name, f.content_type, f.size, f.sha256 from public_files pf join files f on f.id = pf.file_id where pf.ext_id = 2`,
      );
      expect(file).toMatchObject({ name: 'listino.pdf', content_type: 'application/pdf' });
      expect(existsSync(localFiles(t).pathOf(String(file?.sha256)))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves neither rows nor new file bytes behind when the transaction fails', async () => {
    // A database error after validation (here a trigger) must undo everything, bytes included.
    await t.ctx.database.withConnection(async (sql) => {
      await sql.exec(`create or replace function boom() returns trigger language plpgsql as $$
        begin if new.document_number = 'BOOM' then raise exception 'boom'; end if; return new; end $$;
        create trigger boom before insert or update on invoices for each row execute function boom();`);
    });
    try {
      const before = await dumpTables(t.ctx.database);
      const doc = example();
      const bytes = Buffer.from('bytes seen only by the failing import');
      doc.portals[0].companies[0].invoices[0].documentNumber = 'BOOM';
      doc.portals[0].companies[0].invoices[0].document = {
        name: 'nuova.pdf',
        base64: bytes.toString('base64'),
      };
      const err = (await importError(t, doc)) as Error & { cause?: Error };
      expect(String(err.cause?.message ?? err.message)).toMatch(/boom/);
      expect(await dumpTables(t.ctx.database)).toEqual(before);
      const { createHash } = await import('node:crypto');
      const sha = createHash('sha256').update(bytes).digest('hex');
      // Bytes are never removed by the failing request itself (a concurrent one may share them):
      // the sweeper removes them once it sees no row references them.
      await new FileSweeper(t.ctx, t.app.log).sweep();
      expect(existsSync(localFiles(t).pathOf(sha))).toBe(false);
    } finally {
      await t.ctx.database.withConnection((sql) =>
        sql.exec('drop trigger boom on invoices; drop function boom();'),
      );
    }
  });

  it('writes a large document in batches, not one statement per row', async () => {
    // 150 tickets, 450 comments, 90 attachments, 100 invoices: one statement per row would be ~850.
    // (bench/import.ts times the 1,000-ticket version.)
    const doc = generatedDocument(150);
    const statements = t.ctx.database.stats.statements;
    const counts = await importDocument(t.ctx, doc);
    expect(counts).toMatchObject({ tickets: 150, comments: 450, attachments: 90, invoices: 100 });
    expect(t.ctx.database.stats.statements - statements).toBeLessThan(100);
  });
});

describe('the referential checks of a large document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await importDocument(t.ctx, example());
  });
  afterAll(() => t?.close());

  it('names both places of an id used twice, also among thousands of ids seen without their path', async () => {
    const doc = generatedDocument(300, 'big') as AnyObj;
    const [first, again] = [doc.portals[0].companies[0].tickets[7], doc.portals[0].companies[8].tickets[10]];
    again.comments[1].id = first.comments[2].id;
    const err = await importError(t, doc);
    expect(err.code).toBe('import_invalid');
    expect(err.details).toEqual([
      {
        path: 'portals[0].companies[8].tickets[10].comments[1].id',
        message: `duplicate id ${first.comments[2].id} (also at portals[0].companies[0].tickets[7].comments[2].id)`,
      },
    ]);
  });

  it('checks a reference to a ticket stored by an earlier import, not in the document', async () => {
    const doc = example();
    const [acme, other] = doc.portals[0].companies;
    // Tickets left out of a document stay: the reports and the task link point to stored ones.
    acme.tickets = [];
    other.tickets = [];
    await importDocument(t.ctx, clone(doc));

    acme.activityReports[0].taskId = 6001; // company 20's ticket
    doc.portals[0].taskLinks[0].ticketId = 4242;
    const err = await importError(t, doc);
    const problems = err.details as { path: string; message: string }[];
    expect(problems).toEqual([
      {
        path: 'portals[0].companies[0].activityReports[0].taskId',
        message: 'ticket 6001 belongs to company 20, not 10',
      },
      { path: 'portals[0].taskLinks[0].ticketId', message: 'unknown ticket 4242' },
    ]);
  });
});
