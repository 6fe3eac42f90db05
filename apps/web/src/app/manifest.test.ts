import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME_COLOR } from '../lib/branding';

const publicDir = join(__dirname, '../../public');
const manifest = JSON.parse(readFileSync(join(publicDir, 'manifest.webmanifest'), 'utf8')) as {
  id: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
};

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): [number, number] {
  const b = readFileSync(join(publicDir, path));
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('the web app manifest (installable app)', () => {
  it('names an app that opens standalone at the portal chooser', () => {
    expect(manifest).toMatchObject({ id: '/', start_url: '/', display: 'standalone' });
  });

  it('carries icons of 192 and 512 px and a maskable one, each of the size it states', () => {
    const any = manifest.icons.filter((i) => i.purpose === 'any').map((i) => i.sizes);
    expect(any).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) expect(pngSize(icon.src).join('x'), icon.src).toBe(icon.sizes);
  });

  it('starts in the colour the page declares until a portal brings its own (lib/branding)', () => {
    expect(manifest.theme_color).toBe(DEFAULT_THEME_COLOR);
    const html = readFileSync(join(__dirname, '../../index.html'), 'utf8');
    expect(html).toContain(`<meta name="theme-color" content="${DEFAULT_THEME_COLOR}" />`);
  });
});
