/** The portal's settings row as the administration reads and writes it. */
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { files, portals } from '../../../db/schema';
import { queryRows } from '../../../platform/sql-json';

export interface SettingsRow {
  id: number;
  key: string;
  name: string;
  baseColor: string | null;
  customCss: string;
  footerHtml: string;
  privacyHtml: string;
  timeZone: string;
  defaultLanguage: string;
  enableServiceContracts: boolean;
  disableHtmlEditor: boolean;
  overviewLanding: boolean;
  lowRatingThreshold: number;
  logoFileId: number | null;
  logoName: string | null;
  updatedAt: Date;
}

/** The columns a change may set (the logo by its file id). */
export type SettingsChange = Partial<
  Pick<
    typeof portals.$inferInsert,
    | 'name'
    | 'baseColor'
    | 'customCss'
    | 'footerCustomHtml'
    | 'privacyHtml'
    | 'timeZone'
    | 'defaultLanguage'
    | 'enableServiceContracts'
    | 'disableHtmlEditor'
    | 'overviewLanding'
    | 'lowRatingThreshold'
    | 'logoFileId'
  >
>;

/** The row, locked for the change's transaction when `lock` (concurrent changes apply one after another). */
export async function readSettings(db: Db | Tx, portalId: number, lock = false): Promise<SettingsRow> {
  const q = db
    .select({
      id: portals.id,
      key: portals.key,
      name: portals.name,
      baseColor: portals.baseColor,
      customCss: portals.customCss,
      footerHtml: portals.footerCustomHtml,
      privacyHtml: portals.privacyHtml,
      timeZone: portals.timeZone,
      defaultLanguage: portals.defaultLanguage,
      enableServiceContracts: portals.enableServiceContracts,
      disableHtmlEditor: portals.disableHtmlEditor,
      overviewLanding: portals.overviewLanding,
      lowRatingThreshold: portals.lowRatingThreshold,
      logoFileId: portals.logoFileId,
      logoName: files.name,
      updatedAt: portals.updatedAt,
    })
    .from(portals)
    .leftJoin(files, eq(files.id, portals.logoFileId))
    .where(eq(portals.id, portalId));
  const [row] = lock ? await q.for('update', { of: portals }) : await q;
  if (!row) throw new Error(`portal ${portalId} vanished`);
  return row;
}

export async function writeSettings(tx: Tx, portalId: number, set: SettingsChange, now: Date): Promise<void> {
  await tx
    .update(portals)
    .set({ ...set, updatedAt: now })
    .where(eq(portals.id, portalId));
}

/**
 * Every company's list counter of the portal moves: cached lists show dates in the portal's zone
 * (a contract's days, a report's date), so they are read again after the zone changes.
 */
export async function bumpPortalLists(tx: Tx, portalId: number): Promise<void> {
  await queryRows(
    tx,
    sql`select bump_company_list_versions(array(select id from companies where portal_id = ${portalId}::int))`,
  );
}
