import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import mainIt from '../../../i18n/it-IT.json';
import enEN from './en-EN.json';
import esES from './es-ES.json';
import itIT from './it-IT.json';
import reportsIt from '../reports/i18n/it-IT.json';

type Tree = { [k: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : keys(v, `${prefix}${k}.`),
  );
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("the desk's texts", () => {
  const it_ = keys(itIT as Tree).sort();

  it('have the same keys in every language', () => {
    expect(keys(enEN as Tree).sort()).toEqual(it_);
    expect(keys(esES as Tree).sort()).toEqual(it_);
  });

  it('are not in the customer bundle (their own namespace, loaded with the desk)', () => {
    expect(Object.keys(mainIt)).not.toContain('staff');
  });

  it('have every key the desk writes out (its own, or a shared one)', () => {
    const known = new Set([
      ...it_,
      ...it_.map((k) => k.replace(/_(one|other)$/, '')),
      ...keys(mainIt as Tree),
      // The reports page's own namespace (reports/reports-i18n.ts), loaded with that page.
      ...keys(reportsIt as Tree),
    ]);
    const dir = join(__dirname, '..');
    const missing: string[] = [];
    for (const file of sources(dir)) {
      const text = readFileSync(file, 'utf8');
      // t('a.b'), t(`a.b`), and the keys listed in tables ('shortcuts.next').
      for (const m of text.matchAll(/\bt\(\s*['`]([a-zA-Z]+(?:\.[a-zA-Z_]+)+)['`]/g))
        if (!known.has(m[1]!)) missing.push(`${file}: ${m[1]}`);
      for (const m of text.matchAll(/what: '([a-z]+\.[a-zA-Z]+)'/g))
        if (!known.has(m[1]!)) missing.push(`${file}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });
});
