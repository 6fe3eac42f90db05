/**
 * Colour arithmetic of a portal's branding, without zod and without a DOM: the web app's theme and header
 * (lib/branding.ts, which adds the browser's reading of named colours) and the server's sign-in page
 * (modules/portals/sign-in-page.ts), which paints the same header and button before the app has loaded.
 */
import { DEFAULT_HEADER_COLOR, isUnsetBaseColor } from './branding';

/** Reads a colour notation parseColor does not know (`teal`, `oklch()`) as `rgb(…)`, or null. */
export type ColorResolver = (css: string) => string | null;
const noResolver: ColorResolver = () => null;

/** An opaque colour as 0–255 channels. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function hslToRgb(h: number, s: number, l: number): Rgb {
  // h in degrees, s and l in 0–1.
  const hue = ((h % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    hue < 60
      ? [c, x, 0]
      : hue < 120
        ? [x, c, 0]
        : hue < 180
          ? [0, c, x]
          : hue < 240
            ? [0, x, c]
            : hue < 300
              ? [x, 0, c]
              : [c, 0, x];
  return { r: Math.round((r + m) * 255), g: Math.round((g + m) * 255), b: Math.round((b + m) * 255) };
}

function rgbToHsl({ r, g, b }: Rgb): { h: number; s: number; l: number } {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const min = Math.min(rr, gg, bb);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h =
    max === rr ? (gg - bb) / d + (gg < bb ? 6 : 0) : max === gg ? (bb - rr) / d + 2 : (rr - gg) / d + 4;
  return { h: h * 60, s, l };
}

const num = (v: string, scale: number) => (v.endsWith('%') ? (parseFloat(v) / 100) * scale : parseFloat(v));

/**
 * Parses the CSS colour notations a back office writes (`#rgb`, `#rrggbb` with optional alpha, `rgb()`,
 * `hsl()`, comma or space separated). Alpha is ignored: the header is painted opaque. Anything else
 * (named colours, `oklch()`…) goes to `resolve`: the browser's reads computed styles (web lib/branding.ts),
 * the server has none and reads such a colour as unreadable.
 */
export function parseColor(input: string, resolve: ColorResolver = noResolver): Rgb | null {
  const v = input.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)?.[1];
  if (hex) {
    const full = hex.length <= 4 ? [...hex].map((ch) => ch + ch).join('') : hex;
    // Alpha digits (7–8) are ignored.
    return {
      r: parseInt(full.slice(0, 2), 16),
      g: parseInt(full.slice(2, 4), 16),
      b: parseInt(full.slice(4, 6), 16),
    };
  }
  const fn = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(v);
  if (fn) {
    const [kind = '', body = ''] = [fn[1], fn[2]];
    const [a, b, c] = body
      .replace(/\//g, ' ')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (a === undefined || b === undefined || c === undefined) return null;
    if ([a, b, c].some((p) => Number.isNaN(parseFloat(p)))) return null;
    if (kind.startsWith('rgb')) {
      const ch = (p: string) => Math.round(clamp(num(p, 255), 0, 255));
      return { r: ch(a), g: ch(b), b: ch(c) };
    }
    // hsl(): saturation and lightness in percent, with or without the % sign.
    const pct = (p: string) => clamp(parseFloat(p) / 100, 0, 1);
    return hslToRgb(parseFloat(a), pct(b), pct(c));
  }
  const resolved = resolve(v);
  return resolved && resolved !== v ? parseColor(resolved) : null;
}

export const toHex = ({ r, g, b }: Rgb) =>
  '#' + [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('');

/** WCAG 2 relative luminance. */
export function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio, 1–21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export const WHITE: Rgb = { r: 255, g: 255, b: 255 };
export const BLACK: Rgb = { r: 0, g: 0, b: 0 };

/** True when the portal has no base colour of its own: null, empty or the back office's sentinel. */
export interface HeaderColors {
  background: string;
  /** White or black, whichever contrasts more: one of them always reaches at least 4.58:1. */
  color: string;
}

/** SPEC A2: header colour is the portal base colour, or #202124 when it is unset (or unreadable). */
export function headerColors(
  baseColor: string | null | undefined,
  resolve: ColorResolver = noResolver,
): HeaderColors {
  const parsed = isUnsetBaseColor(baseColor) ? null : parseColor(baseColor!, resolve);
  const bg = parsed ?? parseColor(DEFAULT_HEADER_COLOR)!;
  const color = contrastRatio(bg, WHITE) >= contrastRatio(bg, BLACK) ? '#ffffff' : '#000000';
  return { background: toHex(bg), color };
}

/** Lightness of the ten Mantine shades, light to dark; the base hue and saturation are kept. */
const SHADE_LIGHTNESS = [0.96, 0.91, 0.83, 0.74, 0.64, 0.55, 0.46, 0.38, 0.3, 0.2];

/** Mantine's ten-shade tuple from one colour. */
export function brandPalette(base: Rgb): string[] {
  const { h, s } = rgbToHsl(base);
  return SHADE_LIGHTNESS.map((l) => toHex(hslToRgb(h, s, l)));
}

/**
 * The lightest shade from 6 on that reaches AA (4.5:1) against white, so filled buttons (white text)
 * and links (shade on white) are both readable.
 */
export function readablePrimaryShade(palette: readonly string[]): 6 | 7 | 8 | 9 {
  for (let i = 6; i < 9; i++) {
    const shade = parseColor(palette[i] ?? '');
    if (shade && contrastRatio(shade, WHITE) >= 4.5) return i as 6 | 7 | 8;
  }
  return 9;
}

/** The lightest of Mantine's dark surfaces text sits on (dark-6: cards, hovered rows). */
export const DARK_SURFACE = '#2e2e2e';

/**
 * Dark mode: the darkest shade from 6 down that reaches AA (4.5:1) against the dark surfaces, so links
 * and outlines in the portal colour stay legible there; filled buttons then take black or white text by
 * contrast (the theme's autoContrast and luminanceThreshold).
 */
export function readableDarkShade(palette: readonly string[]): 0 | 1 | 2 | 3 | 4 | 5 | 6 {
  const surface = parseColor(DARK_SURFACE)!;
  for (let i = 6; i > 0; i--) {
    const shade = parseColor(palette[i] ?? '');
    if (shade && contrastRatio(shade, surface) >= 4.5) return i as 1 | 2 | 3 | 4 | 5 | 6;
  }
  return 0;
}

/** Mantine's light-variant background in dark mode (a light button, badge, alert): shade 9 darkened by half. */
export function darkLightBackground(palette: readonly string[]): Rgb {
  const c = parseColor(palette[9] ?? '') ?? { r: 0, g: 0, b: 0 };
  return { r: Math.round(c.r * 0.5), g: Math.round(c.g * 0.5), b: Math.round(c.b * 0.5) };
}

/**
 * Dark mode: the words of a light-variant button, badge or alert in the portal colour. readableDarkShade
 * reads on the dark surfaces but not always on the variant's own background, which is bluer and darker
 * (the default blue's shade 4 is 4.37:1 on it: the desk's "Log time" failed axe): the darkest shade up to
 * readableDarkShade that reaches 4.5:1 on both.
 */
export function readableDarkLightShade(palette: readonly string[]): number {
  const surface = parseColor(DARK_SURFACE)!;
  const tint = darkLightBackground(palette);
  for (let i = readableDarkShade(palette); i > 0; i--) {
    const shade = parseColor(palette[i] ?? '');
    if (shade && contrastRatio(shade, surface) >= 4.5 && contrastRatio(shade, tint) >= 4.5) return i;
  }
  return 0;
}

/**
 * The luminance above which black text contrasts more than white (WCAG): where the two ratios meet,
 * (L + 0.05) / 0.05 = 1.05 / (L + 0.05).
 */
export const BLACK_TEXT_LUMINANCE = Math.sqrt(1.05 * 0.05) - 0.05;

// The portal whose branding is showing (the layout's contact, or the portal named on a public page).
