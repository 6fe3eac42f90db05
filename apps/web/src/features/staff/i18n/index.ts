import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { addTextsNamespace, type Language } from '../../../i18n';

/**
 * The desk's texts: their own namespace, in chunks of their own, one per language and part (the
 * customer's bundle carries none of them): the layout's and inbox's texts (inbox-texts.ts) are fetched
 * with the layout (`loadStaffInboxTexts`), the rest with the desk's other pages and the inbox's menus and
 * dialogs (`loadStaffTexts`, router.tsx), so a desk visit's first load carries only its first screen's;
 * another language's parts with it when the agent picks it (i18n/index.ts), so switching language on the
 * desk never shows a key. A namespace of its own also keeps `hasResourceBundle(lang, 'translation')`,
 * which decides whether the customer's texts of a language are loaded, false until they are.
 */
export const STAFF_NS = 'staff';
type Loaders = Record<Language, () => Promise<{ default: Record<string, unknown> }>>;
const STAFF_INBOX_TEXTS: Loaders = {
  'it-IT': () => import('./it-IT.json?desk-inbox'),
  'en-EN': () => import('./en-EN.json?desk-inbox'),
  'es-ES': () => import('./es-ES.json?desk-inbox'),
};
const STAFF_REST_TEXTS: Loaders = {
  'it-IT': () => import('./it-IT.json?desk-rest'),
  'en-EN': () => import('./en-EN.json?desk-rest'),
  'es-ES': () => import('./es-ES.json?desk-rest'),
};
/** Each language's whole file, for tests. */
export const STAFF_TEXTS: Loaders = {
  'it-IT': () => import('./it-IT.json'),
  'en-EN': () => import('./en-EN.json'),
  'es-ES': () => import('./es-ES.json'),
};

const once = (load: () => Promise<void>) => {
  let loading: Promise<void> | null = null;
  return (): Promise<void> =>
    (loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    }));
};

/** The texts of the desk's layout and inbox in the current language (once). */
export const loadStaffInboxTexts = once(() =>
  addTextsNamespace(STAFF_NS, STAFF_INBOX_TEXTS, `${STAFF_NS} inbox`),
);

/** All the desk's texts in the current language: every desk page but the inbox waits for them (once). */
export const loadStaffTexts = once(() =>
  Promise.all([
    loadStaffInboxTexts(),
    addTextsNamespace(STAFF_NS, STAFF_REST_TEXTS, `${STAFF_NS} rest`),
  ]).then(() => undefined),
);

const NAMESPACES = [STAFF_NS, 'translation'];

/**
 * `t` of the desk: its own texts first, then the app's (the shared widgets' and lib/error-text's keys
 * resolve as everywhere else).
 *
 * A plain text — a key asked for without options whose text has nothing to interpolate or nest — is
 * read straight from the store where i18next's `t` reads it first: the desk's namespace in the current
 * language (the app has no fallback language: i18n/index.ts); a key the desk's texts lack goes to `t`.
 * i18next's full resolution took about 1 ms of a slow phone's CPU a call, and the inbox's first render
 * makes a few dozen before its rows show. Anything else is i18next's (use-staff-t.test.tsx compares the
 * two on every key, in every language).
 */
export function useStaffT() {
  // 'fallback': a key the desk's texts lack is looked up in the app's (react-i18next's default binds
  // `t` to the first namespace alone, and the shared widgets' keys came back as the key itself).
  const { t, i18n, ready } = useTranslation(NAMESPACES, { nsMode: 'fallback' });
  const language = i18n.language;
  const fast = useMemo(() => {
    const plain = (key: unknown): string | null => {
      if (typeof key !== 'string' || key.includes(':')) return null;
      const text: unknown = i18n.getResource(language, STAFF_NS, key);
      return typeof text === 'string' && text !== '' && !text.includes('{{') && !text.includes('$t(')
        ? text
        : null;
    };
    return ((key: unknown, ...rest: unknown[]) =>
      (rest.length === 0 && plain(key)) ||
      (t as unknown as (...a: unknown[]) => string)(key, ...rest)) as unknown as typeof t;
  }, [t, i18n, language]);
  return { t: fast, i18n, ready };
}
