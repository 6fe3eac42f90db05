/**
 * The portal's settings in the desk's administration (issue 14 item 5): read, and changed field by
 * field with the import's rules, audited and emitted as `portal.updated` in the change's transaction.
 */
import {
  LOGO_MAX_BYTES,
  settingsErrorCodes,
  type AdminPortalSettings,
  type AdminPortalSettingsPatch,
} from '@sportello/contracts';
import type { AppContext } from '../../../platform/context';
import { recordStaffChange, type StaffActor } from '../../../platform/audit';
import { AppError } from '../../../platform/errors';
import { sanitizeHtml } from '../../../platform/html';
import { uploadNotFound } from '../entities/entities.service';
import { claimUpload, isRasterImage } from '../../../platform/claimed-uploads';
import { BASE_COLOR_UNSET, customCssOf } from '../writers/portal';
import {
  bumpPortalLists,
  readSettings,
  writeSettings,
  type SettingsChange,
  type SettingsRow,
} from './settings.queries';

function answerOf(ctx: AppContext, r: SettingsRow): AdminPortalSettings {
  return {
    key: r.key,
    name: r.name,
    baseColor: r.baseColor,
    customCss: r.customCss,
    footerHtml: r.footerHtml,
    privacyHtml: r.privacyHtml,
    timeZone: r.timeZone,
    defaultLanguage: r.defaultLanguage as AdminPortalSettings['defaultLanguage'],
    enableServiceContracts: r.enableServiceContracts,
    disableHtmlEditor: r.disableHtmlEditor,
    overviewLanding: r.overviewLanding,
    lowRatingThreshold: r.lowRatingThreshold,
    logo:
      r.logoFileId === null || r.logoName === null
        ? null
        : { url: ctx.signer.sign(r.logoFileId, r.logoName, ctx.clock.now()), name: r.logoName },
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Long texts enter the audit log as their length only, not twice in full (before and after). */
const AUDIT_TEXT_MAX = 2000;
const auditText = (s: string) => (s.length <= AUDIT_TEXT_MAX ? s : { length: s.length, truncated: true });

/** The settings as the audit log and the event show them (no signed URL: it changes at every read). */
function imageOf(r: SettingsRow): Record<string, unknown> {
  return {
    key: r.key,
    name: r.name,
    baseColor: r.baseColor,
    customCss: auditText(r.customCss),
    footerHtml: auditText(r.footerHtml),
    privacyHtml: auditText(r.privacyHtml),
    timeZone: r.timeZone,
    defaultLanguage: r.defaultLanguage,
    enableServiceContracts: r.enableServiceContracts,
    disableHtmlEditor: r.disableHtmlEditor,
    overviewLanding: r.overviewLanding,
    lowRatingThreshold: r.lowRatingThreshold,
    logo: r.logoFileId === null ? null : { fileId: r.logoFileId, name: r.logoName },
  };
}

export async function getSettings(ctx: AppContext, a: StaffActor): Promise<AdminPortalSettings> {
  return answerOf(ctx, await readSettings(ctx.database.db, a.portalId));
}

/** The columns a patch sets, its HTML sanitised as the import sanitises it (before the transaction). */
function changeOf(p: AdminPortalSettingsPatch): SettingsChange {
  const set: SettingsChange = {};
  if (p.name !== undefined) set.name = p.name;
  if (p.baseColor !== undefined)
    set.baseColor = p.baseColor === null || BASE_COLOR_UNSET.test(p.baseColor) ? null : p.baseColor;
  if (p.customCss !== undefined) set.customCss = customCssOf(p.customCss);
  if (p.footerHtml !== undefined) set.footerCustomHtml = sanitizeHtml(p.footerHtml);
  if (p.privacyHtml !== undefined) set.privacyHtml = sanitizeHtml(p.privacyHtml);
  if (p.timeZone !== undefined) set.timeZone = p.timeZone;
  if (p.defaultLanguage !== undefined) set.defaultLanguage = p.defaultLanguage;
  if (p.enableServiceContracts !== undefined) set.enableServiceContracts = p.enableServiceContracts;
  if (p.disableHtmlEditor !== undefined) set.disableHtmlEditor = p.disableHtmlEditor;
  if (p.overviewLanding !== undefined) set.overviewLanding = p.overviewLanding;
  if (p.lowRatingThreshold !== undefined) set.lowRatingThreshold = p.lowRatingThreshold;
  return set;
}

export async function updateSettings(
  ctx: AppContext,
  a: StaffActor,
  patch: AdminPortalSettingsPatch,
): Promise<AdminPortalSettings> {
  const portalId = a.portalId;
  const set = changeOf(patch);
  const now = ctx.clock.now();
  const after = await ctx.database.db.transaction(async (tx) => {
    const before = await readSettings(tx, portalId, true);
    if (patch.logo === null) set.logoFileId = null;
    else if (patch.logo) {
      const upload = await claimUpload(
        tx,
        { type: 'staff', staffUserId: a.staffUserId, portalId },
        patch.logo.uploadId,
        now,
      );
      if (!upload) throw uploadNotFound('logo', patch.logo.uploadId);
      if (upload.size > LOGO_MAX_BYTES)
        throw new AppError(413, settingsErrorCodes.logoTooLarge, 'The logo may be 1 MB at most');
      if (!isRasterImage(await ctx.fileStore.head(upload.sha256, 12)))
        throw new AppError(
          422,
          settingsErrorCodes.logoNotImage,
          'The logo must be a PNG, JPEG, GIF or WebP image',
          [{ path: 'logo.uploadId', message: 'not a PNG, JPEG, GIF or WebP image' }],
        );
      set.logoFileId = upload.id;
    }
    // Only what really changes is written, audited and emitted.
    const changed = Object.fromEntries(
      Object.entries(set).filter(([k, v]) => {
        const column = k === 'footerCustomHtml' ? 'footerHtml' : k;
        return before[column as keyof SettingsRow] !== v;
      }),
    ) as SettingsChange;
    if (Object.keys(changed).length === 0) return before;
    await writeSettings(tx, portalId, changed, now);
    if (changed.timeZone !== undefined) await bumpPortalLists(tx, portalId);
    const row = await readSettings(tx, portalId);
    await recordStaffChange(tx, ctx, a, {
      entity: 'portal',
      entityId: portalId,
      action: 'updated',
      before: imageOf(before),
      after: imageOf(row),
    });
    return row;
  });
  return answerOf(ctx, after);
}
