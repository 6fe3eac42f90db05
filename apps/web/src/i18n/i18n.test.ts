import { describe, expect, it } from 'vitest';
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
