import { act, renderHook } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { addTextsNamespace, i18n, LANGUAGES, loadAllLanguages } from '../../../i18n';
import mainIt from '../../../i18n/it-IT.json';
import { STAFF_NS, STAFF_TEXTS, useStaffT } from '.';
import itIT from './it-IT.json';

type Tree = { [k: string]: string | Tree };
const keys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : [`${prefix}${k}`, ...keys(v, `${prefix}${k}.`)],
  );

describe('useStaffT', () => {
  it("writes every key as i18next's own t does, in every language", async () => {
    await loadAllLanguages();
    const all = [
      ...new Set([...keys(itIT as Tree), ...keys(mainIt as Tree), 'no.such.key', 'translation:common.close']),
    ];
    for (const { value: language } of LANGUAGES) {
      await act(() => i18n.changeLanguage(language));
      // The desk's texts in this language (loadStaffTexts loads the first one only, once).
      await act(() => addTextsNamespace(STAFF_NS, STAFF_TEXTS));
      const { result } = renderHook(() => ({
        fast: useStaffT().t,
        slow: useTranslation([STAFF_NS, 'translation'], { nsMode: 'fallback' }).t,
      }));
      const { fast, slow } = result.current;
      expect(i18n.hasResourceBundle(language, STAFF_NS)).toBe(true);
      for (const key of all) expect(fast(key), `${language} ${key}`).toBe(slow(key));
      expect(fast('inbox.title')).not.toBe('inbox.title');
      // The app's own texts, for the shared widgets and lib/error-text on the desk.
      expect(fast('common.errors.network')).toBe(
        i18n.getResource(language, 'translation', 'common.errors.network'),
      );
      expect(fast('common.errors.network')).not.toBe('common.errors.network');
      // With options: i18next's (plurals, interpolation).
      expect(fast('inbox.activeFilters', { count: 2 })).toBe(slow('inbox.activeFilters', { count: 2 }));
    }
    await act(() => i18n.changeLanguage('it-IT'));
  });
});
