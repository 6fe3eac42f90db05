import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HTML_POLICY_REVISION } from '@sportello/contracts/html-policy';
import { htmlSourceDigest, htmlToText, sanitizeHtml, sanitizerFingerprint } from './html';

describe('sanitizeHtml', () => {
  it('keeps formatting, lists and safe links', () => {
    const out = sanitizeHtml('<p><b>Ciao</b> <a href="https://x.example">link</a></p><ul><li>a</li></ul>');
    expect(out).toContain('<b>Ciao</b>');
    expect(out).toContain('href="https://x.example"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
    expect(out).toContain('<li>a</li>');
  });

  it('removes scripts, handlers and javascript: URLs', () => {
    const out = sanitizeHtml(
      '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a><svg onload=alert(4)>',
    );
    expect(out).not.toMatch(/onerror|<script|javascript:|onload|<svg/i);
  });

  it('keeps tel: links to a phone number, in the same tab, and drops tel: with anything else', () => {
    const out = sanitizeHtml(
      '<p><a href="tel:+39 051 000 0000">call</a> <a href="TEL:051-000.00(00);ext=12">b</a> ' +
        '<a href="tel:javascript:alert(1)">x</a> <a href="tel:">y</a></p>',
    );
    expect(out).toContain('<a href="tel:+39 051 000 0000">call</a>');
    expect(out).toContain('<a href="TEL:051-000.00(00);ext=12">b</a>');
    expect(out).not.toContain('javascript');
    expect(out).toContain('<a>y</a>');
  });

  it('keeps editor styles but drops dangerous CSS', () => {
    const out = sanitizeHtml(
      '<p style="text-align: center; background-image: url(http://evil)">a</p><mark style="background-color: #ff0">b</mark>',
    );
    expect(out).toContain('text-align: center');
    expect(out).not.toContain('url(');
    expect(out).toContain('background-color: #ff0');
  });

  it('allows images only from our files or raster data URLs', () => {
    expect(sanitizeHtml('<img src="https://evil.example/p.png">')).not.toContain('evil');
    expect(sanitizeHtml('<img src="/api/files/1/a.png?e=1&amp;s=x">')).toContain('/api/files/1/a.png');
    expect(sanitizeHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).not.toContain('svg');
  });
});

describe('sanitizerFingerprint and htmlSourceDigest', () => {
  it('name the policy revision, the libraries and what the probes come out as', () => {
    const fp = sanitizerFingerprint();
    expect(fp).toContain(`policy ${HTML_POLICY_REVISION}`);
    expect(fp).toMatch(/dompurify \d+\.\d+\.\d+; jsdom \d+\.\d+\.\d+; parse5 \d+\.\d+\.\d+; probes \S{22}$/);
    expect(sanitizerFingerprint()).toBe(fp);
  });

  it('digest the source with the sanitiser, not the source alone', () => {
    const html = '<p>Ciao <b>mondo</b></p>';
    const digest = htmlSourceDigest(html);
    expect(digest).toBe(htmlSourceDigest(html));
    expect(digest).not.toBe(htmlSourceDigest(`${html} `));
    expect(digest).not.toBe(createHash('sha256').update(html).digest('base64'));
    expect(digest).toBe(createHash('sha256').update(`${sanitizerFingerprint()}\0${html}`).digest('base64'));
  });

  it('ask for a new policy revision whenever the policy changes', () => {
    // The import keeps a stored description or message unsanitised while its source digest is the same
    // (import.html.ts). After any change of html-policy.ts that may change what survives, raise
    // HTML_POLICY_REVISION (the next import then sanitises every fragment again), then update this hash.
    const file = new URL('../../../../packages/contracts/src/html-policy.ts', import.meta.url);
    const text = readFileSync(fileURLToPath(file), 'utf8');
    expect(createHash('sha256').update(text).digest('hex')).toBe(POLICY_SHA256);
  });
});

describe('htmlToText', () => {
  it('answers the text of each fragment alone, entities read, spaces collapsed, scripts dropped', () => {
    expect(htmlToText('<p>Ciao&nbsp;<b>Marco</b>,</p>\n<p>a &amp; b &lt;c&gt;</p>')).toBe(
      'Ciao Marco, a & b <c>',
    );
    // One document serves every call: nothing of the previous fragment is left in it.
    expect(htmlToText('<ul><li>uno</li><li>due</li></ul><script>alert(1)</script>')).toBe('unodue');
    expect(htmlToText('')).toBe('');
    expect(htmlToText('</body><p>dopo</p>')).toBe('dopo');
  });
});

const POLICY_SHA256 = 'c47d4d19b94a6b6b4acadab466f972e519df4199d9f3db2a80b5e76899078d4b';
