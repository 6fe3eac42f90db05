import { describe, expect, it } from 'vitest';
import {
  BLACK_TEXT_LUMINANCE,
  brandPalette,
  contrastRatio,
  DARK_SURFACE,
  luminance,
  parseColor,
  readableDarkShade,
} from './branding';

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
