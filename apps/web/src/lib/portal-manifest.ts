import { portalRoutes } from '@sportello/contracts/route-refs';
import { pathOf } from './api-client';

/**
 * Points `<link rel="manifest">` at the portal's own web app manifest (its name, start page and colour),
 * so installing the portal installs this brand's app; the returned function puts the previous one back.
 * Loaded apart from the first paint (lib/branding imports it when the page is idle): only installing
 * reads it.
 */
export function linkPortalManifest(portalKey: string): () => void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'manifest';
    document.head.appendChild(link);
  }
  const before = link.getAttribute('href');
  link.setAttribute('href', pathOf(portalRoutes.manifest, { company: portalKey }));
  return () => {
    if (before === null) link.removeAttribute('href');
    else link.setAttribute('href', before);
  };
}
