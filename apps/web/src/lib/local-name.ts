import i18n from 'i18next';
import type { LocalizedNames } from '@sportello/contracts';

/**
 * A ticket type's or step's name in the screen's language, when the back office named it per language
 * (docs/fixture-format.md); its one name otherwise.
 */
export function localName(
  n: { name: string; names?: LocalizedNames },
  language: string = i18n.language,
): string {
  const names = n.names as Partial<Record<string, string>> | null | undefined;
  return names?.[language] ?? n.name;
}
