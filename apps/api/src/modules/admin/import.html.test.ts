import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { htmlSourceDigest, sanitizeHtml } from '../../platform/html';
import type { AppError } from '../../platform/errors';
import { importDocument } from './import.service';
import { generatedDocument } from './import.test-support';

// Every call of the sanitiser is counted; it still sanitises.
vi.mock('../../platform/html', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../platform/html')>();
  return { ...original, sanitizeHtml: vi.fn(original.sanitizeHtml) };
});

// The tests edit the document freely, as a back office would.
type AnyObj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Back-office HTML that is not the sanitiser's output: a re-import cannot compare it with what is stored. */
const MESSY = '<P>Caldaia <B>ferma</B><br>da ieri<p>Grazie';
const HOSTILE = '<p onclick="steal()">Salve</p><script>alert(1)</script><img src=x onerror=alert(2)>';

function document(): AnyObj {
  const doc = generatedDocument(12, 'html') as AnyObj;
  const tickets = doc.portals[0].companies.flatMap((c: AnyObj) => c.tickets);
  tickets[0].description = MESSY;
  tickets[1].comments[0].message = MESSY;
  return doc;
}
const ticketsOf = (doc: AnyObj): AnyObj[] => doc.portals[0].companies.flatMap((c: AnyObj) => c.tickets);
/** The document's HTML handed to the sanitiser since the last reset. */
const sanitised = () => vi.mocked(sanitizeHtml).mock.calls.map((c) => c[0]);

describe('the HTML of an import', () => {
  let t: TestApp;
  const sql = async <T = AnyObj>(text: string, params: unknown[] = []) =>
    (await t.ctx.database.withConnection((s) => s.query<T>(text, params))).rows;
  const ticket = async (ext: number) =>
    (
      await sql<{ description: string; source: string | null; v: string }>(
        `select t.description, t.description_source as source, t.xmin::text || ' ' || t.ctid::text as v
           from tickets t join portals p on p.id = t.portal_id where p.key = 'html' and t.ext_id = $1`,
        [ext],
      )
    )[0]!;
  const comment = async (ext: number) =>
    (
      await sql<{ message: string; source: string | null; v: string }>(
        `select c.message, c.message_source as source, c.xmin::text || ' ' || c.ctid::text as v
           from ticket_comments c join portals p on p.id = c.portal_id where p.key = 'html' and c.ext_id = $1`,
        [ext],
      )
    )[0]!;
  /** Row versions of the portal's tickets and comments: a written row gets a new one. */
  const versions = async () =>
    (
      await sql<{ v: string }>(
        `select 't' || t.ext_id || ' ' || t.xmin::text || ' ' || t.ctid::text as v from tickets t
         union all select 'c' || c.ext_id || ' ' || c.xmin::text || ' ' || c.ctid::text from ticket_comments c`,
      )
    )
      .map((r) => r.v)
      .sort();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    // Each test starts from the document as imported.
    await importDocument(t.ctx, document());
    vi.mocked(sanitizeHtml).mockClear();
  });

  it('stores the sanitiser output with the digest of its source, and sanitises nothing again unchanged', async () => {
    const doc = document();
    const [first, second] = ticketsOf(doc) as [AnyObj, AnyObj];
    expect(await ticket(first.id)).toMatchObject({
      description: sanitizeHtml(MESSY),
      source: htmlSourceDigest(MESSY),
    });
    expect(sanitizeHtml(MESSY)).not.toBe(MESSY);
    expect(await comment(second.comments[0].id)).toMatchObject({
      message: sanitizeHtml(MESSY),
      source: htmlSourceDigest(MESSY),
    });
    vi.mocked(sanitizeHtml).mockClear();

    const before = await versions();
    await importDocument(t.ctx, doc);
    expect(sanitised()).toEqual([]);
    expect(await versions()).toEqual(before);
  });

  it('sanitises a changed fragment and writes its row alone, with the output, never the input', async () => {
    const doc = document();
    const [first, second] = ticketsOf(doc) as [AnyObj, AnyObj];
    first.description = HOSTILE;
    second.comments[2].message = `<div>${HOSTILE}</div>`;
    const before = new Set(await versions());
    await importDocument(t.ctx, doc);

    expect(sanitised().sort()).toEqual([HOSTILE, `<div>${HOSTILE}</div>`].sort());
    const stored = await ticket(first.id);
    expect(stored).toMatchObject({ description: sanitizeHtml(HOSTILE), source: htmlSourceDigest(HOSTILE) });
    expect(stored.description).not.toMatch(/onclick|onerror|<script/i);
    const message = await comment(second.comments[2].id);
    expect(message.message).toBe(sanitizeHtml(`<div>${HOSTILE}</div>`));
    expect(message.message).not.toMatch(/onclick|onerror|<script/i);
    // One ticket and one comment written (the comment's ticket keeps its words: a trigger rewrites it).
    const written = (await versions()).filter((v) => !before.has(v)).map((v) => v.split(' ')[0] ?? v);
    expect(written.filter((v) => v.startsWith('c'))).toEqual([`c${second.comments[2].id}`]);
    expect(written).toContain(`t${first.id}`);
  });

  it('sanitises again HTML that another writer stored, even when the document sends that very HTML', async () => {
    const doc = document();
    const [first, second] = ticketsOf(doc) as [AnyObj, AnyObj];
    // Another writer stores HTML without naming its source (here: unsanitised), or keeping the old one.
    await sql(
      `update tickets t set description = $1 from portals p where p.id = t.portal_id and p.key = 'html' and t.ext_id = $2`,
      [HOSTILE, first.id],
    );
    await sql(
      `update ticket_comments c set message = $1, message_source = c.message_source
         from portals p where p.id = c.portal_id and p.key = 'html' and c.ext_id = $2`,
      [HOSTILE, second.comments[0].id],
    );
    expect((await ticket(first.id)).source).toBeNull();
    expect((await comment(second.comments[0].id)).source).toBeNull();

    // The document now says what is stored: equal to the stored HTML, and still to be sanitised.
    first.description = HOSTILE;
    await importDocument(t.ctx, doc);
    expect(sanitised().sort()).toEqual([HOSTILE, MESSY].sort());
    expect(await ticket(first.id)).toMatchObject({
      description: sanitizeHtml(HOSTILE),
      source: htmlSourceDigest(HOSTILE),
    });
    expect(await comment(second.comments[0].id)).toMatchObject({
      message: sanitizeHtml(MESSY),
      source: htmlSourceDigest(MESSY),
    });
  });

  it('keeps a digest while the HTML stays as it is, whoever writes the row', async () => {
    const [first] = ticketsOf(document()) as [AnyObj];
    const { source } = await ticket(first.id);
    await sql(
      `update tickets t set title = 'altro', description = t.description
         from portals p where p.id = t.portal_id and p.key = 'html' and t.ext_id = $1`,
      [first.id],
    );
    expect((await ticket(first.id)).source).toBe(source);
  });

  it('sanitises every fragment again for another sanitiser, rewriting only the digests', async () => {
    const doc = document();
    await sql(`update tickets set description_source = 'another sanitiser'`);
    await sql(`update ticket_comments set message_source = 'another sanitiser'`);
    const fragments = ticketsOf(doc).flatMap((x) => [
      x.description,
      ...x.comments.map((c: AnyObj) => c.message),
    ]);
    await importDocument(t.ctx, doc);
    expect(new Set(sanitised())).toEqual(new Set(fragments));
    for (const x of ticketsOf(doc)) {
      expect(await ticket(x.id)).toMatchObject({
        description: sanitizeHtml(x.description),
        source: htmlSourceDigest(x.description),
      });
    }
  });

  it('fails with 409, changing nothing, when the HTML changes between its check and the transaction', async () => {
    const doc = document();
    const [first, second] = ticketsOf(doc) as [AnyObj, AnyObj];
    second.title = 'Titolo nuovo';
    const err = await importDocument(t.ctx, doc, {
      onStep: async (step) => {
        if (step === 'html')
          await sql(
            `update tickets t set description = '<p>cambiata</p>' from portals p
              where p.id = t.portal_id and p.key = 'html' and t.ext_id = $1`,
            [first.id],
          );
      },
    }).catch((e: AppError) => e);
    expect(err).toMatchObject({ statusCode: 409, code: 'import_conflict' });
    expect((await ticket(first.id)).description).toBe('<p>cambiata</p>');
    const [titled] = await sql<{ title: string }>(`select title from tickets where ext_id = $1`, [second.id]);
    expect(titled!.title).not.toBe('Titolo nuovo');
  });

  it('fails with 409 when a ticket whose HTML was kept is deleted before the transaction', async () => {
    const doc = document();
    const [first] = ticketsOf(doc) as [AnyObj];
    const err = await importDocument(t.ctx, doc, {
      onStep: async (step) => {
        if (step === 'html')
          await sql(
            `delete from tickets t using portals p where p.id = t.portal_id and p.key = 'html' and t.ext_id = $1`,
            [first.id],
          );
      },
    }).catch((e: AppError) => e);
    expect(err).toMatchObject({ statusCode: 409, code: 'import_conflict' });
    // Run again, the import puts the ticket back, sanitised.
    await importDocument(t.ctx, doc);
    expect(await ticket(first.id)).toMatchObject({ description: sanitizeHtml(MESSY) });
  });
});
