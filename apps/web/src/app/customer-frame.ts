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
