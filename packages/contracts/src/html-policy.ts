/**
 * The one HTML allow-list, applied by the server on write (DOMPurify over jsdom) and by the browser on
 * display (DOMPurify over window). Kept free of DOM types so both sides can import it.
 */

export const ALLOWED_TAGS = [
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  's',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
  'font',
];

export const ALLOWED_ATTR = [
  'href',
  'src',
  'alt',
  'title',
  'style',
  'colspan',
  'rowspan',
  'color',
  'data-color',
];

/** CSS properties the editor produces (alignment, indent, colours, emphasis); anything else is dropped. */
const ALLOWED_CSS = new Set([
  'color',
  'background-color',
  'text-align',
  'margin-left',
  'padding-left',
  'font-weight',
  'font-style',
  'text-decoration',
]);

const SAFE_CSS_VALUE = /^[#\w\s.,%()-]*$/;

/** Keeps only allowed declarations with plain values (no url(), expression(), escapes or comments). */
export function cleanStyle(style: string): string {
  return style
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => {
      const i = d.indexOf(':');
      if (i < 0) return null;
      const prop = d.slice(0, i).trim().toLowerCase();
      const value = d.slice(i + 1).trim();
      if (!ALLOWED_CSS.has(prop) || !SAFE_CSS_VALUE.test(value) || /url|expression|javascript/i.test(value))
        return null;
      return `${prop}: ${value}`;
    })
    .filter((d): d is string => d !== null)
    .join('; ');
}

/** A phone number as RFC 3966 writes it (digits, `+`, visual separators, an extension), nothing else. */
const TEL = /^tel:\+?[\d\s().-]*\d[\d\s().-]*(;ext=\d+)?$/i;
const isTel = (href: string) => TEL.test(href.trim());
/** Web pages, e-mail addresses and phone numbers (`tel:`, which a phone dials from a ticket). */
export const isSafeHref = (href: string) => /^(https?:|mailto:)/i.test(href.trim()) || isTel(href);
/** Images only from the portal's own signed file URLs or inline data of a raster type. */
export const isSafeImageSrc = (src: string) =>
  /^\/api\/files\//.test(src.trim()) ||
  /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]+$/i.test(src.trim());

/** The subset of DOMPurify's API we use; typed structurally so this package needs no DOM types. */
export interface PurifierLike {
  sanitize(html: string, config?: Record<string, unknown>): unknown;
  setConfig(config: Record<string, unknown>): void;
  addHook(hook: 'afterSanitizeAttributes', cb: (node: ElementLike) => void): void;
}
export interface ElementLike {
  tagName?: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
}

/**
 * Revision of this policy. The import keeps the sanitised HTML of an unchanged fragment without
 * sanitising it again while the sanitiser is the same (`apps/api/src/platform/html.ts`,
 * `sanitizerFingerprint`): raise it with any change of what survives, so the next import sanitises
 * every fragment again. A test pins this file's text and asks for it.
 */
export const HTML_POLICY_REVISION = 1;

export const PURIFY_CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
  RETURN_TRUSTED_TYPE: false,
};

const SANITIZE_CONFIG = { ...PURIFY_CONFIG, ADD_ATTR: ['target', 'rel'] };

/**
 * Installs our hooks and configuration on a DOMPurify instance (once per instance). The configuration is
 * set once rather than passed to every sanitize call, which re-parses it each time (20–45 % slower).
 */
export function installHtmlPolicy(purify: PurifierLike): void {
  purify.setConfig(SANITIZE_CONFIG);
  purify.addHook('afterSanitizeAttributes', (node) => {
    const tag = node.tagName?.toLowerCase();
    if (node.hasAttribute('style')) {
      const clean = cleanStyle(node.getAttribute('style') ?? '');
      if (clean) node.setAttribute('style', clean);
      else node.removeAttribute('style');
    }
    if (tag === 'a') {
      const href = node.getAttribute('href');
      if (href !== null && !isSafeHref(href)) node.removeAttribute('href');
      // A phone number opens the dialler: no new tab for it.
      if (node.hasAttribute('href') && !isTel(node.getAttribute('href')!)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    }
    if (tag === 'img') {
      const src = node.getAttribute('src');
      if (src === null || !isSafeImageSrc(src)) node.removeAttribute('src');
    } else if (node.hasAttribute('src')) {
      node.removeAttribute('src');
    }
  });
}

/** `purify.sanitize` with our policy; the caller installs it once with installHtmlPolicy. */
export function sanitizeWith(purify: PurifierLike, html: string): string {
  return String(purify.sanitize(html));
}
