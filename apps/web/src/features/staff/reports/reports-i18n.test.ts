import { describe, expect, it } from 'vitest';
import en from './i18n/en-EN.json';
import es from './i18n/es-ES.json';
import it_ from './i18n/it-IT.json';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );

describe("the reports' texts", () => {
  it('have the same keys in the three languages, none empty', () => {
    const base = keys(en).sort();
    expect(keys(it_).sort()).toEqual(base);
    expect(keys(es).sort()).toEqual(base);
    for (const texts of [en, es, it_]) expect(JSON.stringify(texts)).not.toMatch(/:\s*""/);
  });
});
