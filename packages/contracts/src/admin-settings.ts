/**
 * The desk's portal settings (issue 14 item 5): what the import's portal row says (name, branding,
 * footer and privacy HTML, zone, language, switches, logo), read and changed by a staff admin one
 * field at a time. The rules are the import's own (`importPortalSchema`): one source for each.
 */
import { z } from 'zod';
import { importPortalSchema } from './admin';
import { errorSchema, isoDateTime } from './common';
import { uploadedFileRefSchema } from './entities';
import { portalLanguageSchema } from './portals';
import { defineRoute } from './route';
import { staffPortalParamsSchema } from './staff';

export const settingsErrorCodes = {
  /** 422: the logo upload is not a PNG, JPEG, GIF or WebP image (read from its bytes). */
  logoNotImage: 'logo_not_image',
  /** 413: the logo is larger than LOGO_MAX_BYTES. */
  logoTooLarge: 'logo_too_large',
} as const;

/** A logo is shown in the header at 32 px high: 1 MB is plenty. */
export const LOGO_MAX_BYTES = 1024 * 1024;

export const lowRatingThresholdSchema = z.number().int().min(0).max(5);

export const adminPortalSettingsSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** null: the default header colour. */
  baseColor: z.string().nullable(),
  customCss: z.string(),
  /** Sanitised as stored. */
  footerHtml: z.string(),
  /** Sanitised as stored. */
  privacyHtml: z.string(),
  timeZone: z.string(),
  defaultLanguage: portalLanguageSchema,
  enableServiceContracts: z.boolean(),
  disableHtmlEditor: z.boolean(),
  overviewLanding: z.boolean(),
  /** A customer's rating at or below this tells the ticket's agents (0: never). */
  lowRatingThreshold: lowRatingThresholdSchema,
  /** A signed, expiring URL of the logo; null without one. */
  logo: z.object({ url: z.string(), name: z.string() }).nullable(),
  updatedAt: isoDateTime,
});
export type AdminPortalSettings = z.infer<typeof adminPortalSettingsSchema>;

const shape = importPortalSchema.shape;

/**
 * A change of some settings: only the fields present change. `baseColor: null` goes back to the
 * default colour, `logo: null` removes the logo, `logo: {uploadId}` sets an earlier upload of the
 * caller (`POST /api/staff/portals/:company/uploads`) as the logo.
 */
export const adminPortalSettingsPatchSchema = z
  .strictObject({
    name: shape.webPortalName,
    baseColor: shape.baseColor.unwrap().unwrap().nullable(),
    customCss: shape.customCss.unwrap().unwrap(),
    footerHtml: shape.footerCustomHtml.unwrap().unwrap(),
    privacyHtml: shape.privacyHtml.unwrap().unwrap(),
    timeZone: shape.timeZone.unwrap().unwrap(),
    defaultLanguage: portalLanguageSchema,
    enableServiceContracts: z.boolean(),
    disableHtmlEditor: z.boolean(),
    overviewLanding: z.boolean(),
    lowRatingThreshold: lowRatingThresholdSchema,
    logo: uploadedFileRefSchema.nullable(),
  })
  .partial()
  .refine((p) => Object.keys(p).length > 0, 'expected at least one setting to change');
export type AdminPortalSettingsPatch = z.infer<typeof adminPortalSettingsPatchSchema>;

const root = '/api/staff/portals/:company/admin/settings';

export const settingsAdminRoutes = {
  get: defineRoute({
    method: 'GET',
    path: root,
    params: staffPortalParamsSchema,
    responses: { 200: adminPortalSettingsSchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff: admin'],
    summary: "The portal's settings as the administration edits them (admins)",
  }),
  update: defineRoute({
    method: 'PATCH',
    path: root,
    params: staffPortalParamsSchema,
    body: adminPortalSettingsPatchSchema,
    // The privacy page may hold 2,000,000 characters, the footer and the CSS 500,000 each.
    bodyLimit: 12 * 1024 * 1024,
    responses: { 200: adminPortalSettingsSchema, 413: errorSchema, 422: errorSchema },
    access: { guard: 'staff', role: 'admin' },
    tags: ['staff: admin'],
    summary: 'Change some settings of the portal (admins)',
    description:
      'Partial. The HTML is sanitised as the import sanitises it; the answer shows what is stored. ' +
      "Audited, and `portal.updated` is emitted, in the change's transaction. 422 `upload_not_found` " +
      'for a `logo.uploadId` that is not an unattached upload of the caller, `logo_not_image` when ' +
      'its bytes are no PNG, JPEG, GIF or WebP; 413 `logo_too_large` above LOGO_MAX_BYTES.',
  }),
};
