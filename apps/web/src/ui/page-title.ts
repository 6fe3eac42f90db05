import { useEffect } from 'react';
import { useActivePortal } from '../lib/branding';

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
 */
export function usePageTitle(title: string | null | undefined): void {
  const portalName = useActivePortal((p) => p?.webPortalName);
  const text = pageTitle(title, portalName);
  useEffect(() => {
    document.title = text;
  }, [text]);
}
