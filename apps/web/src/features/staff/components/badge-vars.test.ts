// The desk's badges against a set of portal colours (issue 28's done-when: "Waiting for the customer"
// was 3.3:1): the words of every tone reach 4.5:1 on white, on their own tint and on a focused row's
// tint, in light and dark, whatever colour the branding editor was given.
import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import {
  brandPalette,
  contrastRatio,
  DARK_SURFACE,
  parseColor,
  readablePrimaryShade,
  type Rgb,
} from '../../../lib/branding';
import { PORTAL_COLOURS } from '../../../lib/branding-samples';
import { BADGE_TEXT_SHADE, PRIORITY_BADGES, SLA_BADGES, type BadgeTone } from './badge-vars';

const rgb = (css: string) => parseColor(css, () => null)!;
const WHITE = rgb('#ffffff');
/** Mantine's dark body (dark-7) and its lightest surface text sits on. */
const DARK_BODY = rgb(DEFAULT_THEME.colors.dark[7]);
const blend = (fg: Rgb, alpha: number, bg: Rgb): Rgb => ({
  r: Math.round(fg.r * alpha + bg.r * (1 - alpha)),
  g: Math.round(fg.g * alpha + bg.g * (1 - alpha)),
  b: Math.round(fg.b * alpha + bg.b * (1 - alpha)),
});

const TONES: BadgeTone[] = ['brand', 'gray'];

describe('desk badges on every portal colour', () => {
  it("writes Mantine's shade 6 words under 4.5:1 (what failed); an alarm is white on red-9", () => {
    expect(contrastRatio(rgb(DEFAULT_THEME.colors.gray[6]), WHITE)).toBeLessThan(4.5);
    expect(contrastRatio(WHITE, rgb(DEFAULT_THEME.colors.red[9]))).toBeGreaterThanOrEqual(4.5);
  });

  it('draws the priorities filled, in light and dark alike: urgent white on red-9, high black on orange-4', () => {
    const [urgent, high] = [PRIORITY_BADGES.urgent, PRIORITY_BADGES.high];
    const shade = (c: string) => {
      const [name, n] = c.split('.') as [keyof typeof DEFAULT_THEME.colors, string];
      return rgb((DEFAULT_THEME.colors[name] ?? [])[Number(n)]!);
    };
    expect(contrastRatio(rgb(urgent.text), shade(urgent.color))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(rgb(high.text), shade(high.color))).toBeGreaterThanOrEqual(4.5);
    // Mantine's own shade 9 of orange is not enough on white: why high is not a light badge.
    expect(contrastRatio(rgb(DEFAULT_THEME.colors.orange[9]), WHITE)).toBeLessThan(4.5);
  });

  it('draws the service-level alarms filled: overdue white on red-9, soon black on orange-4', () => {
    const shade = (c: string) => {
      const [name, n] = c.split('.') as [keyof typeof DEFAULT_THEME.colors, string];
      return rgb((DEFAULT_THEME.colors[name] ?? [])[Number(n)]!);
    };
    for (const tone of Object.values(SLA_BADGES))
      expect(contrastRatio(rgb(tone.text), shade(tone.color)), tone.color).toBeGreaterThanOrEqual(4.5);
  });

  for (const colour of PORTAL_COLOURS) {
    it(`keeps 4.5:1 with the portal colour ${colour ?? '(none)'}`, () => {
      const palette = colour ? brandPalette(rgb(colour)) : [...DEFAULT_THEME.colors.blue];
      const primary = rgb(palette[readablePrimaryShade(palette)]!);
      const focusedRow = blend(primary, 0.1, WHITE);
      const darkRow = blend(primary, 0.15, DARK_BODY);
      for (const tone of TONES) {
        const shades = tone === 'brand' ? palette : [...DEFAULT_THEME.colors[tone]];
        // Mantine's light and outline badges tint with the primary shade (brand) or shade 6.
        const tint = tone === 'brand' ? primary : rgb(shades[6]!);
        const light = rgb(shades[BADGE_TEXT_SHADE.light]!);
        for (const [where, bg] of [
          ['white', WHITE],
          ['its tint', blend(tint, 0.1, WHITE)],
          ['a focused row', blend(tint, 0.1, focusedRow)],
        ] as const)
          expect(contrastRatio(light, bg), `${tone} on ${where}`).toBeGreaterThanOrEqual(4.5);
        const dark = rgb(shades[BADGE_TEXT_SHADE.dark]!);
        for (const [where, bg] of [
          ['the dark body', DARK_BODY],
          ['a dark surface', rgb(DARK_SURFACE)],
          ['its dark tint', blend(tint, 0.15, DARK_BODY)],
          ['a focused dark row', blend(tint, 0.15, darkRow)],
        ] as const)
          expect(contrastRatio(dark, bg), `${tone} on ${where} (dark)`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }
});
