import { cleanup, render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SafeHtml, sanitizeHtml } from './safe-html';

afterEach(cleanup);

describe('sanitizeHtml', () => {
  it('removes scripts, event handlers and javascript: links', () => {
    const out = sanitizeHtml(
      '<p onclick="x()">Hi<script>window.__xss=1</script><img src=x onerror="window.__xss=1">' +
        '<a href="javascript:alert(1)">l</a><iframe src="https://evil"></iframe></p>',
    );
    expect(out).not.toMatch(/script|onerror|onclick|javascript|iframe/i);
    expect(out).toContain('Hi');
  });

  it('keeps the formatting the editor produces', () => {
    const html =
      '<h2>T</h2><p style="text-align: center"><strong>b</strong> <em>i</em> ' +
      '<span style="background-color: #fff3bf">m</span></p><ul><li><p>x</p><ul><li><p>y</p></li></ul></li></ul>';
    const out = sanitizeHtml(html);
    expect(out).toContain('<h2>T</h2>');
    expect(out).toContain('text-align: center');
    expect(out).toContain('background-color: #fff3bf');
    expect(out).toContain('<strong>b</strong>');
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

  it('drops dangerous CSS and foreign image sources, keeps our own files', () => {
    const out = sanitizeHtml(
      '<p style="background-image: url(https://evil/x); color: red">a</p>' +
        '<img src="https://tracker.example/p.gif"><img src="/api/files/5/a.png?e=1&amp;s=2" alt="ok">',
    );
    expect(out).not.toContain('url(');
    expect(out).toContain('color: red');
    expect(out).not.toContain('tracker.example');
    expect(out).toContain('src="/api/files/5/a.png?e=1&amp;s=2"');
  });

  it('opens links in a new tab without an opener, and gives the same answer every time (hooks installed once)', () => {
    const first = sanitizeHtml('<a href="https://example.com">x</a>');
    const second = sanitizeHtml('<a href="https://example.com">x</a>');
    expect(first).toBe(second);
    expect(first).toContain('target="_blank"');
    expect(first).toContain('rel="noopener noreferrer nofollow"');
  });

  it('answers an empty string for null and empty input', () => {
    expect(sanitizeHtml(null)).toBe('');
    expect(sanitizeHtml('')).toBe('');
  });
});

describe('SafeHtml', () => {
  it('renders the cleaned markup and no script element', () => {
    const { container } = render(
      <MantineProvider>
        <SafeHtml
          html={
            '<p>Hello <b>there</b></p><script>window.__xss=1</script><img src=x onerror="window.__xss=1">'
          }
        />
      </MantineProvider>,
    );
    expect(container.textContent).toContain('Hello there');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect((window as { __xss?: number }).__xss).toBeUndefined();
  });
});
