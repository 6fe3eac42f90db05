import { afterEach, describe, expect, it } from 'vitest';
import itIT from './it-IT.json';
import enEN from './en-EN.json';
import esES from './es-ES.json';

type Tree = { [k: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`),
  );
}

function values(tree: Tree): string[] {
  return Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : values(v)));
}

describe('translations', () => {
  const it_ = keys(itIT as Tree).sort();
  it('have the same keys in every language', () => {
    expect(keys(enEN as Tree).sort()).toEqual(it_);
    expect(keys(esES as Tree).sort()).toEqual(it_);
  });

  it('have no empty text', () => {
    for (const tree of [itIT, enEN, esES])
      expect(values(tree as Tree).filter((v) => v.trim() === '')).toEqual([]);
  });
});

describe('meta description', () => {
  it('follows the language shown', async () => {
    const { applyLanguage, loadAllLanguages } = await import('./index');
    await loadAllLanguages();
    const meta = () => document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content;
    applyLanguage('es-ES', { remember: false });
    expect(meta()).toBe(esES.common.metaDescription);
    applyLanguage('it-IT', { remember: false });
    expect(meta()).toBe(itIT.common.metaDescription);
  });
});

describe('the first language', () => {
  const languages = (list: string[]) =>
    Object.defineProperty(window.navigator, 'languages', { configurable: true, value: list });
  afterEach(() => {
    languages(['it-IT', 'it']);
    localStorage.removeItem('language');
  });

  it("follows the browser's language until the user picks one", async () => {
    const { initialLanguage, browserLanguage } = await import('./index');
    languages(['en-US', 'en']);
    expect(initialLanguage()).toBe('en-EN');
    languages(['de-DE', 'es-MX', 'en']);
    expect(initialLanguage()).toBe('es-ES');
    // None the portal speaks: Italian, until the portal's default language arrives.
    languages(['de-DE', 'fr']);
    expect(browserLanguage()).toBeNull();
    expect(initialLanguage()).toBe('it-IT');
    // The user's choice wins over the browser's.
    languages(['en-US']);
    localStorage.setItem('language', 'es-ES');
    expect(initialLanguage()).toBe('es-ES');
  });
});
