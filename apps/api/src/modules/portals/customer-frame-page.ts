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
  const frame = await frameOf(ctx, webDist, at, acceptLanguage);
  if (!frame) return null;
  const { portal, template } = frame;
  const company = encodeURIComponent(at.company);
  return fillFrame(template, portal, {
    base: escapeHtml(at.contactId ? `/${company}/${at.contactId}` : `/${company}`),
  });
}

/**
 * A screen's built frame in the language the portal's page will speak, with the portal's settings; null
 * when the portal is unknown, its settings cannot be read or the build has no such frame.
 */
async function frameOf(
  ctx: AppContext,
  webDist: string,
  at: { company: string; screen: string },
  acceptLanguage: string | undefined,
): Promise<{ portal: PortalSettings; template: string } | null> {
  try {
    const row = await findPortalSettings(ctx.database.db, at.company);
    const portal = row ? toPortalSettings(row, ctx.signer, ctx.clock.now()) : null;
    if (!portal) return null;
    const language = signInLanguage(acceptLanguage, portal.defaultLanguage);
    const template = await readFile(join(webDist, `frame.${at.screen}.${language}.html`), 'utf8');
    return { portal, template };
  } catch {
    return null;
  }
}

/**
 * A frame's template with the portal's name, logo, colours and CSS filled in, and `values` (escaped by
 * the caller). One pass: a value is never read again for marks.
 */
function fillFrame(template: string, portal: PortalSettings, values: Record<string, string>): string {
  const header = headerColors(portal.baseColor);
  const { css, buttonText } = brandCss(portal.baseColor);
  // The portal's own CSS, as the app adds it; left to the app when it could close the <style> element.
  const customCss = portal.customCss && !portal.customCss.includes('<') ? portal.customCss : '';
  const all: Record<string, string> = {
    portalName: escapeHtml(portal.webPortalName || APP_NAME),
    logo: logoHtml(portal.logoUrl),
    headerStyle: `background: ${header.background}; color: ${header.color};`,
    headerText: header.color,
    themeColor: header.background,
    buttonText,
    theme: css + customCss,
    ...values,
  };
  return template.replace(/\{\{(\w+)\}\}/g, (mark, name: string) => all[name] ?? mark);
}

/** A public link's page that gets a frame of its own (apps/web app/customer-frame.ts `PublicScreen`). */
export interface PublicPage {
  screen: 'signing' | 'booking';
  company: string;
  /** The document's or the link's key: a bearer secret, never logged (platform/log-redact.ts). */
  key: string;
}

/** `/{company}/documents/{documentkey}` and its `/confirm` step, as router.tsx and early-data.ts take it. */
const SIGNING = /^\/([^/]+)\/documents\/([^/]+)(?:\/confirm)?\/?$/i;
/** `/appointments/{company}/{eventkey}`, not the cancellation's addresses. */
const BOOKING = /^\/appointments\/(?!cancellation\/)([^/]+)\/(?!cancellation\/?$)([^/]+)\/?$/i;

/** A document to sign or a booking link, from a GET's address; null for anything else. */
export function publicPage(url: string): PublicPage | null {
  const path = url.split('?', 1)[0] ?? '';
  const sign = SIGNING.exec(path);
  const book = sign ? null : BOOKING.exec(path);
  const m = sign ?? book;
  if (!m) return null;
  let company: string;
  let key: string;
  try {
    company = decodeURIComponent(m[1]!);
    key = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  // `/appointments/documents/x` is a booking link to the router (its routes come first).
  if (sign && STANDALONE.has(company.toLowerCase())) return null;
  return { screen: sign ? 'signing' : 'booking', company, key };
}

/**
 * What a public page's frame draws under its header: what the page's own API answer gives anyone
 * holding the address (the document's name, signer, company and deadline; the link's title and agent).
 */
export type PublicHeading =
  | {
      screen: 'signing';
      documentName: string;
      signerName: string;
      companyName: string;
      expiresOn: string | null;
    }
  | { screen: 'booking'; title: string; agentName: string };

/**
 * The frame of a document to sign or a booking link drawn before the app loads: the build's
 * `frame.<screen>.<language>.html` (apps/web app/customer-frame.ts `publicFrameMarkup`) with the
 * portal's logo, name, colours and CSS, and the page's heading, filled in, escaped. Null when the build
 * has none, the portal is unknown or its settings cannot be read, or there is no heading (an unknown,
 * expired or cancelled key: the caller sends index.html and the app shows the API's 404 as before).
 */
export async function publicFramePage(
  ctx: AppContext,
  webDist: string,
  at: PublicPage,
  acceptLanguage: string | undefined,
  heading: PublicHeading | null,
): Promise<string | null> {
  if (!heading || heading.screen !== at.screen) return null;
  const frame = await frameOf(ctx, webDist, at, acceptLanguage);
  if (!frame) return null;
  const { portal, template } = frame;
  const values: Record<string, string> =
    heading.screen === 'signing'
      ? {
          title: escapeHtml(heading.documentName),
          signerName: escapeHtml(heading.signerName),
          companyName: escapeHtml(heading.companyName),
          expiresOn: escapeHtml(heading.expiresOn ?? ''),
          // The deadline's line is the page's only when it has one (sign-page.tsx).
          expiresStyle: heading.expiresOn ? '' : ' display: none;',
        }
      : { title: escapeHtml(heading.title), agentName: escapeHtml(heading.agentName) };
  return fillFrame(template, portal, values);
}
