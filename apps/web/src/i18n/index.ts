import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import itIT from './it-IT.json';
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

type Translations = Record<string, unknown>;
/**
 * Italian (the default) ships in the first bundle; the other languages are fetched when chosen, so the
 * first load carries one translation file instead of three.
 */
const loaders: Record<Exclude<Language, 'it-IT'>, () => Promise<{ default: Translations }>> = {
  'en-EN': () => import('./en-EN.json'),
  'es-ES': () => import('./es-ES.json'),
};

const isLoaded = (lang: Language) => i18n.hasResourceBundle(lang, 'translation');

/** Fetches a language's translations once (a no-op when they are already there). */
export async function loadLanguage(lang: Language): Promise<void> {
  if (lang === 'it-IT' || isLoaded(lang)) return;
  const { default: translations } = await loaders[lang]();
  if (!isLoaded(lang)) i18n.addResourceBundle(lang, 'translation', translations);
}

/** Every language at once (tests switch languages synchronously). */
export const loadAllLanguages = () => Promise.all(LANGUAGES.map((l) => loadLanguage(l.value)));

/**
 * Applies a language everywhere: i18next, `<html lang>`, the date locale (first two letters) and storage.
 * `remember: false` applies a portal's default language without making it the user's choice. A language
 * already loaded switches at once; another switches as soon as its file arrives.
 */
export function applyLanguage(lang: Language, { remember = true }: { remember?: boolean } = {}): void {
  if (isLoaded(lang)) void i18n.changeLanguage(lang);
  else
    void loadLanguage(lang).then(
      () => i18n.changeLanguage(lang),
      () => {
        // Offline or a stale deploy: the current language stays.
      },
    );
  document.documentElement.lang = lang;
  dayjs.locale(lang.slice(0, 2));
  if (remember) storage.set('language', lang);
}

/** `<meta name="description">` in the language shown (search engines and link previews read it). */
function describePage(): void {
  if (typeof document === 'undefined') return;
  let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.appendChild(meta);
  }
  meta.content = i18n.t('common.metaDescription');
}
i18n.on('languageChanged', describePage);

const startLanguage = initialLanguage();
void i18n.use(initReactI18next).init({
  resources: { 'it-IT': { translation: itIT } },
  partialBundledLanguages: true,
  lng: 'it-IT',
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
});
document.documentElement.lang = startLanguage;
dayjs.locale(startLanguage.slice(0, 2));

/** Resolves when the stored language is ready: main.tsx renders after it, so no key flashes untranslated. */
export const i18nReady: Promise<void> =
  startLanguage === 'it-IT'
    ? Promise.resolve()
    : loadLanguage(startLanguage)
        .then(() => i18n.changeLanguage(startLanguage))
        .then(
          () => undefined,
          () => undefined,
        );

export { i18n };
