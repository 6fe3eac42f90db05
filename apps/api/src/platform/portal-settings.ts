/**
 * A portal's public settings (branding, language, zone): the columns behind them and their wire shape.
 * Shared by the portals module (the settings call) and auth (each contact of `/api/users/me` carries
 * its portal's settings), so it lives here rather than in either.
 */
import { eq, sql } from 'drizzle-orm';
import type { PortalSettings } from '@sportello/contracts';
import type { Db } from '../db/client';
import { files, portals } from '../db/schema';
import type { FileUrlSigner } from './files';

/**
 * The columns behind a portal's public settings. Queries that select them must
 * `leftJoin(files, eq(files.id, portals.logoFileId))` so the logo's name can be signed without a second query.
 */
export const portalSettingsColumns = {
  portalKey: portals.key,
  portalName: portals.name,
  customCss: portals.customCss,
  disableHtmlEditor: portals.disableHtmlEditor,
  logoFileId: files.id,
  logoFileName: files.name,
  baseColor: portals.baseColor,
  footerCustomHtml: portals.footerCustomHtml,
  enableServiceContracts: portals.enableServiceContracts,
  timeZone: portals.timeZone,
  defaultLanguage: portals.defaultLanguage,
  overviewLanding: portals.overviewLanding,
};

export interface PortalSettingsRow {
  portalKey: string;
  portalName: string;
  customCss: string;
  disableHtmlEditor: boolean;
  logoFileId: number | null;
  logoFileName: string | null;
  baseColor: string | null;
  footerCustomHtml: string;
  enableServiceContracts: boolean;
  timeZone: string;
  defaultLanguage: string;
  overviewLanding: boolean;
}

/** Portal keys are lower-case; the route value is matched case-insensitively. */
export const portalByKey = (key: string) => eq(portals.key, sql`lower(${key})`);

/** The portal's id and default language by key, for e-mails that name a portal. */
export async function findPortalBrief(
  db: Db,
  key: string,
): Promise<{ id: number; key: string; name: string; defaultLanguage: string } | undefined> {
  const rows = await db
    .select({
      id: portals.id,
      key: portals.key,
      name: portals.name,
      defaultLanguage: portals.defaultLanguage,
    })
    .from(portals)
    .where(portalByKey(key))
    .limit(1);
  return rows[0];
}

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
    overviewLanding: row.overviewLanding,
  };
}
