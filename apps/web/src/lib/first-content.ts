/**
 * What a page's first paint does not need — the header's menus, the toasts, the rest of Mantine's
 * styles and of the texts, the portal's manifest, the list filters' dropdowns — waits for the page's
 * main content: on My tickets, where a contact lands, its list. Fetched and evaluated before it, their
 * code (about 60 KB gzip) shared the network and a slow phone's main thread with the list's own.
 *
 * The wait is held only when the first load is My tickets, a ticket, the overview or the desk's inbox
 * (app/early-data.ts calls `holdForContent`); on every other page `afterContent()` is settled at once.
 * The page says when its content is on screen (`contentShown`), and the wait ends after
 * `HOLD_LIMIT_MS` whatever happens (an error page, a navigation away before the content came).
 */
import { startTransition, useEffect, useState } from 'react';

export const HOLD_LIMIT_MS = 5000;

let held = false;
let release: () => void = () => {};
const shown = new Promise<void>((resolve) => {
  release = resolve;
});
let isReleased = false;
void shown.then(() => {
  isReleased = true;
});

/** The first page holds what waits for its main content: from now on (once, at start). */
export function holdForContent(): void {
  if (held) return;
  held = true;
  setTimeout(release, HOLD_LIMIT_MS);
}

/**
 * The page's main content is rendered: what waited for it starts after the frame that shows it (a
 * task after the next animation frame, so its network and compile work do not delay that paint).
 */
export function contentShown(): void {
  if (!held) return;
  if (typeof requestAnimationFrame === 'function')
    requestAnimationFrame(() => {
      setTimeout(release, 0);
    });
  else release();
}

/** Settled once the page's main content is shown (at once unless the first page held it). */
export function afterContent(): Promise<void> {
  return held ? shown : Promise.resolve();
}

/** `import()` of a module the first paint does not need: after the page's main content. */
export function importAfterContent<T>(load: () => Promise<T>): Promise<T> {
  return afterContent().then(load);
}

/**
 * Whether what waits for the page's main content may start (as `afterContent`), for a query's
 * `enabled`: false until then, and the component renders again when it may.
 */
export function useAfterContent(): boolean {
  const [isAfter, setIsAfter] = useState(() => !held || isReleased);
  useEffect(() => {
    if (isAfter) return;
    let live = true;
    void shown.then(() => live && startTransition(() => setIsAfter(true)));
    return () => {
      live = false;
    };
  }, [isAfter]);
  return isAfter;
}
