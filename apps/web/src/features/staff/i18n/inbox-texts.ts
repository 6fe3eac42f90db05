/**
 * The desk's texts of its layout and inbox: a desk visit's first load carries only these, the rest
 * of the desk's texts come with its other pages, menus and dialogs. The build splits each language's
 * file in two by this list (`it-IT.json?desk-inbox` and `it-IT.json?desk-rest`, vite.config.ts's
 * `translationParts`); the files stay whole, for translators and the parity test. A text new to the
 * desk's layout or inbox (the modules of the `desk` chunk in vite.config.ts) goes into this list:
 * inbox-texts.test.tsx draws them with these texts alone and names any key missing; a component the
 * layout or the inbox loads lazily waits for the rest (`loadStaffTexts`).
 *
 * Each entry is a key path (a whole section or one text), as in i18n/first-paint.ts.
 */
export const DESK_INBOX_TEXTS: readonly string[] = [
  'desk',
  'loading',
  'close',
  'shell',
  'views',
  'inbox',
  'priority',
  'search',
  'sla',
  'admin.link',
  'reportsLink',
  'bulk.select',
  'newTicket.button',
];
