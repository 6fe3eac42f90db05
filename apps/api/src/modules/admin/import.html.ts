import { inArray, sql } from 'drizzle-orm';
import type { ImportDocument } from '@sportello/contracts';
import type { Db } from '../../db/client';
import { portals } from '../../db/schema';
import { htmlSourceDigest, sanitizeHtml } from '../../platform/html';
import { chunk } from './import.files';

/** The sanitised form of an HTML fragment of the document (prepared before the transaction). */
export type CleanHtml = (html: string | null | undefined) => string;

/**
 * What a writer stores for one HTML fragment of a ticket or comment: the sanitised HTML and the digest of
 * its source (`htmlSourceDigest`). `html` is null when the stored row holds the sanitised form of this
 * very source already: the writer then keeps the stored HTML, and the database checks that its source is
 * still this one (`import_kept_html`, migration 0031). A writer that knows no source (`source` null)
 * leaves the stored source alone; a changed HTML without a source forgets it (trigger of 0031).
 */
export interface HtmlValue {
  html: string | null;
  source: string | null;
}

/** The HTML of the document's tickets and comments, prepared before the transaction. */
export interface DocumentHtml {
  /** The sanitised portal pages (footer, privacy). */
  clean: CleanHtml;
  /** A ticket description or comment message (their source digests are checked apart, so one function). */
  fragment(html: string | null | undefined): HtmlValue;
}

/** Longest stretch of synchronous sanitising before other requests get a turn. */
const SLICE_MS = 20;
/** Fragments compared with the stored sources per statement. */
const CHECK_BATCH = 10_000;

type Kind = 'tickets' | 'ticket_comments';
const SOURCE_COLUMN: Record<Kind, string> = {
  tickets: 'description_source',
  ticket_comments: 'message_source',
};

/**
 * The fragments of one kind in one portal (ext id and HTML) whose stored row was not sanitised from this
 * HTML by this sanitiser: the ones to sanitise. One statement per batch; only the differing come back.
 */
async function changedFragments(
  db: Db,
  portalId: number,
  kind: Kind,
  list: { ext: number; html: string }[],
): Promise<string[]> {
  const out: string[] = [];
  for (const part of chunk(list, CHECK_BATCH)) {
    const json = JSON.stringify(part.map((f, i) => ({ i, e: f.ext, s: htmlSourceDigest(f.html) })));
    const r = (await db.execute(sql`
      select d.i from json_to_recordset(${json}::json) as d(i int, e bigint, s text)
      where not exists (
        select 1 from ${sql.identifier(kind)} x
        where x.portal_id = ${portalId}::int and x.ext_id = d.e and x.${sql.identifier(SOURCE_COLUMN[kind])} = d.s
      )`)) as unknown as { rows: { i: number | string }[] };
    for (const row of r.rows) out.push(part[Number(row.i)]!.html);
  }
  return out;
}

/**
 * Prepares every HTML fragment of the document: footer and privacy pages, ticket descriptions and comment
 * messages. Sanitising is the slowest step of an import (jsdom: ~0.2-1 ms a fragment), so it runs before
 * the transaction, once per distinct fragment, yielding to the event loop every few ms so a large import
 * does not stall the server; and a description or message whose stored row was sanitised from the same
 * HTML by the same sanitiser is not sanitised again (a re-import of an unchanged portal sanitises
 * nothing). The stored HTML is the sanitiser's output, not its input: comparing the document's HTML
 * with it would be unsound (the input is rarely a fixed point of the sanitiser, and an equal one proves
 * nothing about another sanitiser), so the rows keep a digest of their source (migration 0031).
 */
export async function prepareDocumentHtml(db: Db, doc: ImportDocument): Promise<DocumentHtml> {
  const keys = (doc.portals ?? []).map((p) => p.webPortalKey);
  const portalIds = new Map(
    keys.length === 0
      ? []
      : (
          await db
            .select({ id: portals.id, key: portals.key })
            .from(portals)
            .where(inArray(portals.key, keys))
        ).map((r) => [r.key, r.id]),
  );
  const fragments = new Set<string>();
  const add = (html: string | null | undefined) => {
    if (html) fragments.add(html);
  };
  for (const p of doc.portals ?? []) {
    add(p.footerCustomHtml);
    add(p.privacyHtml);
    const portalId = portalIds.get(p.webPortalKey);
    const descriptions: { ext: number; html: string }[] = [];
    const messages: { ext: number; html: string }[] = [];
    for (const c of p.companies ?? [])
      for (const t of c.tickets ?? []) {
        if (t.description) descriptions.push({ ext: t.id, html: t.description });
        for (const cm of t.comments ?? []) if (cm.message) messages.push({ ext: cm.id, html: cm.message });
      }
    if (portalId === undefined) {
      for (const f of descriptions) fragments.add(f.html);
      for (const f of messages) fragments.add(f.html);
    } else {
      for (const html of await changedFragments(db, portalId, 'tickets', descriptions)) fragments.add(html);
      for (const html of await changedFragments(db, portalId, 'ticket_comments', messages))
        fragments.add(html);
    }
  }
  const clean = new Map<string, string>();
  let sliceStart = performance.now();
  for (const html of fragments) {
    clean.set(html, sanitizeHtml(html));
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return {
    clean: (html) => {
      if (!html) return '';
      const out = clean.get(html);
      if (out === undefined) throw new Error('an HTML fragment was not prepared');
      return out;
    },
    fragment: (html) =>
      html ? { html: clean.get(html) ?? null, source: htmlSourceDigest(html) } : { html: '', source: null },
  };
}
