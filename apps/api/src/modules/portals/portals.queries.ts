import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files, portals } from '../../db/schema';
import { portalByKey, portalSettingsColumns, type PortalSettingsRow } from '../../platform/portal-settings';

export async function findPortalSettings(db: Db, key: string): Promise<PortalSettingsRow | undefined> {
  const rows = await db
    .select(portalSettingsColumns)
    .from(portals)
    .leftJoin(files, eq(files.id, portals.logoFileId))
    .where(portalByKey(key))
    .limit(1);
  return rows[0];
}

export async function findPortalPrivacy(db: Db, key: string): Promise<string | undefined> {
  const rows = await db.select({ html: portals.privacyHtml }).from(portals).where(portalByKey(key)).limit(1);
  return rows[0]?.html;
}
