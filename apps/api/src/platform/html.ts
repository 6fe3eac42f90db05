import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { installHtmlPolicy, sanitizeWith, type PurifierLike } from '@sportello/contracts/html-policy';

let purifier: PurifierLike | undefined;

function getPurifier(): PurifierLike {
  if (!purifier) {
    const { window } = new JSDOM('');
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
  const { window } = new JSDOM(`<body>${sanitizeHtml(html)}</body>`);
  return (window.document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
