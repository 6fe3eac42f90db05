import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { splitTexts, type Texts } from './src/i18n/first-paint.ts';
import { DESK_INBOX_TEXTS } from './src/features/staff/i18n/inbox-texts.ts';
import { escapeHtml, signInShellMarkup } from './src/app/sign-in-shell.ts';
import {
  customerFrameMarkup,
  publicFrameMarkup,
  type FrameScreen,
  type PublicScreen,
} from './src/app/customer-frame.ts';

/**
 * `./it-IT.json?first-paint` and `./it-IT.json?rest`: the two parts of a translation file that
 * src/i18n/first-paint.ts names, each a JSON module of its own, so the first load carries only the
 * texts of the shell and My tickets (the other part is a chunk fetched with the other pages). The
 * desk's files likewise, `?desk-inbox` and `?desk-rest`, by src/features/staff/i18n/inbox-texts.ts.
 */
function translationParts(): Plugin {
  return {
    name: 'sportello:translation-parts',
    enforce: 'pre',
    load(id) {
      const m = /^(.+\.json)\?(first-paint|rest|desk-inbox|desk-rest)$/.exec(id);
      if (!m) return null;
      this.addWatchFile(m[1]!);
      const isDesk = m[2]!.startsWith('desk-');
      const [first, rest] = splitTexts(
        JSON.parse(readFileSync(m[1]!, 'utf8')) as Texts,
        isDesk ? DESK_INBOX_TEXTS : undefined,
      );
      const part = m[2] === 'rest' || m[2] === 'desk-rest' ? rest : first;
      return { code: `export default ${JSON.stringify(part)};`, moduleType: 'js' };
    },
  };
}

/** The component libraries the pages share (each page uses a different handful of their modules). */
const UI_LIBRARIES =
  /node_modules[\\/](@mantine[\\/](core|hooks|dates)|@floating-ui|@tabler[\\/]icons-react|react-remove-scroll(-bar)?|react-style-singleton|use-callback-ref|use-sidecar|tabbable|react-number-format|react-textarea-autosize|clsx)[\\/]/;

/**
 * What My tickets' list needs beyond the first load, in one chunk beside the page's own: the list, its
 * rows and states, the filter bar's face, and the few Mantine components and icons they draw with (the
 * filters' controls come after the list: ticket-filters-bar.tsx). Only these modules, not what they
 * import: that is the first load's, or, left to the groups below, it was merged with other pages'
 * widgets (menus, number inputs, calendars: 77 KB gzip loaded before the list in 17 files).
 */
const MY_TICKETS_LIST = [
  /apps[\\/]web[\\/]src[\\/]features[\\/]tickets[\\/]components[\\/](ticket-list\.tsx|ticket-row\.tsx|ticket-filters-bar\.tsx|tickets\.module\.css)/,
  /apps[\\/]web[\\/]src[\\/]features[\\/]tickets[\\/]api[\\/](following|wiki-elements)\.ts/,
  /apps[\\/]web[\\/]src[\\/]ui[\\/](list-states\.tsx|type-colour\.ts|progressive-count\.ts)/,
  /packages[\\/]contracts[\\/]src[\\/]route-refs[\\/]wiki\.ts/,
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Alert|Anchor|Badge|CloseButton|Paper|Skeleton|VisuallyHidden)[\\/]/,
  /node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(AlertTriangle|Calendar|CalendarEvent|ChevronDown|CircleCheck|FileText|Inbox|Plus|User)\.mjs/,
];

/**
 * What a ticket's conversation and the overview's cards draw with beyond the first load and My tickets'
 * list chunk (both pages take that chunk too): the few Mantine components and icons, in one chunk. Left
 * to the shared groups below, each was merged with whatever other pages used it with (the avatar with
 * Tabs and the colour helper with Modal, the overview's icons with the colour picker), and those chunks'
 * imports brought Modal, ScrollArea, Popover, floating-ui, the calendars and dayjs into both pages'
 * first loads (about 60 KB gzip in 15 files, on a slow phone's link before their content). Only these
 * modules, not what they import.
 */
const FIRST_CONTENT = [
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Avatar|Image|SimpleGrid|Typography)[\\/]/,
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/]MantineProvider[\\/]color-functions[\\/]/,
  /node_modules[\\/]@mantine[\\/]hooks[\\/]esm[\\/]use-force-update[\\/]/,
  /node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(AlertCircle|ArrowLeft|ArrowMerge|ArrowsExchange|ClockHour4|ExternalLink|FileInvoice|Lock|LockOpen|Mail|Paperclip|Signature)\.mjs/,
];

/**
 * The desk's layout and inbox, and what they share with the desk's other pages (its routes, keys, query
 * options, paths): one chunk, instead of a dozen files under 1 KB each; the desk's other pages, its
 * menus and dialogs stay apart (they come after the inbox). Only these modules.
 */
const DESK_INBOX = [
  /apps[\\/]web[\\/]src[\\/]features[\\/]staff[\\/](staff-area|desk-start|staff-shell|inbox-page|inbox-url|desk-context|desk-keys|staff-paths)\.tsx?/,
  /apps[\\/]web[\\/]src[\\/]features[\\/]staff[\\/](api[\\/](session|me|keys|inbox|unread|options|ticket-writes|search|ticket|merge)\.ts|components[\\/](inbox-row\.tsx|priority-badge\.tsx|sla-badge\.tsx|quick-search\.tsx|badge-vars\.ts|[a-z-]+\.module\.css)|staff\.module\.css)/,
  /packages[\\/]contracts[\\/]src[\\/](route-refs[\\/]staff(-merge)?|staff-views|staff-ticket-limits)\.ts/,
  // Not IconLanguage (a chunk of its own, below): the customers' language picker, in the sign-in's
  // header, would load this chunk for it.
  /node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(AdjustmentsHorizontal|Bell|Search|Settings)\.mjs/,
  // Only the desk pages lists page by page.
  /node_modules[\\/]@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](infiniteQueryOptions|useInfiniteQuery)\.js/,
  /node_modules[\\/]@tanstack[\\/]query-core[\\/]build[\\/]modern[\\/]infiniteQueryObserver\.js/,
];

/**
 * The desk's reports page (issue 28 item 14) with its charts: @mantine/charts, recharts and what only
 * they use (d3's pieces, redux). One chunk that only the reports page asks for: never before it.
 */
const DESK_REPORTS = [
  /apps[\\/]web[\\/]src[\\/]features[\\/]staff[\\/]reports[\\/][\w-]+\.tsx?$/,
  /packages[\\/]contracts[\\/]src[\\/]route-refs[\\/]desk-reports\.ts$/,
  /node_modules[\\/](@mantine[\\/]charts|recharts|victory-vendor|d3-[a-z-]+|internmap|@reduxjs|redux|redux-thunk|reselect|immer|react-redux|eventemitter3|es-toolkit|decimal\.js-light|tiny-invariant)[\\/]/,
];

/**
 * The icons of the desk ticket's first lines (presence, the merge line's undo) beyond the conversation's
 * (`FIRST_CONTENT`): one small chunk. Left to the `ui` group below, they went into chunks merged with
 * other pages' widgets, and the desk ticket's first paint fetched a colour picker, a table and a scroll
 * area for them (bench/RESULTS.md, session 18). Only these modules.
 */
const DESK_TICKET_ICONS =
  /node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]Icon(ArrowBackUp|Eye|Pencil)\.mjs/;

/** Mantine's text input, which every form and the desk's inbox search use: a chunk of its own. */
const TEXT_INPUT =
  /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Input|InputBase|TextInput)[\\/]/;

/**
 * React Router's production build for `vite build`. Its package.json sends every bundler to the
 * development build (remix-run/react-router#14102, open): the route matcher's development warnings
 * (`ENABLE_DEV_WARNINGS`) ran in the users' browsers on every match. The production build is the same
 * code with them off; dev server and tests keep the warnings.
 */
function reactRouterProduction(): { find: RegExp; replacement: string }[] {
  const file = join(
    dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production/index.mjs',
  );
  return existsSync(file) ? [{ find: /^react-router$/, replacement: file }] : [];
}

/** A chunk and the chunks it imports statically: what the browser fetches before running it. */
function chunkGraph(bundle: Rollup.OutputBundle, from: string, seen = new Set<string>()): Set<string> {
  const chunk = bundle[from];
  if (seen.has(from) || chunk?.type !== 'chunk') return seen;
  seen.add(from);
  for (const dep of chunk.imports) chunkGraph(bundle, dep, seen);
  return seen;
}

/** The stylesheets the chunks import. */
const chunkStyles = (bundle: Rollup.OutputBundle, files: Set<string>) =>
  new Set(
    [...files].flatMap((f) => [...((bundle[f] as Rollup.OutputChunk).viteMetadata?.importedCss ?? [])]),
  );

/**
 * The links that announce chunks and stylesheets, as Vite's own loader asks for them (`crossorigin`);
 * `low`: at low priority, for what the first paint does not wait for (a browser, and Lighthouse's
 * simulation, hold the first paint for high-priority scripts and styles requested before it).
 */
const preloadLinks = (chunks: string[], css: string[], low = false) => {
  const priority = low ? ' fetchpriority="low"' : '';
  return [
    ...chunks.map((f) => `    <link rel="modulepreload"${priority} crossorigin href="/${f}">`),
    ...css.map((f) => `    <link rel="preload" as="style"${priority} crossorigin href="/${f}">`),
  ].join('\n');
};

/** The desk's code, the chunk a visit to any desk page starts with (router.tsx, early-data.ts). */
const DESK_AREA = /[\\/]src[\\/]features[\\/]staff[\\/]staff-area\.tsx$/;
/** The desk's ticket page, which a ticket's address starts with besides (router.tsx, early-data.ts). */
const DESK_TICKET_PAGE = /[\\/]src[\\/]features[\\/]staff[\\/]staff-ticket-page\.tsx$/;

/**
 * `desk.html`: index.html that also announces the desk's code and styles (`modulepreload` and style
 * `preload` links after the entry's), which the API sends for the desk's addresses instead of index.html
 * (apps/api/src/app.ts). From index.html alone a desk visit asks for that code only once the entry has
 * been fetched, compiled and run — on a slow phone about 300 ms after the page came — and the desk's
 * first render waits for it; announced in the page, it loads beside the entry. Customers' pages keep
 * index.html as it is, so their first load carries none of this. `desk-ticket.html` announces the ticket
 * page's code as well, for a ticket's address (a link in an e-mail, a colleague's): the inbox's page does
 * not, or the inbox's first load would share its connections with a page it does not show. The ticket
 * page's code, the desk's other texts and Mantine's other styles at low priority: the layout's first
 * paint does not wait for them.
 *
 * `desk.<language>.html` and `desk-ticket.<language>.html` announce that language's texts too, which
 * the first render (and the ticket page) wait for and the app asks for only once the entry has run: the
 * server sends the one of the browser's first language the app speaks (else Italian's), as the app
 * chooses on a first visit (a language chosen in the desk, which only the tab knows, is fetched then).
 */
function deskHtml(): Plugin {
  return {
    name: 'sportello:desk-html',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      const html = bundle['index.html'];
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const area = chunks.find((c) => Object.keys(c.modules).some((id) => DESK_AREA.test(id)));
      const ticket = chunks.find((c) => c.facadeModuleId && DESK_TICKET_PAGE.test(c.facadeModuleId));
      if (html?.type !== 'asset' || !entry || !area || !ticket)
        this.error('desk.html: index.html, the desk chunk or its ticket page is missing');
      const fail = (m: string): never => this.error(`desk.html: ${m}`);
      const chunkOf = (test: RegExp) =>
        chunks.find((c) => Object.keys(c.modules).some((id) => test.test(id)))?.fileName ??
        fail(`no chunk holds ${String(test)}`);
      const restCss =
        Object.values(bundle).find((a) => a.type === 'asset' && a.names.includes(MANTINE_REST_CSS))
          ?.fileName ?? fail(`no ${MANTINE_REST_CSS}`);
      const styles = (files: Iterable<string>) => chunkStyles(bundle, new Set(files));
      const initial = chunkGraph(bundle, entry.fileName);
      const initialCss = styles(initial);
      const source = String(html.source);
      if (!source.includes('</head>')) this.error('desk.html: index.html has no </head>');
      /** The chunks of `roots` and what they import, but the entry's. */
      const graph = (roots: string[], but: Set<string> = initial) => {
        const seen = new Set<string>();
        for (const root of roots) chunkGraph(bundle, root, seen);
        return [...seen].filter((f) => !but.has(f));
      };
      const emit = (fileName: string, first: string[], later: string[] = [], laterCss: string[] = []) => {
        const desk = graph(first);
        const deskCss = [...styles(desk)].filter((f) => !initialCss.has(f));
        const rest = graph(later, new Set([...initial, ...desk]));
        const restStyles = [...styles(rest), ...laterCss].filter(
          (f) => !initialCss.has(f) && !deskCss.includes(f),
        );
        // `crossorigin` as Vite's own loader asks for them, or the browser would fetch each one twice.
        const links = [
          preloadLinks(desk, deskCss),
          ...(later.length ? [preloadLinks(rest, restStyles, true)] : []),
        ];
        this.emitFile({
          type: 'asset',
          fileName,
          source: source.replace(/(\s*)<\/head>/, `\n${links.join('\n')}$1</head>`),
        });
      };
      emit('desk.html', [area.fileName]);
      // The desk's code first: its chunks are what the layout and the ticket's requests wait for.
      emit('desk-ticket.html', [area.fileName], [ticket.fileName], [restCss]);
      for (const [lang] of SHELL_LANGUAGES) {
        // The language's texts the first render waits for: Italian's first part is in the entry (its
        // rest for the ticket page), English and Spanish are one chunk each (i18n/index.ts).
        const texts =
          lang === 'it-IT' ? [] : [chunkOf(new RegExp(`[\\\\/]src[\\\\/]i18n[\\\\/]${lang}\\.json$`))];
        const restTexts = lang === 'it-IT' ? [chunkOf(/[\\/]src[\\/]i18n[\\/]it-IT\.json\?rest$/)] : [];
        const desk = (part: string) =>
          chunkOf(new RegExp(`[\\\\/]staff[\\\\/]i18n[\\\\/]${lang}\\.json\\?${part}$`));
        const first = [area.fileName, ...texts, desk('desk-inbox')];
        emit(`desk.${lang}.html`, first);
        emit(
          `desk-ticket.${lang}.html`,
          first,
          [ticket.fileName, desk('desk-rest'), ...restTexts],
          [restCss],
        );
      }
    },
  };
}

/** Language codes as the server names the sign-in pages (`sign-in.it-IT.html`): the app's three. */
const SHELL_LANGUAGES = [
  ['it-IT', 'Italiano'],
  ['en-EN', 'English'],
  ['es-ES', 'Español'],
] as const;

/**
 * `sign-in.<language>.html`: index.html with the portal's sign-in already drawn before `#root`
 * (src/app/sign-in-shell.ts, in each language's words), the script that sets the colour scheme before
 * the first paint, and Mantine's styles of the form's components that the first paint's stylesheet
 * lacks. The server fills in the portal (apps/api modules/portals/sign-in-page.ts).
 */
function signInShell(): Plugin {
  const require = createRequire(import.meta.url);
  const css = (component: string) =>
    readFileSync(require.resolve(`@mantine/core/styles/${component}.layer.css`), 'utf8');
  return {
    name: 'sportello:sign-in-shell',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return this.error('sign-in shell: index.html is missing');
      const source = String(html.source);
      const criticalCss = ['InlineInput', 'Checkbox', 'PasswordInput'].map(css).join('');
      for (const [lang, languageLabel] of SHELL_LANGUAGES) {
        const texts = JSON.parse(
          readFileSync(new URL(`./src/i18n/${lang}.json`, import.meta.url), 'utf8'),
        ) as Record<string, unknown>;
        const text = (key: string): string => {
          const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], texts);
          if (typeof value !== 'string') this.error(`sign-in shell: no text ${key} in ${lang}`);
          return value as string;
        };
        const markup = signInShellMarkup(
          {
            skipToContent: text('common.skipToContent'),
            language: text('layout.language'),
            languageLabel,
            languageCode: lang.slice(0, 2).toUpperCase(),
            loginTitle: text('auth.loginTitle'),
            userName: text('auth.userName'),
            password: text('auth.password'),
            showPassword: text('auth.showPassword'),
            rememberMe: text('account.login.rememberMe'),
            rememberMeHint: text('account.login.rememberMeHint'),
            login: text('auth.login'),
            forgotPassword: text('auth.forgotPassword'),
            privacyLink: text('auth.privacyLink'),
          },
          criticalCss,
        );
        const { page, missing } = drawnPage(source, {
          lang,
          title: `${escapeHtml(text('auth.loginTitle'))} · {{portalName}}`,
          markup,
          mark: 'data-sign-in-shell',
        });
        if (missing) this.error(`sign-in shell: index.html changed, ${missing} not placed`);
        this.emitFile({ type: 'asset', fileName: `sign-in.${lang}.html`, source: page });
      }
    },
  };
}

/**
 * index.html as a page the server sends drawn (the sign-in, a customer screen's frame): its language and
 * title, the portal's theme colour to fill in, `sign-in-shell.js` before the app (with the frame's screen,
 * whose first answers it asks for), `head` (preload links)
 * added, and `markup` before `#root`. The page paints without the app's code, so that code (and what
 * `head` announces) is asked for at low priority: a browser, and Lighthouse's simulation, hold the first
 * paint for high-priority scripts requested before it, and they would hold back the stylesheet and the
 * logo that paint waits for. `missing`: a mark index.html no longer lets it place.
 */
function drawnPage(
  source: string,
  o: { lang: string; title: string; head?: string; markup: string; mark: string; frame?: FrameScreen },
): { page: string; missing?: string } {
  let page = source
    .replace(/<html lang="[^"]*"/, `<html lang="${o.lang}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${o.title}</title>`)
    .replace(/<meta name="theme-color" content="[^"]*"/, '<meta name="theme-color" content="{{themeColor}}"')
    .replace(
      /(\s*)<script type="module"/,
      `$1<script src="/sign-in-shell.js"${o.frame ? ` data-frame="${o.frame}"` : ''}></script>$1<script type="module"`,
    );
  if (o.head !== undefined) page = page.replace(/(\s*)<\/head>/, `\n${o.head}$1</head>`);
  page = page
    .replace(/<script type="module" crossorigin/, '<script type="module" fetchpriority="low" crossorigin')
    .replace(
      /<link rel="modulepreload" crossorigin/g,
      '<link rel="modulepreload" fetchpriority="low" crossorigin',
    )
    .replace('<div id="root"></div>', `${o.markup}<div id="root"></div>`);
  const missing = ['{{portalName}}</title>', '{{themeColor}}', 'sign-in-shell.js', o.mark].find(
    (mark) => !page.includes(mark),
  );
  return { page, missing };
}

/**
 * The customer screens that get a frame of their own (src/app/customer-frame.ts): the page module each
 * one's address loads first, its title's text, and whether that page waits for the texts and Mantine
 * styles beyond the first paint (router.tsx's `page`; My tickets does not). `screen`: any other screen of
 * the layout, the header alone.
 */
const FRAME_SCREENS: {
  screen: FrameScreen;
  page: RegExp | null;
  title: string | null;
  rest: boolean;
  /** Whether the page waits for Mantine's other styles too (not a ticket nor the overview). */
  restStyles?: boolean;
}[] = [
  { screen: 'screen', page: null, title: null, rest: false },
  {
    screen: 'overview',
    page: /[\\/]src[\\/]features[\\/]overview[\\/]overview-page\.tsx$/,
    title: 'overview.title',
    rest: true,
    restStyles: false,
  },
  {
    screen: 'tickets',
    page: /[\\/]src[\\/]features[\\/]tickets[\\/]tickets-page\.tsx$/,
    title: 'tickets.myTitle',
    rest: false,
  },
  {
    screen: 'ticket',
    page: /[\\/]src[\\/]features[\\/]tickets[\\/]ticket-detail-page\.tsx$/,
    title: null,
    rest: true,
    restStyles: false,
  },
  {
    screen: 'new-ticket',
    page: /[\\/]src[\\/]features[\\/]tickets[\\/]new-ticket-page\.tsx$/,
    title: 'tickets.new.title',
    rest: true,
  },
  {
    screen: 'invoices',
    page: /[\\/]src[\\/]features[\\/]billing[\\/]invoices-page\.tsx$/,
    title: 'billing.invoicesTitle',
    rest: true,
  },
];

/**
 * The public pages that get a frame (src/app/customer-frame.ts `publicFrameMarkup`): the page module, the
 * words of its `<title>` (usePageTitle's, after the server's `{{title}}`). Both wait for the texts and
 * Mantine's styles beyond the first paint, and for app/early-pages.ts, which starts their requests.
 */
const PUBLIC_SCREENS: { screen: PublicScreen; page: RegExp; pageTitle: string }[] = [
  {
    screen: 'signing',
    page: /[\\/]src[\\/]features[\\/]signing[\\/]sign-page\.tsx$/,
    pageTitle: 'signing.pageTitle',
  },
  {
    screen: 'booking',
    page: /[\\/]src[\\/]features[\\/]appointments[\\/]booking-page\.tsx$/,
    pageTitle: 'appointments.pageTitle',
  },
];
const EARLY_PAGES = /[\\/]src[\\/]app[\\/]early-pages\.ts$/;

/**
 * Mantine's styles beyond the first paint (styles/mantine-rest.ts, a module of CSS alone: the build
 * keeps its stylesheet only), which every page but My tickets waits for.
 */
const MANTINE_REST_CSS = 'mantine-rest.css';

/** A language's texts as the build reads them, `text('a.b')` failing the build when one is missing. */
function buildTexts(lang: string, fail: (m: string) => never): (key: string) => string {
  const texts = JSON.parse(
    readFileSync(new URL(`./src/i18n/${lang}.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  return (key) => {
    const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], texts);
    if (typeof value !== 'string') fail(`no text ${key} in ${lang}`);
    return value as string;
  };
}

/**
 * `frame.<screen>.<language>.html`: index.html with the signed-in shell's frame drawn before `#root`
 * (src/app/customer-frame.ts: the header, the page's title where the address says it), the script that
 * sets the colour scheme before the first paint, and `modulepreload` links for what that screen's first
 * render waits for beyond the entry: its page's chunks (from the bundle's import graph, as desk.html),
 * and the language's texts and Mantine's other styles when the page waits for them. The server fills in
 * the portal (apps/api modules/portals/customer-frame-page.ts); index.html stays as it was, so the
 * customer's and the desk's first loads are unchanged.
 */
function customerFrame(): Plugin {
  return {
    name: 'sportello:customer-frame',
    apply: 'build',
    enforce: 'post',
    generateBundle(_, bundle) {
      const html = bundle['index.html'];
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (html?.type !== 'asset' || !entry)
        return this.error('customer frame: index.html or the entry is missing');
      const fail = (m: string): never => this.error(`customer frame: ${m}`);
      const chunkOf = (test: RegExp) =>
        chunks.find((c) => Object.keys(c.modules).some((id) => test.test(id))) ??
        fail(`no chunk holds ${String(test)}`);
      const initial = chunkGraph(bundle, entry.fileName);
      const initialCss = chunkStyles(bundle, initial);
      const restCss =
        Object.values(bundle).find((a) => a.type === 'asset' && a.names.includes(MANTINE_REST_CSS))
          ?.fileName ?? fail(`no ${MANTINE_REST_CSS}`);
      const source = String(html.source);
      /** The frame's page: its preload links (beyond the entry's), its markup before `#root`. */
      const emit = (
        fileName: string,
        o: {
          lang: string;
          title: string;
          roots: string[];
          rest: boolean;
          markup: string;
          /** A signed-in screen, whose first answers the page's script asks for. */
          frame?: FrameScreen;
        },
      ) => {
        const wanted = new Set<string>();
        for (const root of o.roots)
          for (const f of chunkGraph(bundle, root)) if (!initial.has(f)) wanted.add(f);
        const css = [...chunkStyles(bundle, wanted), ...(o.rest ? [restCss] : [])].filter(
          (f) => !initialCss.has(f),
        );
        const { page, missing } = drawnPage(source, {
          lang: o.lang,
          title: o.title,
          head: preloadLinks([...wanted], css),
          markup: o.markup,
          mark: 'data-customer-frame',
          ...(o.frame && { frame: o.frame }),
        });
        if (missing) fail(`index.html changed, ${missing} not placed`);
        this.emitFile({ type: 'asset', fileName, source: page });
      };
      for (const [lang, languageLabel] of SHELL_LANGUAGES) {
        const text = buildTexts(lang, fail);
        // The language's texts the first render waits for: Italian's first part is in the entry, its
        // rest a chunk; English and Spanish are one chunk each (i18n/index.ts).
        const texts = chunkOf(
          lang === 'it-IT' ? /[\\/]it-IT\.json\?rest$/ : new RegExp(`[\\\\/]${lang}\\.json$`),
        );
        for (const { screen, page, title, rest, restStyles = rest } of FRAME_SCREENS)
          emit(`frame.${screen}.${lang}.html`, {
            lang,
            title: title ? `${escapeHtml(text(title))} · {{portalName}}` : '{{portalName}}',
            roots: [
              ...(page ? [chunkOf(page).fileName] : []),
              ...(rest || lang !== 'it-IT' ? [texts.fileName] : []),
            ],
            rest: restStyles,
            frame: screen,
            markup: customerFrameMarkup(screen, {
              skipToContent: text('common.skipToContent'),
              openNavigation: text('layout.openNavigation'),
              navigation: text('layout.navigation'),
              search: text('search.open'),
              title: title ? text(title) : null,
              newTicket: screen === 'tickets' ? text('tickets.newTicket') : null,
            }),
          });
        for (const { screen, page, pageTitle } of PUBLIC_SCREENS)
          emit(`frame.${screen}.${lang}.html`, {
            lang,
            title: `{{title}} · ${escapeHtml(text(pageTitle))} · {{portalName}}`,
            // The module that starts the page's requests first: the entry asks for it at its top.
            roots: [chunkOf(EARLY_PAGES).fileName, chunkOf(page).fileName, texts.fileName],
            rest: true,
            markup: publicFrameMarkup(screen, {
              skipToContent: text('common.skipToContent'),
              language: text('layout.language'),
              languageLabel,
              languageCode: lang.slice(0, 2).toUpperCase(),
              signerLabel: text('signing.signerLabel'),
              companyLabel: text('signing.companyLabel'),
              expiresOn: text('signing.expiresOn'),
              withAgent: text('appointments.withAgent'),
            }),
          });
      }
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), translationParts(), deskHtml(), signInShell(), customerFrame()],
  resolve: { alias: command === 'build' ? reactRouterProduction() : [] },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // A shared chunk is named after the pages using it: a long list of names says nothing useful.
        chunkFileNames: (chunk) =>
          chunk.name.includes('~') ? 'assets/shared-[hash].js' : 'assets/[name]-[hash].js',
        assetFileNames: (asset) =>
          asset.names.some((n) => n.includes('~'))
            ? 'assets/shared-[hash][extname]'
            : 'assets/[name]-[hash][extname]',
        /*
         * Left alone, the bundler cuts a chunk per distinct set of pages using a module: My tickets came
         * in 30 files (most under 1 KB), queued six at a time on an HTTP/1.1 connection, each announced
         * by a <link rel=modulepreload> that costs the main thread a few ms on a slow phone. Instead: the
         * libraries of the first load in one file, and the lazily used component code in chunks per
         * set of pages, small sets merged.
         */
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 2 },
            /*
             * The display zone (lib/time-zone.ts) and the zone rules it is built on (contracts'
             * time-zone.ts, shared with the server): one file of the first load, not two.
             */
            {
              name: 'time-zone',
              test: /(apps[\\/]web[\\/]src[\\/]lib|packages[\\/]contracts[\\/]src)[\\/]time-zone\.ts$/,
              priority: 1.9,
              includeDependenciesRecursively: false,
            },
            {
              name: 'list',
              test: (id) => MY_TICKETS_LIST.some((re) => re.test(id)),
              priority: 1.8,
              includeDependenciesRecursively: false,
            },
            {
              name: 'content',
              test: (id) => FIRST_CONTENT.some((re) => re.test(id)),
              priority: 1.75,
              includeDependenciesRecursively: false,
            },
            {
              name: 'desk',
              test: (id) => DESK_INBOX.some((re) => re.test(id)),
              priority: 1.7,
              includeDependenciesRecursively: false,
            },
            /*
             * React's external-store hooks and react-is, which the charts share with the HTML editor and
             * the translations: alone, or the chunk of one imported the other's and each waited on the
             * other's modules at start (the reports page threw before drawing).
             */
            {
              name: 'sync-store',
              test: /node_modules[\\/](use-sync-external-store|react-is)[\\/]/,
              priority: 1.66,
              includeDependenciesRecursively: false,
            },
            /*
             * dayjs (CommonJS), which Mantine's dates and the pages' own date code share: alone, or the
             * chunking put it beside the Rating component in a chunk that Mantine's dates chunk imports and
             * that imports that chunk back, and the page calling dayjs's wrapper at start threw
             * "_ is not a function" (a customer's ticket page after the reports page came).
             */
            {
              name: 'dayjs',
              test: /node_modules[\\/]dayjs[\\/]/,
              priority: 1.66,
              includeDependenciesRecursively: false,
            },
            {
              name: 'reports',
              test: (id) => DESK_REPORTS.some((re) => re.test(id)),
              priority: 1.65,
              includeDependenciesRecursively: false,
            },
            { name: 'input', test: TEXT_INPUT, priority: 1.6, includeDependenciesRecursively: false },
            {
              name: 'desk-ticket-icons',
              test: DESK_TICKET_ICONS,
              priority: 1.58,
              includeDependenciesRecursively: false,
            },
            /*
             * Mantine's Textarea (the editor's plain form, the rating's comment): alone, or it was merged
             * with the number input, whose chunk imported the calendars' with dayjs (the new ticket's
             * first load took them for a textarea).
             */
            {
              name: 'textarea',
              test: /node_modules[\\/](@mantine[\\/]core[\\/]esm[\\/]components[\\/]Textarea|react-textarea-autosize)[\\/]/,
              priority: 1.58,
              includeDependenciesRecursively: false,
            },
            /*
             * The language icon of the desk's header and of the customers' language picker: alone, so
             * neither side's first load takes the other's chunk (nor a larger shared one) for it.
             */
            {
              name: 'icon-language',
              test: /node_modules[\\/]@tabler[\\/]icons-react[\\/]dist[\\/]esm[\\/]icons[\\/]IconLanguage\.mjs/,
              priority: 1.55,
              includeDependenciesRecursively: false,
            },
            /*
             * Mantine's Combobox and Select import each other's parts (ComboboxChevron): split by the
             * sets of pages using them, they landed in two chunks importing each other, and whichever ran
             * first met the other's exports still undefined (a blank page). One chunk for the family.
             */
            {
              name: 'combobox',
              test: /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Combobox|ComboboxPopover|Select)[\\/]/,
              priority: 1.5,
              includeDependenciesRecursively: false,
            },
            /*
             * Mantine's small helpers (noop, memoize, keys…) that only lazily loaded code uses: alone, a
             * few hundred bytes. Left to the group below, they were merged with the chunk of whichever
             * components shared their set of pages, so the desk's colour-scheme hook pulled the Popover
             * family and floating-ui (35 KB gzip) into the desk's first load for a `noop`.
             */
            {
              name: 'mantine-utils',
              test: /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]core[\\/]utils[\\/]/,
              priority: 1.45,
              includeDependenciesRecursively: false,
            },
            {
              name: 'ui',
              test: UI_LIBRARIES,
              priority: 1,
              entriesAware: true,
              entriesAwareMergeThreshold: 10_000,
            },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    env: { TZ: 'UTC' },
  },
}));
