import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './html';

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
