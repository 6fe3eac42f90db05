// Schemas of the portals area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { errorSchema } from './common';
import { defineRoute } from './route';

export { BASE_COLOR_UNSET, DEFAULT_HEADER_COLOR, isUnsetBaseColor } from './branding';

export const portalLanguageSchema = z.enum(['it-IT', 'en-EN', 'es-ES']);
export type PortalLanguage = z.infer<typeof portalLanguageSchema>;

/**
 * A portal's public branding and switches. Carried by every contact of `GET /api/Users/me` and
 * answered alone by `GET /api/Settings/portals/{company}` (public).
 */
export const portalSettingsSchema = z.object({
  /** The portal key (route value `{company}`). */
  webPortalKey: z.string(),
  webPortalName: z.string(),
  /** Injected as a stylesheet (textContent of a <style>), never as markup. */
  customCss: z.string(),
  disableHtmlEditor: z.boolean(),
  /** A signed `/api/files/...` URL (expires), or null: show the default logo. */
  logoUrl: z.string().nullable(),
  /** As stored; null when unset. The client maps null and BASE_COLOR_UNSET to DEFAULT_HEADER_COLOR. */
  baseColor: z.string().nullable(),
  /** Sanitised on import; sanitise again (DOMPurify) on display. Empty: show the default company line. */
  footerCustomHtml: z.string(),
  /** Contracts menu points to servicecontracts when true, activitycontracts otherwise. */
  enableServiceContracts: z.boolean(),
  /** IANA zone that decides day boundaries (default Europe/Rome). */
  timeZone: z.string(),
  /** Language the UI starts in when the user has chosen none. */
  defaultLanguage: z.string(),
  /** Sign-in lands on the overview instead of the first section the contact may see (SPEC A2). */
  overviewLanding: z.boolean(),
});
export type PortalSettings = z.infer<typeof portalSettingsSchema>;

/** `GET /api/Settings/portals/{company}` and `/api/settings/{company}/privacy` params. */
export const portalParamsSchema = z.object({ company: z.string().min(1).max(40) });

/** `GET /api/settings/{company}/privacy` → the privacy terms, sanitised HTML (may be empty). */
export const privacyAnswerSchema = z.object({ html: z.string() });
export type PrivacyAnswer = z.infer<typeof privacyAnswerSchema>;

/**
 * `GET /api/settings/{company}/manifest.webmanifest`: the portal as an installable web app (W3C Web App
 * Manifest), so a portal installed from its pages carries its own name, start page and colour: one app
 * per brand, not one "Sportello" for all.
 */
export const webManifestSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string(),
  lang: z.string(),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal('standalone'),
  background_color: z.string(),
  theme_color: z.string(),
  icons: z.array(
    z.object({
      src: z.string(),
      sizes: z.string(),
      type: z.string(),
      purpose: z.enum(['any', 'maskable']),
    }),
  ),
});
export type WebManifest = z.infer<typeof webManifestSchema>;

/** Error codes of this area. */
export const portalErrorCodes = { portalNotFound: 'portal_not_found' } as const;

// --- Routes (see route.ts) ---

export const portalRoutes = {
  settings: defineRoute({
    method: 'GET',
    path: '/api/Settings/portals/:company',
    params: portalParamsSchema,
    responses: { 200: portalSettingsSchema, 404: errorSchema },
    access: { guard: 'public' },
    tags: ['portals'],
    summary: "A portal's public branding and switches (no token needed: the login page uses it)",
  }),
  manifest: defineRoute({
    method: 'GET',
    path: '/api/settings/:company/manifest.webmanifest',
    params: portalParamsSchema,
    responses: { 200: webManifestSchema, 404: errorSchema },
    answerType: 'application/manifest+json',
    access: { guard: 'public' },
    tags: ['portals'],
    summary: 'The portal as an installable web app: its name, start page and colour (public)',
    description:
      "Answered as `application/manifest+json`. The icons are the application's own (a portal logo is " +
      "not square); the colour is the header's.",
  }),
  privacy: defineRoute({
    method: 'GET',
    path: '/api/settings/:company/privacy',
    params: portalParamsSchema,
    responses: { 200: privacyAnswerSchema, 404: errorSchema },
    access: { guard: 'public' },
    tags: ['portals'],
    summary: "The portal's privacy terms as sanitised HTML (public)",
  }),
};
