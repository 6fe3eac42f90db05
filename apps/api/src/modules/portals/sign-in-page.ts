import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isUnsetBaseColor, type PortalSettings } from '@sportello/contracts';
import {
  BLACK_TEXT_LUMINANCE,
  brandPalette,
  headerColors,
  luminance,
  parseColor,
  readableDarkShade,
  readablePrimaryShade,
} from '@sportello/contracts/colors';
import type { AppContext } from '../../platform/context';
import { escapeHtml } from '../../platform/account-mail';
import { toPortalSettings } from '../../platform/portal-settings';
import { findPortalSettings } from './portals.queries';

/** `/{company}/login`, as react-router matches it (any case, an optional trailing slash). */
const SIGN_IN = /^\/([^/]+)\/login\/?$/i;
const LANGUAGES = ['it-IT', 'en-EN', 'es-ES'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The web app's name (apps/web ui/page-title.ts), shown when the portal is unknown. */
export const APP_NAME = 'Sportello';
/** Mantine's default blue: the theme's primary colour of a portal without a base colour (web provider). */
const DEFAULT_PALETTE = [
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

/** The portal key of a sign-in address, or null (a recovery form, `?recover`, is the app's alone). */
export function signInPortal(url: string): string | null {
  const [path = '', query = ''] = url.split('?', 2);
  if (new URLSearchParams(query).has('recover')) return null;
  const m = SIGN_IN.exec(path);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

/** As the web app chooses on a first visit: the browser's first language the portal speaks, else the portal's. */
export function signInLanguage(
  acceptLanguage: string | undefined,
  portalDefault: string | undefined,
): Language {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const two = part.trim().slice(0, 2).toLowerCase();
    const found = LANGUAGES.find((l) => l.slice(0, 2).toLowerCase() === two);
    if (found) return found;
  }
  return LANGUAGES.find((l) => l === portalDefault) ?? 'it-IT';
}

/**
 * What the web app's theme makes of the base colour (apps/web app/provider.tsx buildTheme and its CSS
 * variables), for the parts the sign-in shows: the button, the checkbox, the links, light and dark.
 */
export function brandCss(baseColor: string | null | undefined): { css: string; buttonText: string } {
  const parsed = isUnsetBaseColor(baseColor) ? null : parseColor(baseColor!);
  const palette = parsed ? brandPalette(parsed) : DEFAULT_PALETTE;
  const shade = readablePrimaryShade(palette);
  const dark = readableDarkShade(palette);
  const hover = shade === 9 ? 8 : shade + 1;
  const brand = (i: number) => `var(--mantine-color-brand-${i})`;
  const filled = `--mantine-color-brand-filled:${brand(shade)};--mantine-color-brand-filled-hover:${brand(hover)};`;
  const root =
    palette
      .map((c, i) => `--mantine-color-brand-${i}:${c};--mantine-primary-color-${i}:${brand(i)};`)
      .join('') +
    '--mantine-primary-color-filled:var(--mantine-color-brand-filled);' +
    '--mantine-primary-color-filled-hover:var(--mantine-color-brand-filled-hover);';
  const css =
    `:root{${root}}` +
    `:root[data-mantine-color-scheme="light"]{${filled}--mantine-color-anchor:${brand(shade)};` +
    '--mantine-color-dimmed:var(--mantine-color-gray-7);--mantine-color-error:var(--mantine-color-red-9)}' +
    `:root[data-mantine-color-scheme="dark"]{${filled}--mantine-color-anchor:${brand(dark)};` +
    '--mantine-color-dimmed:var(--mantine-color-dark-1);--mantine-color-error:var(--mantine-color-red-4)}';
  const fill = parseColor(palette[shade]!);
  const buttonText =
    fill && luminance(fill) > BLACK_TEXT_LUMINANCE
      ? 'var(--mantine-color-black)'
      : 'var(--mantine-color-white)';
  return { css, buttonText };
}

export function logoHtml(logoUrl: string | null | undefined): string {
  return logoUrl
    ? `<img alt="" height="40" src="${escapeHtml(logoUrl)}" style="display: block; height: 40px; width: auto; max-width: var(--portal-logo-max-width, 160px); object-fit: contain;">`
    : '<img src="/favicon.svg" alt="" width="36" height="36" style="display: block;">';
}

/**
 * The portal's sign-in page drawn before the app loads: the build's `sign-in.<language>.html` (apps/web
 * app/sign-in-shell.ts) with the portal's name, logo, colours and CSS filled in, escaped. Null when the
 * build has none or the portal's settings cannot be read: the caller then sends index.html, and the app
 * draws the page itself as before. An unknown portal gets the default look, as the app gives it.
 */
export async function signInPage(
  ctx: AppContext,
  webDist: string,
  company: string,
  acceptLanguage: string | undefined,
): Promise<string | null> {
  let portal: PortalSettings | null;
  try {
    const row = await findPortalSettings(ctx.database.db, company);
    portal = row ? toPortalSettings(row, ctx.signer, ctx.clock.now()) : null;
  } catch {
    return null;
  }
  const language = signInLanguage(acceptLanguage, portal?.defaultLanguage);
  let template: string;
  try {
    template = await readFile(join(webDist, `sign-in.${language}.html`), 'utf8');
  } catch {
    return null;
  }
  const header = headerColors(portal?.baseColor);
  const { css, buttonText } = brandCss(portal?.baseColor);
  // The portal's own CSS, as the app adds it; left to the app when it could close the <style> element.
  const customCss = portal?.customCss && !portal.customCss.includes('<') ? portal.customCss : '';
  const values: Record<string, string> = {
    portalName: escapeHtml(portal?.webPortalName ?? APP_NAME),
    // The address's spelling, as the app's links take it.
    company: escapeHtml(encodeURIComponent(company)),
    logo: logoHtml(portal?.logoUrl),
    headerStyle: `background: ${header.background}; color: ${header.color};`,
    themeColor: header.background,
    buttonText,
    theme: css + customCss,
  };
  // One pass: a value is never read again for marks.
  return template.replace(/\{\{(\w+)\}\}/g, (mark, name: string) => values[name] ?? mark);
}
