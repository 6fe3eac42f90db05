/**
 * The frame of a signed-in customer screen as plain HTML, for the build (vite.config.ts writes
 * `frame.<screen>.<language>.html`, one per kind of screen and language, from index.html and this). The
 * server sends it for the customer screens' addresses with the portal's branding filled in (apps/api
 * modules/portals/customer-frame-page.ts), so a phone paints the header in the portal's colours, its logo
 * and the page's title as soon as the page and its stylesheet are here instead of after the app's 150 KB
 * of script have run. Nothing in it needs the session (a bearer token in the tab's storage,
 * docs/security.md): not the company's name, not the menu's sections, not a ticket's title. The app
 * draws into `#root`, hidden while this frame stands before it, and public/sign-in-shell.js removes the
 * frame once the app has drawn a page that no full-screen spinner covers: its shell once settled, or the
 * sign-in when the tab is signed out. It mirrors
 * what app/layout/shell-layout.tsx, header.tsx and the pages' first lines render, class for class
 * (Mantine's styles are the app's own; shell.module.css's few rules are copied below under the frame's
 * own names), so the replacement does not move a box; e2e/customer-frame.e2e.ts compares the two.
 *
 * `{{name}}` marks are filled by the server with escaped values: headerStyle, headerText, logo, base (the
 * screen's contact path, `/{company}/{contactId}`), buttonText and theme (as for the sign-in). The texts
 * are the build's, escaped here.
 */

// Not imported from sign-in-shell.ts: vite.config.ts loads this file through Node, which wants a
// file extension the app's own imports do not carry.
const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface CustomerFrameTexts {
  skipToContent: string;
  openNavigation: string;
  navigation: string;
  search: string;
  /** The page's title, when the address alone says it (not a ticket's: that is the ticket's own). */
  title: string | null;
  /** My tickets' "New ticket" button beside the title. */
  newTicket: string | null;
}

/** The kinds of screen that get a frame of their own: their title and layout differ. */
export type FrameScreen = 'screen' | 'overview' | 'tickets' | 'ticket' | 'new-ticket' | 'invoices';

/**
 * shell.module.css's rules the header and main use, Mantine's AppShell variables (the inline style
 * its provider writes), and the app's root hidden while the frame is here.
 */
const FRAME_CSS =
  '#customer-frame+#root{display:none}' +
  ':root{--app-shell-navbar-width:calc(15rem * var(--mantine-scale));--app-shell-navbar-offset:calc(15rem * var(--mantine-scale));--app-shell-header-height:calc(3.75rem * var(--mantine-scale));--app-shell-header-offset:calc(3.75rem * var(--mantine-scale));--app-shell-padding:var(--mantine-spacing-md)}' +
  '@media(max-width:47.99375em){:root{--app-shell-navbar-width:100%;--app-shell-navbar-offset:0px;--app-shell-navbar-transform:translateX(calc(var(--app-shell-navbar-width) * -1));--app-shell-navbar-transform-rtl:translateX(var(--app-shell-navbar-width))}}' +
  '.frame-root{display:flex;flex-direction:column;min-height:100dvh}' +
  // Mantine's provider writes this rule in the app; the frame comes before it.
  '@media(min-width:48em){.mantine-hidden-from-sm{display:none!important}}' +
  '.frame-header :focus-visible{outline:2px solid currentColor!important;outline-offset:2px}' +
  '.frame-bar{padding-inline:var(--mantine-spacing-xs)}@media(min-width:48em){.frame-bar{padding-inline:var(--mantine-spacing-md)}}' +
  '.frame-button{display:inline-flex;align-items:center;gap:6px;min-height:40px;padding:6px 8px;border-radius:4px;color:inherit}' +
  '.frame-main:focus{outline:none}' +
  '.frame-skip{position:fixed;top:-100px;left:8px;z-index:10000;padding:8px 16px;border-radius:4px;background:#fff;color:#000;font-weight:600;text-decoration:underline;box-shadow:0 2px 8px rgb(0 0 0/30%)}.frame-skip:focus{top:8px}' +
  '@media(max-width:47.99em){.frame-header{--portal-logo-max-width:22vw}.frame-slot,.frame-slot>*{min-width:0;flex-shrink:1}.frame-right{flex-shrink:0}.frame-button{padding-inline:4px;gap:2px}.frame-hide-xs{display:none}.frame-navbar{visibility:hidden}}';

const SEARCH_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-search" aria-hidden="true"><path d="M3 10a7 7 0 1 0 14 0a7 7 0 1 0 -14 0"></path><path d="M21 21l-6 -6"></path></svg>`;
const PLUS_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-plus" aria-hidden="true"><path d="M12 5l0 14"></path><path d="M5 12l14 0"></path></svg>`;
const H1 = (title: string, style = '') =>
  `<h1 class="m_8a5d1357 mantine-Title-root" data-order="1" style="--title-fw: var(--mantine-h1-font-weight); --title-lh: var(--mantine-h1-line-height); --title-fz: var(--mantine-h1-font-size);${style}">${escapeHtml(title)}</h1>`;
const STACK = (style = '') =>
  `<div class="m_6d731127 mantine-Stack-root" style="--stack-gap: var(--mantine-spacing-md); --stack-align: stretch; --stack-justify: flex-start;${style}">`;

/** The first lines of each screen's page, as it draws them (tickets-page.tsx, overview-page.tsx, …). */
function pageStart(screen: FrameScreen, t: CustomerFrameTexts): string {
  if (!t.title) return '';
  switch (screen) {
    case 'tickets':
      return (
        STACK() +
        `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-md); --group-align: center; --group-justify: space-between; --group-wrap: wrap;">` +
        H1(t.title) +
        // A link before the app is here too: a full load of the new ticket's page.
        `<a class="mantine-focus-auto mantine-active m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root" data-with-left-section="true" href="{{base}}/tickets/new" style="--button-color: {{buttonText}};">` +
        `<span class="m_80f1301b mantine-Button-inner"><span class="m_a74036a mantine-Button-section" data-position="left">${PLUS_ICON}</span>` +
        `<span class="m_811560b9 mantine-Button-label">${escapeHtml(t.newTicket ?? '')}</span></span></a></div></div>`
      );
    case 'overview':
      return STACK() + H1(t.title) + '</div>';
    case 'new-ticket':
      return STACK(' max-width: calc(56.25rem * var(--mantine-scale));') + H1(t.title) + '</div>';
    case 'invoices':
      return H1(t.title, ' margin-bottom: var(--mantine-spacing-md);');
    default:
      return '';
  }
}

/** The markup that goes before `#root`. */
export function customerFrameMarkup(screen: FrameScreen, t: CustomerFrameTexts): string {
  const x = (k: 'skipToContent' | 'openNavigation' | 'navigation' | 'search') => escapeHtml(t[k]);
  return [
    `<div id="customer-frame"><style>${FRAME_CSS}</style><style>{{theme}}</style>`,
    `<div class="frame-root m_89ab340 mantine-AppShell-root" data-mode="fixed" data-customer-frame="${screen}">`,
    `<a class="frame-skip" href="#main-content">${x('skipToContent')}</a>`,
    `<header class="m_3b16f56b mantine-AppShell-header frame-header" style="{{headerStyle}} border-bottom: none; --app-shell-header-z-index: 100;">`,
    `<div class="m_4081bf90 mantine-Group-root frame-bar" style="--group-gap: var(--mantine-spacing-xs); --group-align: center; --group-justify: space-between; --group-wrap: nowrap; height: 100%;">`,
    `<div class="m_4081bf90 mantine-Group-root frame-slot" style="--group-gap: var(--mantine-spacing-xs); --group-align: center; --group-justify: flex-start; --group-wrap: nowrap; min-width: 0rem;">`,
    // The burger and the search answer once the app is here (as the sign-in's language picker).
    `<button class="mantine-focus-auto m_fea6bf1a mantine-Burger-root m_87cf2631 mantine-UnstyledButton-root mantine-hidden-from-sm" data-size="sm" type="button" aria-label="${x('openNavigation')}" aria-expanded="false" style="--burger-color: {{headerText}}; --burger-size: var(--burger-size-sm);"><div class="m_d4fb9cad mantine-Burger-burger" data-reduce-motion="true"></div></button>`,
    // The company's name needs the session: the logo alone, where the company switcher draws it.
    `<div class="frame-button" data-frame-logo>{{logo}}</div></div>`,
    `<div class="m_4081bf90 mantine-Group-root frame-right" style="--group-gap: calc(0.25rem * var(--mantine-scale)); --group-align: center; --group-justify: flex-start; --group-wrap: nowrap;">`,
    `<button class="mantine-focus-auto frame-button m_87cf2631 mantine-UnstyledButton-root" type="button" aria-label="${x('search')}" data-frame-search>${SEARCH_ICON}<span class="frame-hide-xs" aria-hidden="true">${x('search')}</span></button>`,
    `</div></div></header>`,
    `<nav class="m_45252eee mantine-AppShell-navbar frame-navbar" data-with-border="true" aria-label="${x('navigation')}" style="--app-shell-navbar-z-index: calc(100 + 1); padding: var(--mantine-spacing-xs);"></nav>`,
    `<main class="m_8983817 mantine-AppShell-main frame-main" id="main-content" tabindex="-1" style="min-height: 100dvh; flex: 1 0 auto;">`,
    pageStart(screen, t),
    `</main></div></div>`,
  ].join('');
}

/**
 * The public pages that get a frame of their own: a document to sign and a booking link, opened from an
 * e-mail without a session. Their header is the public one (ui/public-frame.tsx), not the shell's.
 */
export type PublicScreen = 'signing' | 'booking';

export interface PublicFrameTexts {
  skipToContent: string;
  /** The language picker's label, the language's name and its two letters, as the sign-in's. */
  language: string;
  languageLabel: string;
  languageCode: string;
  /** signing.signerLabel, signing.companyLabel and signing.expiresOn (its `{{date}}` kept). */
  signerLabel: string;
  companyLabel: string;
  expiresOn: string;
  /** appointments.withAgent (its `{{name}}` kept). */
  withAgent: string;
}

/**
 * The public frame's own rules: the skip link's (the app's is a CSS module), the main region's padding
 * (Mantine writes its responsive style props as a class of its own), the app's root hidden meanwhile.
 */
const PUBLIC_CSS =
  '#customer-frame+#root{display:none}' +
  '.frame-skip{position:fixed;top:-100px;left:8px;z-index:10000;padding:8px 16px;border-radius:4px;background:#fff;color:#000;font-weight:600;text-decoration:underline;box-shadow:0 2px 8px rgb(0 0 0/30%)}.frame-skip:focus{top:8px}' +
  '.frame-public-main{padding-block:var(--mantine-spacing-md);padding-inline:var(--mantine-spacing-sm)}' +
  '@media(min-width:48em){.frame-public-main{padding-block:var(--mantine-spacing-xl);padding-inline:var(--mantine-spacing-md)}}';

const LANGUAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-language" aria-hidden="true"><path d="M9 6.371c0 4.418 -2.239 6.629 -5 6.629"></path><path d="M4 6.371h7"></path><path d="M5 9c0 2.144 2.252 3.908 6 4"></path><path d="M12 20l4 -9l4 9"></path><path d="M19.1 18h-6.2"></path><path d="M6.694 3l.793 .582"></path></svg>`;
const CHEVRON = `<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-chevron-down" aria-hidden="true"><path d="M6 9l6 6l6 -6"></path></svg>`;
const SM = '--text-fz: var(--mantine-font-size-sm); --text-lh: var(--mantine-line-height-sm);';
const TEXT = (style: string, size = '') =>
  `class="mantine-focus-auto m_b6d8b162 mantine-Text-root"${size ? ` data-size="${size}"` : ''} style="${style}"`;

/**
 * The heading each page draws once its answer is here (sign-page.tsx's DocumentView, booking-page.tsx's
 * Booking): `{{title}}` and the lines under it, which the server fills from the key's own answer.
 */
function publicHeading(screen: PublicScreen, t: PublicFrameTexts): string {
  const h1 = `<h1 class="m_8a5d1357 mantine-Title-root" data-size="h2" data-order="1" style="--title-fw: var(--mantine-h2-font-weight); --title-lh: var(--mantine-h2-line-height); --title-fz: var(--mantine-h2-font-size); overflow-wrap: anywhere;">{{title}}</h1>`;
  if (screen === 'booking')
    return `<div>${h1}<p ${TEXT('color: var(--mantine-color-dimmed);')}>${escapeHtml(t.withAgent).replace('{{name}}', '{{agentName}}')}</p></div>`;
  const label = (text: string) =>
    `<span ${TEXT(`${SM} color: var(--mantine-color-dimmed);`, 'sm')}>${escapeHtml(text)}:</span>`;
  return (
    `<div>${h1}` +
    `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-lg); --group-align: center; --group-justify: flex-start; --group-wrap: wrap; margin-top: calc(0.25rem * var(--mantine-scale));">` +
    `<p ${TEXT(SM, 'sm')}>${label(t.signerLabel)} <span ${TEXT(`${SM} font-weight: 600;`, 'sm')}>{{signerName}}</span></p>` +
    `<p ${TEXT(SM, 'sm')}>${label(t.companyLabel)} {{companyName}}</p>` +
    `<p ${TEXT(`${SM}{{expiresStyle}}`, 'sm')}>${escapeHtml(t.expiresOn).replace('{{date}}', '{{expiresOn}}')}</p>` +
    `</div></div>`
  );
}

/**
 * The markup that goes before `#root` on a public page: public-frame.tsx's header (the portal's logo and
 * name, the language picker's face) and main region, and the page's heading. It stands until the app's
 * page has drawn its own heading (or its not-found state, or an error) in the portal's branding
 * (`data-frame-until`, read by public/sign-in-shell.js; public-frame.tsx keeps its main `aria-busy`
 * until the branding applies).
 */
export function publicFrameMarkup(screen: PublicScreen, t: PublicFrameTexts): string {
  const x = (k: 'skipToContent' | 'language' | 'languageLabel' | 'languageCode') => escapeHtml(t[k]);
  const maxWidth = screen === 'signing' ? '77.5rem' : '65rem';
  return [
    `<div id="customer-frame" data-frame-until="main:not([aria-busy]) :is(h1, [role=alert])"><style>${PUBLIC_CSS}</style><style>{{theme}}</style>`,
    `<div data-customer-frame="${screen}" style="min-height: 100dvh; display: flex; flex-direction: column;">`,
    `<a class="frame-skip" href="#main-content">${x('skipToContent')}</a>`,
    `<header style="padding-inline: var(--mantine-spacing-md); padding-block: calc(0.5rem * var(--mantine-scale)); {{headerStyle}}">`,
    `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-sm); --group-align: center; --group-justify: space-between; --group-wrap: nowrap;">`,
    `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-sm); --group-align: center; --group-justify: flex-start; --group-wrap: nowrap; min-width: 0rem;">`,
    `{{logo}}<p class="mantine-focus-auto m_b6d8b162 mantine-Text-root" data-truncate="end" style="font-weight: 600;">{{portalName}}</p></div>`,
    // The picker answers once the app is here (as the sign-in's).
    `<button class="mantine-focus-auto m_87cf2631 mantine-UnstyledButton-root" type="button" aria-label="${x('language')}: ${x('languageLabel')}" aria-haspopup="menu" aria-expanded="false" style="display: inline-flex; align-items: center; gap: 4px; color: inherit; padding: 6px 8px;">`,
    `${LANGUAGE_ICON}<span aria-hidden="true" style="font-size: 14px; font-weight: 600;">${x('languageCode')}</span>${CHEVRON}</button>`,
    `</div></header>`,
    `<main class="frame-public-main" id="main-content" tabindex="-1" style="max-width: calc(${maxWidth} * var(--mantine-scale)); width: 100%; margin-inline: auto; flex: 1 1 0%; outline: none;">`,
    STACK().replace('var(--mantine-spacing-md)', 'var(--mantine-spacing-lg)'),
    publicHeading(screen, t),
    `</div></main></div></div>`,
  ].join('');
}
