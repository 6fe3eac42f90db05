// A filled red button (remove a member, cancel a booking) keeps its words readable whatever the portal
// colour: Mantine would paint it in the primary shade, which follows the portal colour.
import { DEFAULT_THEME, type MantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseColor } from '../lib/branding';
import { buildTheme, variantColorResolver } from './provider';

const rgb = (css: string) => parseColor(css, () => null)!;

describe('the theme on any portal colour', () => {
  it('paints filled red white on red-9, over 5:1, and leaves other colours and variants to Mantine', () => {
    for (const colour of ['#0b7285', '#1c7ed6', '#ffd43b', '#000000', null]) {
      const theme = { ...DEFAULT_THEME, ...buildTheme(colour) } as MantineTheme;
      const red = variantColorResolver({ color: 'red', variant: 'filled', theme, autoContrast: true });
      expect(red.background).toBe('var(--mantine-color-red-9)');
      expect(red.color).toBe('var(--mantine-color-white)');
      const light = variantColorResolver({ color: 'red', variant: 'light', theme });
      expect(light.background).not.toBe('var(--mantine-color-red-9)');
    }
    expect(contrastRatio(rgb('#ffffff'), rgb(DEFAULT_THEME.colors.red[9]))).toBeGreaterThan(5);
  });
});
