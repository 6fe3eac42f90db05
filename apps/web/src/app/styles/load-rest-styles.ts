/**
 * Mantine's styles beyond the first paint (mantine-first-paint.css says which): fetched once, by every
 * page but My tickets before it shows, and by the shell when the browser is idle after the first paint,
 * so a menu or dialog opened on My tickets finds its styles there.
 */
let loading: Promise<unknown> | null = null;
export const loadRestStyles = (): Promise<unknown> => (loading ??= import('./mantine-rest'));

/**
 * After the first paint, when the main thread is free (at the latest after `timeout` ms: long enough that
 * a slow phone still busy with My tickets is not made to parse 150 KB of CSS before the list shows).
 */
export function loadRestStylesWhenIdle(timeout = 5000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(() => void loadRestStyles(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(() => void loadRestStyles(), 300);
  return () => clearTimeout(id);
}
