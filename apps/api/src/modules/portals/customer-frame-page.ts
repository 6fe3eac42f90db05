import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PortalSettings } from '@sportello/contracts';
import { headerColors } from '@sportello/contracts/colors';
import type { AppContext } from '../../platform/context';
import { escapeHtml } from '../../platform/account-mail';
import { toPortalSettings } from '../../platform/portal-settings';
import { findPortalSettings } from './portals.queries';
import { APP_NAME, brandCss, logoHtml, signInLanguage } from './sign-in-page';

/** The kinds of screen the build draws a frame for (apps/web app/customer-frame.ts `FrameScreen`). */
export type FrameScreen = 'screen' | 'overview' | 'tickets' | 'ticket' | 'new-ticket' | 'invoices';

export interface CustomerScreen {
  company: string;
  /** The address's contact, as its links spell it: `/{company}/{contactId}`, or null for `/{company}`. */
  contactId: string | null;
  screen: FrameScreen;
}

/**
 * First segments that are not a portal's key but the web app's standalone pages (router.tsx): their
 * addresses never reach the customer's layout.
 */
const STANDALONE = new Set([
  'appointments',
  'tasks',
  'confirm',
  'confirm-email',
  'login',
  'privacy',
  'notifications',
  'documents',
]);

/**
 * A customer screen's address, as router.tsx's layout route `/:company?/:contactid?` and its children
 * take it (any case, an optional trailing slash): `/{company}`, `/{company}/{contactId}` and the pages
 * below it. Null for anything else (the sign-in, the desk, public signing and booking links, a file).
 */
export function customerScreen(url: string): CustomerScreen | null {
  const path = url.split('?', 1)[0] ?? '';
  const m = /^\/([^/]+)(?:\/(\d+)((?:\/[^/]+){0,2}))?\/?$/.exec(path);
  if (!m) return null;
  let company: string;
  try {
    company = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  if (STANDALONE.has(company.toLowerCase())) return null;
  const rest = (m[3] ?? '').toLowerCase();
  const screen: FrameScreen =
    rest === '/overview'
      ? 'overview'
      : rest === '/tickets'
        ? 'tickets'
        : rest === '/tickets/new'
          ? 'new-ticket'
          : /^\/tickets\/\d+$/.test(rest)
            ? 'ticket'
            : rest === '/invoices'
              ? 'invoices'
              : 'screen';
  return { company, contactId: m[2] ?? null, screen };
}

/**
 * The frame of a signed-in customer screen drawn before the app loads: the build's
 * `frame.<screen>.<language>.html` (apps/web app/customer-frame.ts, with the `modulepreload` links of
 * that screen's first page) with the portal's logo, colours and CSS filled in, escaped. Nothing of the
 * session: the server does not know it (a bearer token in the tab's storage, docs/security.md), so a
 * signed-out tab gets the same page and the app sends it to the sign-in. Null when the build has none,
 * the portal is unknown or its settings cannot be read: the caller then sends index.html.
 */
export async function customerFramePage(
  ctx: AppContext,
  webDist: string,
  at: CustomerScreen,
  acceptLanguage: string | undefined,
): Promise<string | null> {
  let portal: PortalSettings | null;
  try {
    const row = await findPortalSettings(ctx.database.db, at.company);
    portal = row ? toPortalSettings(row, ctx.signer, ctx.clock.now()) : null;
  } catch {
    return null;
  }
  if (!portal) return null;
  const language = signInLanguage(acceptLanguage, portal.defaultLanguage);
  let template: string;
  try {
    template = await readFile(join(webDist, `frame.${at.screen}.${language}.html`), 'utf8');
  } catch {
    return null;
  }
  const header = headerColors(portal.baseColor);
  const { css, buttonText } = brandCss(portal.baseColor);
  // The portal's own CSS, as the app adds it; left to the app when it could close the <style> element.
  const customCss = portal.customCss && !portal.customCss.includes('<') ? portal.customCss : '';
  const company = encodeURIComponent(at.company);
  const values: Record<string, string> = {
    portalName: escapeHtml(portal.webPortalName || APP_NAME),
    base: escapeHtml(at.contactId ? `/${company}/${at.contactId}` : `/${company}`),
    logo: logoHtml(portal.logoUrl),
    headerStyle: `background: ${header.background}; color: ${header.color};`,
    headerText: header.color,
    themeColor: header.background,
    buttonText,
    theme: css + customCss,
  };
  // One pass: a value is never read again for marks.
  return template.replace(/\{\{(\w+)\}\}/g, (mark, name: string) => values[name] ?? mark);
}
