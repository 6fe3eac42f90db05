import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import itIT from './it-IT.json';
import enEN from './en-EN.json';
import esES from './es-ES.json';
import { storage } from '../lib/storage';
import { dayjs } from '../lib/format';

export const LANGUAGES = [
  { value: 'it-IT', label: 'Italiano' },
  { value: 'en-EN', label: 'English' },
  { value: 'es-ES', label: 'Español' },
] as const;
export type Language = (typeof LANGUAGES)[number]['value'];

export const isLanguage = (v: unknown): v is Language => LANGUAGES.some((l) => l.value === v);

/** The stored choice, else it-IT (SPEC A1). */
export function initialLanguage(): Language {
  const stored = storage.get('language');
  return isLanguage(stored) ? stored : 'it-IT';
}

/**
 * Applies a language everywhere: i18next, `<html lang>`, the date locale (first two letters) and storage.
 * `remember: false` applies a portal's default language without making it the user's choice.
 */
export function applyLanguage(lang: Language, { remember = true }: { remember?: boolean } = {}): void {
  void i18n.changeLanguage(lang);
  document.documentElement.lang = lang;
  dayjs.locale(lang.slice(0, 2));
  if (remember) storage.set('language', lang);
}

void i18n.use(initReactI18next).init({
  resources: {
    'it-IT': { translation: itIT },
    'en-EN': { translation: enEN },
    'es-ES': { translation: esES },
  },
  lng: initialLanguage(),
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});
document.documentElement.lang = i18n.language;
dayjs.locale(i18n.language.slice(0, 2));

export { i18n };
