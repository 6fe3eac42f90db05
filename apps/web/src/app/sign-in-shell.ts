/**
 * The portal's sign-in as plain HTML, for the build (vite.config.ts writes `sign-in.<language>.html`, one
 * per language, from index.html and this). The server sends it for `/{company}/login`, the portal's
 * branding filled in (apps/api modules/portals/sign-in-page.ts), so a phone draws the real form as soon as
 * the page and its stylesheet are here instead of after the app's 150 KB of script have run. The app draws
 * into `#root`, hidden while this page stands before it, and its sign-in form removes this page once it
 * is drawn with the portal's settings; what was typed, ticked, focused or submitted meanwhile carries over
 * (lib/sign-in-shell.ts). It mirrors what features/auth/login-page.tsx in AuthFrame renders, class for
 * class (Mantine's styles are the app's own), so the replacement does not move a pixel; e2e/sign-in-shell
 * compares the two.
 *
 * `{{name}}` marks are filled by the server with escaped values: portalName, company (the key,
 * URL-encoded), logo (an <img>), headerStyle, buttonText and theme (CSS the server computes from the base
 * colour), themeColor. The texts are the build's, escaped here.
 */
export interface SignInShellTexts {
  skipToContent: string;
  language: string;
  languageLabel: string;
  languageCode: string;
  loginTitle: string;
  userName: string;
  password: string;
  showPassword: string;
  rememberMe: string;
  rememberMeHint: string;
  login: string;
  forgotPassword: string;
  privacyLink: string;
}

export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Styles the first paint's stylesheet lacks: the skip link's and the Paper's padding (Mantine's inline);
 * and the app's root hidden while this page is here (the app draws there, then removes this page).
 */
const SHELL_CSS = `#sign-in-shell+#root{display:none}.shell-skip{position:fixed;top:-100px;left:8px;z-index:10000;padding:8px 16px;border-radius:4px;background:#fff;color:#000;font-weight:600;text-decoration:underline;box-shadow:0 2px 8px rgb(0 0 0/30%)}.shell-skip:focus{top:8px}.shell-paper{padding:var(--mantine-spacing-md)}@media(min-width:48em){.shell-paper{padding:var(--mantine-spacing-lg)}}`;

const LANGUAGE_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-language" aria-hidden="true"><path d="M9 6.371c0 4.418 -2.239 6.629 -5 6.629"></path><path d="M4 6.371h7"></path><path d="M5 9c0 2.144 2.252 3.908 6 4"></path><path d="M12 20l4 -9l4 9"></path><path d="M19.1 18h-6.2"></path><path d="M6.694 3l.793 .582"></path></svg>`;
const CHEVRON = `<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="tabler-icon tabler-icon-chevron-down" aria-hidden="true"><path d="M6 9l6 6l6 -6"></path></svg>`;
const EYE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" style="width: var(--psi-icon-size); height: var(--psi-icon-size);"><path fill="none" d="M0 0h256v256H0z"></path><path fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="16" d="M128 56c-80 0-112 72-112 72s32 72 112 72 112-72 112-72-32-72-112-72z"></path><circle cx="128" cy="128" r="40" fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="16"></circle></svg>`;
const CHECK = `<svg viewBox="0 0 10 7" fill="none" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" class="m_bf295423 mantine-Checkbox-icon"><path d="M4 4.586L1.707 2.293A1 1 0 1 0 .293 3.707l3 3a.997.997 0 0 0 1.414 0l5-5A1 1 0 1 0 8.293.293L4 4.586z" fill="currentColor" fill-rule="evenodd" clip-rule="evenodd"></path></svg>`;

/** The markup that goes before `#root`; `criticalCss` is Mantine's styles of the form's components. */
export function signInShellMarkup(t: SignInShellTexts, criticalCss: string): string {
  const x = (k: keyof SignInShellTexts) => escapeHtml(t[k]);
  const textLink = `class="mantine-focus-auto m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root" data-size="sm" data-underline="hover"`;
  const linkVars = `--text-fz: var(--mantine-font-size-sm); --text-lh: var(--mantine-line-height-sm);`;
  const label = (id: string, text: string) =>
    `<label class="m_8fdc1311 mantine-InputWrapper-label" data-size="sm" data-required="true" for="${id}" id="${id}-label" style="--input-label-size: var(--mantine-font-size-sm);">${text}<span class="m_78a94662 mantine-InputWrapper-required" aria-hidden="true"> *</span></label>`;
  const inputVars = `--input-height: var(--input-height-sm); --input-fz: var(--mantine-font-size-sm);`;
  return [
    `<div id="sign-in-shell"><style>${criticalCss}${SHELL_CSS}</style><style>{{theme}}</style>`,
    `<div data-sign-in-shell style="display: flex; flex-direction: column; min-height: 100dvh;">`,
    `<a class="shell-skip" href="#main-content">${x('skipToContent')}</a>`,
    `<header style="{{headerStyle}} padding-inline: var(--mantine-spacing-md); padding-block: calc(0.5rem * var(--mantine-scale));">`,
    `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-sm); --group-align: center; --group-justify: space-between; --group-wrap: nowrap;">`,
    `<div class="m_4081bf90 mantine-Group-root" style="--group-gap: var(--mantine-spacing-sm); --group-align: center; --group-justify: flex-start; --group-wrap: nowrap; min-width: 0rem;">`,
    `{{logo}}<p class="mantine-focus-auto m_b6d8b162 mantine-Text-root" data-truncate="end" style="font-weight: 600;">{{portalName}}</p></div>`,
    `<button class="mantine-focus-auto m_87cf2631 mantine-UnstyledButton-root" type="button" aria-label="${x('language')}: ${x('languageLabel')}" aria-haspopup="menu" aria-expanded="false" style="display: inline-flex; align-items: center; gap: 4px; color: inherit; padding: 6px 8px;">`,
    `${LANGUAGE_ICON}<span aria-hidden="true" style="font-size: 14px; font-weight: 600;">${x('languageCode')}</span>${CHEVRON}</button>`,
    `</div></header>`,
    `<main id="main-content" tabindex="-1" style="flex: 1 1 0%; outline: none; padding-inline: var(--mantine-spacing-md); padding-block: var(--mantine-spacing-xl);">`,
    `<div class="m_1b7284a3 mantine-Paper-root shell-paper" data-with-border="true" style="--paper-radius: var(--mantine-radius-md); margin-inline: auto; max-width: calc(27.5rem * var(--mantine-scale));">`,
    // POST, never GET: typed before the app is here with no script at all, a password stays out of URLs.
    `<form method="post" action="/{{company}}/login" novalidate data-sign-in-shell-form>`,
    `<div class="m_6d731127 mantine-Stack-root" style="--stack-gap: var(--mantine-spacing-md); --stack-align: stretch; --stack-justify: flex-start;">`,
    `<h1 class="m_8a5d1357 mantine-Title-root" data-size="h2" data-order="1" tabindex="-1" style="--title-fw: var(--mantine-h2-font-weight); --title-lh: var(--mantine-h2-line-height); --title-fz: var(--mantine-h2-font-size);">${x('loginTitle')}</h1>`,
    `<div class="m_46b77525 mantine-InputWrapper-root" data-size="sm">${label('shell-username', x('userName'))}`,
    `<div class="m_6c018570 mantine-Input-wrapper" data-variant="default" data-size="sm" style="${inputVars}">`,
    `<input class="m_8fb7ebe7 mantine-Input-input" data-variant="default" autocomplete="username" id="shell-username" name="username" autofocus></div></div>`,
    `<div class="m_f61ca620 mantine-PasswordInput-root m_46b77525 mantine-InputWrapper-root" data-size="sm" style="--psi-icon-size: var(--psi-icon-size-sm); --psi-button-size: var(--psi-button-size-sm);">${label('shell-password', x('password'))}`,
    `<div class="m_6c018570 mantine-Input-wrapper" data-variant="default" data-size="sm" data-with-right-section="true" style="${inputVars}">`,
    `<div class="m_ccf8da4c m_8fb7ebe7 mantine-Input-input" data-variant="default">`,
    `<input class="m_f2d85dd2 mantine-PasswordInput-innerInput" id="shell-password" autocomplete="current-password" type="password" name="password"></div>`,
    `<div data-position="right" class="m_82577fc2 mantine-Input-section">`,
    `<button class="mantine-focus-auto mantine-active m_b1072d44 m_8d3f4000 mantine-ActionIcon-root m_87cf2631 mantine-UnstyledButton-root" data-variant="subtle" type="button" aria-pressed="false" tabindex="-1" aria-label="${x('showPassword')}" style="--ai-bg: transparent; --ai-hover: var(--mantine-color-gray-light-hover); --ai-color: var(--mantine-color-gray-light-color); --ai-bd: calc(0.0625rem * var(--mantine-scale)) solid transparent;">`,
    `<span class="m_8d3afb97 mantine-ActionIcon-icon">${EYE}</span></button></div></div></div>`,
    `<div class="m_bf2d988c mantine-Checkbox-root m_5f75b09e" data-variant="filled" data-label-position="right" style="--checkbox-radius: var(--mantine-radius-sm); --checkbox-color: var(--mantine-primary-color-filled); --checkbox-icon-color: var(--mantine-color-white);">`,
    `<div class="m_5f6e695e mantine-Checkbox-body"><div class="m_26062bec mantine-Checkbox-inner" data-label-position="right">`,
    `<input class="mantine-focus-auto m_26063560 mantine-Checkbox-input" data-with-error-styles="true" id="shell-remember" aria-describedby="shell-remember-description" type="checkbox" name="remember">${CHECK}</div>`,
    `<div class="m_d3ea56bb mantine-Checkbox-labelWrapper"><label class="m_8ee546b8 mantine-Checkbox-label" for="shell-remember">${x('rememberMe')}</label>`,
    `<p class="m_328f68c0 mantine-Checkbox-description m_fe47ce59 mantine-InputWrapper-description" id="shell-remember-description">${x('rememberMeHint')}</p></div></div></div>`,
    `<button class="mantine-focus-auto mantine-active m_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root" data-block="true" type="submit" style="--button-color: {{buttonText}};">`,
    `<span class="m_80f1301b mantine-Button-inner"><span class="m_811560b9 mantine-Button-label">${x('login')}</span></span></button>`,
    `<a ${textLink} href="/{{company}}/login?recover" style="${linkVars} text-align: center;">${x('forgotPassword')}</a>`,
    `</div></form></div></main>`,
    `<footer style="padding-inline: var(--mantine-spacing-md); padding-block: var(--mantine-spacing-md); text-align: center;">`,
    `<a ${textLink} href="/{{company}}/privacy" style="${linkVars}">${x('privacyLink')}</a></footer>`,
    `</div></div>`,
  ].join('');
}
