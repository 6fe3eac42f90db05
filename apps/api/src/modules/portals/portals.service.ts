import type { PortalSettings } from '@sportello/contracts';
import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import type { FileUrlSigner } from '../../platform/files';
import { findPortalPrivacy, findPortalSettings, type PortalSettingsRow } from './portals.queries';

/** Maps a settings row to the wire shape; the logo becomes a signed, expiring file URL. */
export function toPortalSettings(row: PortalSettingsRow, signer: FileUrlSigner, now: Date): PortalSettings {
  return {
    webPortalKey: row.portalKey,
    webPortalName: row.portalName,
    customCss: row.customCss,
    disableHtmlEditor: row.disableHtmlEditor,
    logoUrl:
      row.logoFileId === null || row.logoFileName === null
        ? null
        : signer.sign(row.logoFileId, row.logoFileName, now),
    // As stored: the client also maps the back office's 'hsl(123,0%,0%)' sentinel to unset.
    baseColor: row.baseColor === null || row.baseColor.trim() === '' ? null : row.baseColor,
    footerCustomHtml: row.footerCustomHtml,
    enableServiceContracts: row.enableServiceContracts,
    timeZone: row.timeZone,
    defaultLanguage: row.defaultLanguage,
  };
}

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
