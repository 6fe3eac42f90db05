import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { portalSettings } from '../test/fixtures';
import {
  brandPalette,
  contrastRatio,
  headerColors,
  parseColor,
  readablePrimaryShade,
  usePortalBranding,
} from './branding';

const rgb = (hex: string) => parseColor(hex, () => null)!;

describe('headerColors (SPEC A2, A9)', () => {
  it('uses #202124 with white text when the base colour is unset or the sentinel', () => {
    for (const unset of [null, undefined, '', '  ', 'hsl(123,0%,0%)', 'HSL(123, 0%, 0%)'])
      expect(headerColors(unset)).toEqual({ background: '#202124', color: '#ffffff' });
  });

  it('uses the portal base colour in any notation', () => {
    expect(headerColors('#0B5CAD').background).toBe('#0b5cad');
    expect(headerColors('#abc').background).toBe('#aabbcc');
    expect(headerColors('rgb(11, 92, 173)').background).toBe('#0b5cad');
    expect(headerColors('hsl(210, 88%, 36%)').background).toBe(headerColors('hsl(210 88% 36%)').background);
  });

  it('falls back to the default for a colour it cannot read', () => {
    expect(headerColors('not-a-colour').background).toBe('#202124');
  });

  it('picks black or white text, whichever reaches 4.5:1', () => {
    expect(headerColors('#0b5cad').color).toBe('#ffffff');
    expect(headerColors('#ffd43b').color).toBe('#000000');
    expect(headerColors('#ffffff').color).toBe('#000000');
    // Every mid-grey and saturated hue still reaches AA with one of the two.
    for (const c of [
      '#777777',
      '#808080',
      '#ff0000',
      '#00ff00',
      '#0000ff',
      '#e67700',
      '#1098ad',
      '#c2255c',
    ]) {
      const { background, color } = headerColors(c);
      expect(contrastRatio(rgb(background), rgb(color))).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('theme palette', () => {
  it('chooses a primary shade that reads on white', () => {
    for (const base of ['#0b5cad', '#ffd43b', '#40c057', '#202124', '#e64980']) {
      const palette = brandPalette(rgb(base));
      expect(palette).toHaveLength(10);
      const shade = readablePrimaryShade(palette);
      expect(contrastRatio(rgb(palette[shade]!), rgb('#ffffff'))).toBeGreaterThanOrEqual(4.5);
      // Light variant: shade 9 text on shade 1 background.
      expect(contrastRatio(rgb(palette[9]!), rgb(palette[1]!))).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("replaces Mantine's default blue-6 (3.55:1) with a darker shade", () => {
    const blue = [
      '#e7f5ff',
      '#d0ebff',
      '#a5d8ff',
      '#74c0fc',
      '#4dabf7',
      '#339af0',
      '#228be6',
      '#1c7ed6',
      '#1971c2',
      '#1864ab',
    ];
    expect(readablePrimaryShade(blue)).toBe(8);
  });
});

describe('usePortalBranding: the browser bars', () => {
  function Branded({ baseColor }: { baseColor: string | null }) {
    usePortalBranding(portalSettings({ baseColor }));
    return null;
  }

  it('takes the portal header colour as theme-color, and gives it back', () => {
    const { rerender, unmount } = render(<Branded baseColor="#1565c0" />);
    const meta = () => document.querySelector<HTMLMetaElement>('meta[name="theme-color"]')?.content;
    expect(meta()).toBe('#1565c0');
    // No colour set: the default header colour (#202124, SPEC A2).
    rerender(<Branded baseColor={null} />);
    expect(meta()).toBe('#202124');
    rerender(<Branded baseColor="#e8f5e9" />);
    expect(meta()).toBe('#e8f5e9');
    unmount();
    expect(meta()).toBe('#202124');
  });

  it("links the portal's own web app manifest while the portal is shown, and gives the default back", async () => {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/manifest.webmanifest';
    document.head.appendChild(link);
    const { unmount } = render(<Branded baseColor={null} />);
    const key = portalSettings({}).webPortalKey;
    await waitFor(() => expect(link.getAttribute('href')).toBe(`/api/settings/${key}/manifest.webmanifest`));
    unmount();
    expect(link.getAttribute('href')).toBe('/manifest.webmanifest');
    link.remove();
  });
});
