import type { ImportDocument } from '@sportello/contracts';
import { sanitizeHtml } from '../../platform/html';

/** The sanitised form of an HTML fragment of the document (prepared before the transaction). */
export type CleanHtml = (html: string | null | undefined) => string;

/** Longest stretch of synchronous sanitising before other requests get a turn. */
const SLICE_MS = 20;

/**
 * Sanitises every HTML fragment of the document: footer and privacy pages, ticket descriptions and
 * comment messages. It is the slowest step of an import (jsdom: ~0.3-1 ms a fragment), so it runs
 * before the transaction, once per distinct fragment, yielding to the event loop every few ms so a
 * large import does not stall the server.
 */
export async function sanitizeDocumentHtml(doc: ImportDocument): Promise<CleanHtml> {
  const fragments = new Set<string>();
  const add = (html: string | null | undefined) => {
    if (html) fragments.add(html);
  };
  for (const p of doc.portals ?? []) {
    add(p.footerCustomHtml);
    add(p.privacyHtml);
    for (const c of p.companies ?? [])
      for (const t of c.tickets ?? []) {
        add(t.description);
        for (const cm of t.comments ?? []) add(cm.message);
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
  return (html) => {
    if (!html) return '';
    const out = clean.get(html);
    if (out === undefined) throw new Error('an HTML fragment was not prepared');
    return out;
  };
}
