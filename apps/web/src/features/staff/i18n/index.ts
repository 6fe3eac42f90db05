import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n';
import enEN from './en-EN.json';
import esES from './es-ES.json';
import itIT from './it-IT.json';

/**
 * The desk's texts: their own namespace, in this chunk only (the customer's bundle carries none of
 * them). All three languages come with the chunk, so switching language on the desk never shows a key.
 * A namespace of its own also keeps `hasResourceBundle(lang, 'translation')`, which decides whether the
 * customer's texts of a language are loaded, false until they are.
 */
export const STAFF_NS = 'staff';
export const STAFF_TEXTS = { 'it-IT': itIT, 'en-EN': enEN, 'es-ES': esES } as const;

for (const [lang, texts] of Object.entries(STAFF_TEXTS))
  if (!i18n.hasResourceBundle(lang, STAFF_NS)) i18n.addResourceBundle(lang, STAFF_NS, texts);

/**
 * `t` of the desk: its own texts first, then the app's (the shared widgets' and lib/error-text's keys
 * resolve as everywhere else).
 */
export const useStaffT = () => useTranslation([STAFF_NS, 'translation']);
