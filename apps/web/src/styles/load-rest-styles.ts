import { loadRestTexts } from '../i18n';
import { afterContent } from '../lib/first-content';

/**
 * Mantine's styles beyond the first paint (mantine-first-paint.css says which): fetched once, by every
 * page but My tickets before it shows, and by the shell when the browser is idle after the first paint,
 * so a menu or dialog opened on My tickets finds its styles there.
 */
let loading: Promise<unknown> | null = null;
export const loadRestStyles = (): Promise<unknown> => (loading ??= import('./mantine-rest'));

/**
 * Mantine's other styles and the current language's other texts, after the first paint, when the main
 * thread is free (at the latest after `timeout` ms: long enough that a slow phone still busy with My
 * tickets is not made to parse 150 KB of CSS before the list shows).
 */
export function loadRestWhenIdle(timeout = 5000): () => void {
  const load = () => {
    void loadRestStyles();
    void loadRestTexts();
  };
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(load, { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(load, 300);
  return () => clearTimeout(id);
}

/**
 * `loadRestWhenIdle` once the page's main content is shown (lib/first-content): the shell's and the
 * desk's layouts, whose menus and dialogs need them. Returns a cancel for the layout's unmount.
 */
export function loadRestAfterContent(): () => void {
  let cancel: (() => void) | null = null;
  let isGone = false;
  void afterContent().then(() => {
    if (!isGone) cancel = loadRestWhenIdle();
  });
  return () => {
    isGone = true;
    cancel?.();
  };
}
