import { useEffect } from 'react';
import { activePortalNow, onActivePortalChange } from '../lib/branding';

/** The name every title ends with when no portal's branding applies (index.html's own title). */
export const APP_NAME = 'Sportello';

/** `Title · Portal`: the screen first (what a tab or the history shows in its room), then the portal. */
export function pageTitle(title: string | null | undefined, portalName: string | null | undefined): string {
  const site = portalName?.trim() || APP_NAME;
  const page = title?.trim();
  return page ? `${page} · ${site}` : site;
}

/**
 * The document title of a screen, translated by the caller (`usePageTitle(t('tickets.myTitle'))`), or a
 * record's own (a ticket's title). `null` while it is not known yet leaves the portal's name alone.
 * The portal's name is followed outside the render: read in a render, its arrival (the shell applies the
 * portal's branding after the first commit) drew the whole calling page again, synchronously, in the
 * first load's longest task (a new ticket's form, bench/RESULTS.md session 18).
 */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    const write = () => {
      document.title = pageTitle(title, activePortalNow()?.webPortalName);
    };
    write();
    return onActivePortalChange(write);
  }, [title]);
}
