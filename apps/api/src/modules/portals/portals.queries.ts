import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files, portals } from '../../db/schema';

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
}

/** Portal keys are lower-case; the route value is matched case-insensitively. */
const byKey = (key: string) => eq(portals.key, sql`lower(${key})`);

export async function findPortalSettings(db: Db, key: string): Promise<PortalSettingsRow | undefined> {
  const rows = await db
    .select(portalSettingsColumns)
    .from(portals)
    .leftJoin(files, eq(files.id, portals.logoFileId))
    .where(byKey(key))
    .limit(1);
  return rows[0];
}

export async function findPortalPrivacy(db: Db, key: string): Promise<string | undefined> {
  const rows = await db.select({ html: portals.privacyHtml }).from(portals).where(byKey(key)).limit(1);
  return rows[0]?.html;
}

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
    .where(byKey(key))
    .limit(1);
  return rows[0];
}
