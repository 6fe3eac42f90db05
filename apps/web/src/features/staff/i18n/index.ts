import { useTranslation } from 'react-i18next';
import { addTextsNamespace, type Language } from '../../../i18n';

/**
 * The desk's texts: their own namespace, in chunks of their own, one per language (the customer's
 * bundle carries none of them): the current language's is fetched with the desk's pages
 * (`loadStaffTexts`, router.tsx), another with it when the agent picks it (i18n/index.ts), so switching
 * language on the desk never shows a key. A namespace of its own also keeps
 * `hasResourceBundle(lang, 'translation')`, which decides whether the customer's texts of a language are
 * loaded, false until they are.
 */
export const STAFF_NS = 'staff';
export const STAFF_TEXTS: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  'it-IT': () => import('./it-IT.json'),
  'en-EN': () => import('./en-EN.json'),
  'es-ES': () => import('./es-ES.json'),
};

/** The desk's texts in the current language; every desk page waits for them (once). */
let loading: Promise<void> | null = null;
export const loadStaffTexts = (): Promise<void> =>
  (loading ??= addTextsNamespace(STAFF_NS, STAFF_TEXTS).catch((e: unknown) => {
    loading = null;
    throw e;
  }));

/**
 * `t` of the desk: its own texts first, then the app's (the shared widgets' and lib/error-text's keys
 * resolve as everywhere else).
 */
export const useStaffT = () => useTranslation([STAFF_NS, 'translation']);
