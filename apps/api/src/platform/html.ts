import { createHash, hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import createDOMPurify from 'dompurify';
import type { JSDOM as JsdomClass } from 'jsdom';
import {
  HTML_POLICY_REVISION,
  installHtmlPolicy,
  sanitizeWith,
  type PurifierLike,
} from '@sportello/contracts/html-policy';

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

/**
 * Fragments that exercise every rule of the policy and the parser's corners (styles, links, phone
 * numbers, images, tables, foreign content, entities, line ends): their sanitised form is part of the
 * fingerprint, so a sanitiser that answers differently is another sanitiser even if no version moved.
 */
const PROBES = [
  '<p style="color: red; position: fixed; background-color: url(x)">a <b>b</b> &amp; &nbsp; &lt;</p>',
  '<a href="javascript:alert(1)">x</a><a href="https://example.com" target="_self">y</a><a href="tel:+39 02 1234">z</a>',
  '<img src="https://example.com/x.png"><img src="/api/files/1" alt="a"><img src="data:image/png;base64,AAAA">',
  '<script>alert(1)</script><style>p{}</style><iframe src="https://example.com"></iframe><input value="x">',
  '<table><tr><td colspan="2" rowspan="x">x</td></tr></table><ul><li>1<ol><li>2</ol></ul>',
  '<svg><g onload="alert(1)"></g></svg><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<font color="red" data-x="1" aria-label="l">t</font><br>\r\n<div title="&quot;x" class="c" id="i">d</div>',
  '<p>unclosed <b>bold <i>both</b> italic</p></p><h7>x</h7><mark data-color="#ff0">m</mark>',
];

/** The version of an installed package, read from its package.json (or `unknown`). */
function packageVersion(name: string, from?: string): string {
  try {
    let dir = dirname(require.resolve(name, from ? { paths: [from] } : undefined));
    for (;;) {
      const file = join(dir, 'package.json');
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? 'unknown';
      }
      const up = dirname(dir);
      if (up === dir) return 'unknown';
      dir = up;
    }
  } catch {
    return 'unknown';
  }
}

let fingerprint: string | undefined;

/**
 * Names the sanitiser: the policy's revision, the versions of DOMPurify, jsdom and its HTML parser, and
 * the sanitised form of the probes. The import records `htmlSourceDigest` of each fragment it sanitises
 * and keeps a stored fragment unsanitised only while the digest, and so this fingerprint, is the same.
 */
export function sanitizerFingerprint(): string {
  if (fingerprint === undefined) {
    const purify = getPurifier();
    const jsdomDir = dirname(require.resolve('jsdom'));
    const probes = createHash('sha256');
    for (const html of PROBES) probes.update(sanitizeWith(purify, html)).update('\0');
    fingerprint = [
      `policy ${HTML_POLICY_REVISION}`,
      `dompurify ${(purify as { version?: string }).version ?? 'unknown'}`,
      `jsdom ${packageVersion('jsdom')}`,
      `parse5 ${packageVersion('parse5', jsdomDir)}`,
      `probes ${probes.digest('base64url').slice(0, 22)}`,
    ].join('; ');
  }
  return fingerprint;
}

/** Digest of a fragment as this sanitiser reads it (see sanitizerFingerprint). */
export function htmlSourceDigest(html: string): string {
  return hash('sha256', `${sanitizerFingerprint()}\0${html}`, 'base64');
}

let textBody: InstanceType<typeof JsdomClass>['window']['document']['body'] | undefined;

/**
 * Plain text of an HTML fragment (e-mail bodies, search). One document serves every call: a new jsdom
 * window each time cost more than the rest of writing a message received by e-mail (bench/email.ts).
 */
export function htmlToText(html: string): string {
  textBody ??= new (getJsdom())('').window.document.body;
  textBody.innerHTML = sanitizeHtml(html);
  const text = textBody.textContent ?? '';
  textBody.textContent = '';
  return text.replace(/\s+/g, ' ').trim();
}
