import type { PortalSettings } from '@sportello/contracts';

/**
 * The messages between the desk's Branding section and the portal page it frames for its live preview
 * (`/{portal}/branding-preview`): the framed page says it is ready, the desk sends the settings being
 * drafted, again at each change. Both ends accept only their own origin and the expected window.
 */
export const PREVIEW_READY = 'sportello:branding-preview-ready';
export const PREVIEW_SETTINGS = 'sportello:branding-preview-settings';

export interface PreviewSettingsMessage {
  type: typeof PREVIEW_SETTINGS;
  settings: PortalSettings;
}

export const previewPath = (company: string) => `/${encodeURIComponent(company)}/branding-preview`;

export function isPreviewSettings(data: unknown): data is PreviewSettingsMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Partial<PreviewSettingsMessage>;
  return (
    m.type === PREVIEW_SETTINGS &&
    typeof m.settings === 'object' &&
    m.settings !== null &&
    typeof m.settings.webPortalKey === 'string'
  );
}
