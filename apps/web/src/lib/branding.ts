import { useEffect, useSyncExternalStore } from 'react';
import { DEFAULT_HEADER_COLOR, isUnsetBaseColor, type PortalSettings } from '@sportello/contracts';
import {
  brandPalette,
  contrastRatio,
  headerColors as headerColorsOf,
  parseColor as parseColorOf,
  readablePrimaryShade,
  WHITE,
  type ColorResolver,
  type HeaderColors,
  type Rgb,
} from '@sportello/contracts/colors';
import { applyLanguage, browserLanguage, isLanguage } from '../i18n';
import { storage } from './storage';
import { importAfterContent } from './first-content';

export {
  BLACK_TEXT_LUMINANCE,
  brandPalette,
  contrastRatio,
  DARK_SURFACE,
  luminance,
  darkLightBackground,
  readableDarkLightShade,
  readableDarkShade,
  readablePrimaryShade,
  toHex,
  type HeaderColors,
  type Rgb,
} from '@sportello/contracts/colors';

/** Lets the browser normalise a colour it knows (e.g. `teal`) to `rgb(...)`. */
function resolveWithDom(css: string): string | null {
  if (typeof document === 'undefined' || typeof CSS === 'undefined' || !CSS.supports?.('color', css))
    return null;
  const el = document.createElement('span');
  el.style.color = css;
  document.body.appendChild(el);
  const out = getComputedStyle(el).color;
  el.remove();
  return out || null;
}

/** parseColor of the contracts, reading named colours and other notations through the browser. */
export const parseColor = (input: string, resolve: ColorResolver = resolveWithDom): Rgb | null =>
  parseColorOf(input, resolve);

/** SPEC A2: header colour is the portal base colour, or #202124 when it is unset (or unreadable). */
export const headerColors = (baseColor: string | null | undefined): HeaderColors =>
  headerColorsOf(baseColor, resolveWithDom);

/** What a base colour becomes on the portal, and how each part contrasts (WCAG 2), for the desk's check. */
export interface BrandingContrast {
  /** The header's colour and its text colour (white or black, whichever contrasts more). */
  header: HeaderColors & { ratio: number };
  /** Buttons and links: the palette's shade the theme picks (4.5:1 against white when one does); null: the default theme's. */
  primary: { color: string; ratio: number } | null;
  /** False when the colour could not be read (the default header colour is used instead). */
  readable: boolean;
}

export function brandingContrast(baseColor: string | null | undefined): BrandingContrast {
  const parsed = isUnsetBaseColor(baseColor) ? null : parseColor(baseColor!);
  const header = headerColors(baseColor);
  const rgb = (hex: string) => parseColorOf(hex)!;
  const palette = parsed ? brandPalette(parsed) : null;
  const primary = palette ? palette[readablePrimaryShade(palette)]! : null;
  return {
    header: { ...header, ratio: contrastRatio(rgb(header.background), rgb(header.color)) },
    primary: primary ? { color: primary, ratio: contrastRatio(rgb(primary), WHITE) } : null,
    readable: isUnsetBaseColor(baseColor) || parsed !== null,
  };
}

type Listener = () => void;
let activePortal: PortalSettings | null = null;
const listeners = new Set<Listener>();

export function setActivePortal(settings: PortalSettings | null): void {
  if (settings === activePortal) return;
  activePortal = settings;
  listeners.forEach((l) => l());
}

const subscribe = (l: Listener) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/**
 * The portal whose branding applies now, and a listener called when it changes (the returned function
 * stops it): for what follows the portal outside React's render, as the document's title.
 */
export const activePortalNow = (): PortalSettings | null => activePortal;
export const onActivePortalChange = (listener: Listener): (() => void) => {
  subscribe(listener);
  return () => {
    listeners.delete(listener);
  };
};

/**
 * One value of the portal whose branding applies now (null: the default look). A component renders
 * again only when that value changes: the provider reads the colour alone, so a portal's settings
 * arriving with the colour it already shows do not draw the whole app again.
 */
export function useActivePortal<T extends string | null | undefined>(
  select: (portal: PortalSettings | null) => T,
): T {
  return useSyncExternalStore(subscribe, () => select(activePortal));
}

/** The colour index.html declares for the browser's bars (the default header's). */
export const DEFAULT_THEME_COLOR = DEFAULT_HEADER_COLOR;

/** Sets `<meta name="theme-color">` (made if missing); the returned function puts the previous one back. */
export function setThemeColor(color: string): () => void {
  let meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.appendChild(meta);
  }
  const before = meta.content;
  meta.content = color;
  return () => {
    meta.content = before || DEFAULT_THEME_COLOR;
  };
}

/**
 * Applies a portal's branding while the calling page is mounted: theme colour (read by the provider) and
 * the portal's customCss. The CSS goes in as a <style> element's textContent, never parsed as markup, so
 * a `</style><script>` in it stays text.
 */
export function usePortalBranding(settings: PortalSettings | null | undefined): void {
  const css = settings?.customCss ?? '';
  const baseColor = settings?.baseColor;
  const defaultLanguage = settings?.defaultLanguage;
  useEffect(() => {
    setActivePortal(settings ?? null);
    return () => setActivePortal(null);
  }, [settings]);
  useEffect(() => {
    // The portal's language applies until the user picks one (SPEC B6 keeps the user's choice), when the
    // browser's own is not one the portal speaks.
    if (!storage.get('language') && !browserLanguage() && isLanguage(defaultLanguage))
      applyLanguage(defaultLanguage, { remember: false });
  }, [defaultLanguage]);
  // The browser's own bars (a phone's address bar, an installed app's title bar) take the header's colour;
  // the document title names the portal through usePageTitle.
  useEffect(() => {
    if (baseColor === undefined) return;
    return setThemeColor(headerColors(baseColor).background);
  }, [baseColor]);
  // The portal installs as its own app (lib/portal-manifest, out of the first load).
  const portalKey = settings?.webPortalKey;
  useEffect(() => {
    if (!portalKey) return;
    let undo: (() => void) | null = null;
    let gone = false;
    void importAfterContent(() => import('./portal-manifest')).then(
      (m) => {
        if (!gone) undo = m.linkPortalManifest(portalKey);
      },
      () => {
        // A stale deploy: the application's own manifest stays.
      },
    );
    return () => {
      gone = true;
      undo?.();
    };
  }, [portalKey]);
  useEffect(() => {
    if (!css.trim()) return;
    const style = document.createElement('style');
    style.dataset.portalCss = '';
    style.textContent = css;
    document.head.appendChild(style);
    return () => style.remove();
  }, [css]);
}
