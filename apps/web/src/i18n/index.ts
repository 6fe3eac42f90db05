import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import itFirstPaint from './it-IT.json?first-paint';
import { storage } from '../lib/storage';

export const LANGUAGES = [
  { value: 'it-IT', label: 'Italiano' },
  { value: 'en-EN', label: 'English' },
  { value: 'es-ES', label: 'Español' },
] as const;
export type Language = (typeof LANGUAGES)[number]['value'];

export const isLanguage = (v: unknown): v is Language => LANGUAGES.some((l) => l.value === v);

/** The first of the browser's languages the portal speaks (`en-US` reads English), or null. */
export function browserLanguage(): Language | null {
  for (const tag of navigator.languages ?? [navigator.language])
    for (const { value } of LANGUAGES) if (tag.slice(0, 2).toLowerCase() === value.slice(0, 2)) return value;
  return null;
}

/**
 * The user's choice (stored), else the browser's language when the portal speaks it, else it-IT (SPEC
 * A1; the portal's default language replaces it-IT once its settings arrive: lib/branding.ts).
 */
export function initialLanguage(): Language {
  const stored = storage.get('language');
  return isLanguage(stored) ? stored : (browserLanguage() ?? 'it-IT');
}

type Translations = Record<string, unknown>;
/**
 * The first load carries the Italian texts of the shell and My tickets (first-paint.ts); the rest of
 * Italian, and English and Spanish whole, are fetched when needed: the rest of the current language by
 * every other page before it shows (`loadRestTexts`), a language when chosen.
 */
const loaders: Record<Language, () => Promise<{ default: Translations }>> = {
  'it-IT': () => import('./it-IT.json?rest'),
  'en-EN': () => import('./en-EN.json'),
  'es-ES': () => import('./es-ES.json'),
};

/** The languages whose texts are all here. */
const complete = new Set<Language>();

/** Fetches what is missing of a language's texts, once (a no-op when they are all here). */
export async function loadLanguage(lang: Language): Promise<void> {
  if (complete.has(lang)) return;
  const { default: translations } = await loaders[lang]();
  if (complete.has(lang)) return;
  // Deep: the Italian rest completes sections the first part has begun (tickets).
  i18n.addResourceBundle(lang, 'translation', translations, true, false);
  complete.add(lang);
}

type Loaders = Record<Language, () => Promise<{ default: Translations }>>;
/**
 * Namespaces of texts of their own (the staff desk's), fetched a language at a time, by parts (the
 * desk's inbox texts, then the rest): each part's key names it.
 */
const namespaces = new Map<string, { ns: string; load: Loaders }>();
/** `language part` of every part added to i18next. */
const loadedParts = new Set<string>();

/** Fetches what is missing of the registered namespaces in a language. */
async function loadNamespaces(lang: Language): Promise<void> {
  await Promise.all(
    [...namespaces].map(async ([part, { ns, load }]) => {
      if (loadedParts.has(`${lang} ${part}`)) return;
      const { default: texts } = await load[lang]();
      if (loadedParts.has(`${lang} ${part}`)) return;
      // Deep: a namespace's parts complete the sections they share.
      i18n.addResourceBundle(lang, ns, texts, true, false);
      loadedParts.add(`${lang} ${part}`);
    }),
  );
}

const hasNamespaces = (lang: Language) =>
  [...namespaces.keys()].every((part) => loadedParts.has(`${lang} ${part}`));

/**
 * The language last asked for: the stored one at start (i18nReady switches to it once its texts are
 * here), then each `applyLanguage`. Until its texts arrive, i18next still shows the one before.
 */
let wanted: Language = initialLanguage();

/**
 * A namespace of texts of its own, one file per language: the language shown's and the one asked for
 * are fetched now (the promise settles when they are here: the desk registers its namespace before
 * i18nReady has switched to the stored language), another's with that language when it is chosen, so a
 * switch never shows a key. `part`: one part of a namespace's texts, registered on its own (the desk's
 * inbox texts first, the rest with its other pages).
 */
export function addTextsNamespace(ns: string, loaders: Loaders, part = ns): Promise<void> {
  namespaces.set(part, { ns, load: loaders });
  const langs = new Set([i18n.language, wanted].filter(isLanguage));
  return Promise.all([...langs].map(loadNamespaces)).then(() => undefined);
}

/** The current language's texts beyond the first paint's: every page but My tickets waits for them. */
export const loadRestTexts = (): Promise<void> =>
  isLanguage(i18n.language) ? loadLanguage(i18n.language) : Promise.resolve();

/** Every language at once (tests switch languages synchronously). */
export const loadAllLanguages = () => Promise.all(LANGUAGES.map((l) => loadLanguage(l.value)));

/**
 * Applies a language everywhere: i18next (and with it the date locale, lib/dates.ts), `<html lang>` and
 * storage.
 * `remember: false` applies a portal's default language without making it the user's choice. A language
 * whose texts are all here switches at once; another as soon as they arrive.
 */
export function applyLanguage(lang: Language, { remember = true }: { remember?: boolean } = {}): void {
  wanted = lang;
  // The language shown needs no switch (each page fetches the rest of its texts).
  if (lang !== i18n.language) {
    if (complete.has(lang) && hasNamespaces(lang)) void i18n.changeLanguage(lang);
    else
      void Promise.all([loadLanguage(lang), loadNamespaces(lang)])
        // Once more: a namespace registered meanwhile (the desk's, as it opens) is fetched for this
        // language by addTextsNamespace; this waits for it (the same import, no second request).
        .then(() => loadNamespaces(lang))
        .then(
          () => i18n.changeLanguage(lang),
          () => {
            // Offline or a stale deploy: the current language stays.
          },
        );
  }
  document.documentElement.lang = lang;
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
const initialized = i18n.use(initReactI18next).init({
  resources: { 'it-IT': { translation: itFirstPaint } },
  partialBundledLanguages: true,
  lng: 'it-IT',
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  showSupportNotice: false,
  // A component drawn before its texts arrived (a menu opened at once) draws again when they do.
  react: { bindI18nStore: 'added' },
});
document.documentElement.lang = startLanguage;

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

/**
 * The rest of the start language's texts once i18next knows that language (its init completes a task
 * later): for a first page asked for before the first render (app/router.tsx).
 */
export const loadRestTextsAtStart = (): Promise<void> =>
  Promise.all([initialized, i18nReady]).then(loadRestTexts);

export { i18n };
