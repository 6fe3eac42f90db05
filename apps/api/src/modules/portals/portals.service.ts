import type { PortalSettings } from '@sportello/contracts';
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
