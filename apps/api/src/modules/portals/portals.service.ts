import {
  DEFAULT_HEADER_COLOR,
  isUnsetBaseColor,
  type PortalSettings,
  type WebManifest,
} from '@sportello/contracts';
import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import type { FileUrlSigner } from '../../platform/files';
import { toPortalSettings } from '../../platform/portal-settings';
import { findPortalPrivacy, findPortalSettings } from './portals.queries';

const portalNotFound = () => notFound('No portal with this key', 'portal_not_found');

export async function getPortalSettings(
  db: Db,
  signer: FileUrlSigner,
  key: string,
  now: Date,
): Promise<PortalSettings> {
  const row = await findPortalSettings(db, key);
  if (!row) throw portalNotFound();
  return toPortalSettings(row, signer, now);
}

/** Privacy terms are sanitised on import; served as stored. */
export async function getPortalPrivacy(db: Db, key: string): Promise<{ html: string }> {
  const html = await findPortalPrivacy(db, key);
  if (html === undefined) throw portalNotFound();
  return { html };
}

/**
 * The portal as an installable web app: its own name, start page (its sign-in, or where the signed-in
 * user lands) and the header's colour, so each brand installs as its own app. The icons are the
 * application's (a portal's logo has no set shape); the address scope is the portal's.
 */
export async function getPortalManifest(
  db: Db,
  signer: FileUrlSigner,
  key: string,
  now: Date,
): Promise<WebManifest> {
  const p = await getPortalSettings(db, signer, key, now);
  const root = `/${encodeURIComponent(p.webPortalKey)}/`;
  const icon = (src: string, sizes: string, purpose: 'any' | 'maskable') => ({
    src,
    sizes,
    type: 'image/png',
    purpose,
  });
  return {
    id: root,
    name: p.webPortalName,
    short_name: p.webPortalName,
    lang: p.defaultLanguage,
    start_url: root,
    scope: root,
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: isUnsetBaseColor(p.baseColor) ? DEFAULT_HEADER_COLOR : p.baseColor!,
    icons: [
      icon('/icon-192.png', '192x192', 'any'),
      icon('/icon-512.png', '512x512', 'any'),
      icon('/icon-maskable-512.png', '512x512', 'maskable'),
    ],
  };
}
