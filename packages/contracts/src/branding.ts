/**
 * A portal's colours, without zod: the web app's first load uses these, and a module of the contracts
 * that builds schemas would bring every schema of its file (and zod) with it.
 */

/** Base colour the back office uses for "unset"; treated like null (header #202124). */
export const BASE_COLOR_UNSET = 'hsl(123,0%,0%)';
/** Header colour when the portal has no base colour. */
export const DEFAULT_HEADER_COLOR = '#202124';

/** Whether a stored base colour means "none" (absent, blank or the back office's BASE_COLOR_UNSET). */
export function isUnsetBaseColor(baseColor: string | null | undefined): boolean {
  if (!baseColor || !baseColor.trim()) return true;
  const squash = (s: string) => s.replace(/\s+/g, '').toLowerCase();
  return squash(baseColor) === squash(BASE_COLOR_UNSET);
}
