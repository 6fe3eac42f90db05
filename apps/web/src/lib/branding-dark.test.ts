import { describe, expect, it } from 'vitest';
import {
  BLACK_TEXT_LUMINANCE,
  brandPalette,
  contrastRatio,
  DARK_SURFACE,
  darkLightBackground,
  luminance,
  parseColor,
  readableDarkLightShade,
  readableDarkShade,
} from './branding';
import { PORTAL_COLOURS } from './branding-samples';
import { DEFAULT_THEME } from '@mantine/core';

const rgb = (c: string) => parseColor(c, () => null)!;

describe('dark mode keeps the portal colour legible', () => {
  it.each(['#1c7ed6', '#0b3d91', '#7a0019', '#2e7d32', '#ffd400', '#000080', '#202124', '#00a3a3'])(
    'picks a shade of %s that reads 4.5:1 on the dark surfaces, the darkest up to 6 that does',
    (base) => {
      const palette = brandPalette(rgb(base));
      const i = readableDarkShade(palette);
      expect(contrastRatio(rgb(palette[i]!), rgb(DARK_SURFACE))).toBeGreaterThanOrEqual(4.5);
      // Below 6 (the light theme's filled shade), a darker shade would not be readable there.
      if (i < 6) expect(contrastRatio(rgb(palette[i + 1]!), rgb(DARK_SURFACE))).toBeLessThan(4.5);
    },
  );

  it("writes light variants' words 4.5:1 on the dark surfaces and on Mantine's dark light background", () => {
    // The default blue's readableDarkShade (4) is 4.37:1 on that background: what failed axe.
    const blue = [...DEFAULT_THEME.colors.blue];
    expect(darkLightBackground(blue)).toEqual(rgb('#0c3256'));
    expect(contrastRatio(rgb(blue[readableDarkShade(blue)]!), rgb('#0c3256'))).toBeLessThan(4.5);
    for (const colour of PORTAL_COLOURS) {
      const palette = colour ? brandPalette(rgb(colour)) : blue;
      const words = rgb(palette[readableDarkLightShade(palette)]!);
      expect(contrastRatio(words, rgb(DARK_SURFACE)), `${colour} on the surface`).toBeGreaterThanOrEqual(4.5);
      expect(
        contrastRatio(words, darkLightBackground(palette)),
        `${colour} on its tint`,
      ).toBeGreaterThanOrEqual(4.5);
      expect(readableDarkLightShade(palette)).toBeLessThanOrEqual(readableDarkShade(palette));
    }
  });

  it('puts black text on a filled shade exactly where black contrasts more than white', () => {
    const white = rgb('#ffffff');
    const black = rgb('#000000');
    for (let g = 0; g <= 255; g += 5) {
      const c = { r: g, g, b: g };
      const blackWins = contrastRatio(c, black) > contrastRatio(c, white);
      expect(luminance(c) > BLACK_TEXT_LUMINANCE, `grey ${g}`).toBe(blackWins);
    }
  });
});
