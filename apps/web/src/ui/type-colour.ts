/** Parses `#rgb`, `#rrggbb`, `rgb(r, g, b)` or `hsl(h, s%, l%)`; null for anything else. */
export function parseColour(colour: string | null | undefined): [number, number, number] | null {
  if (!colour) return null;
  const c = colour.trim();
  let m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(c);
  if (m) return [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h + h, 16)) as [number, number, number];
  m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})(?:[0-9a-f]{2})?$/i.exec(c);
  if (m) return [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16)) as [number, number, number];
  m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+\s*)?\)$/i.exec(c);
  if (m) {
    const rgb = [m[1]!, m[2]!, m[3]!].map(Number);
    return rgb.every((v) => v <= 255) ? (rgb as [number, number, number]) : null;
  }
  m = /^hsla?\(\s*([\d.]+)(?:deg)?\s*,\s*([\d.]+)%\s*,\s*([\d.]+)%\s*(?:,\s*[\d.]+\s*)?\)$/i.exec(c);
  if (m) return hslToRgb(Number(m[1]), Number(m[2]) / 100, Number(m[3]) / 100);
  return null;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] | null {
  if (s > 1 || l > 1) return null;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

/** WCAG relative luminance of an sRGB colour. */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export const contrastRatio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

const BLACK = '#000000';
const WHITE = '#ffffff';

/**
 * The text colour (black or white) with the higher contrast on `background`. The better of the two is
 * always at least 4.58:1, so a badge in any type colour stays readable (WCAG AA).
 */
export function readableTextColour(background: [number, number, number]): string {
  const l = relativeLuminance(background);
  return contrastRatio(l, 1) >= contrastRatio(l, 0) ? WHITE : BLACK;
}

/** Badge colours of a ticket type: its own colour and a readable text colour, or null for the neutral badge. */
export function typeBadgeColours(
  colour: string | null | undefined,
): { background: string; text: string } | null {
  const rgb = parseColour(colour);
  if (!rgb) return null;
  return { background: `rgb(${rgb.join(', ')})`, text: readableTextColour(rgb) };
}
