import { createRequire } from 'node:module';
import createDOMPurify from 'dompurify';
import type { JSDOM as JsdomClass } from 'jsdom';
import { installHtmlPolicy, sanitizeWith, type PurifierLike } from '@sportello/contracts/html-policy';

const require = createRequire(import.meta.url);
let jsdom: typeof JsdomClass | undefined;
let purifier: PurifierLike | undefined;

/**
 * jsdom adds ~90 MB to the process: it is loaded by the first HTML to sanitise, not at start (a server
 * that only reads never loads it). Synchronous require keeps sanitizeHtml synchronous for its callers.
 */
function getJsdom(): typeof JsdomClass {
  jsdom ??= (require('jsdom') as typeof import('jsdom')).JSDOM;
  return jsdom;
}

function getPurifier(): PurifierLike {
  if (!purifier) {
    const { window } = new (getJsdom())('');
    const p = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    installHtmlPolicy(p as unknown as PurifierLike);
    purifier = p as unknown as PurifierLike;
  }
  return purifier;
}

/**
 * Sanitises user and back-office HTML on write with the shared allow-list (formatting, lists, tables,
 * http/https/mailto links, images from our own files or raster data URLs).
 */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  return sanitizeWith(getPurifier(), html);
}

/** Plain text of an HTML fragment (e-mail bodies, search). */
export function htmlToText(html: string): string {
  const { window } = new (getJsdom())(`<body>${sanitizeHtml(html)}</body>`);
  return (window.document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
