import {
  permissionFlags,
  type MeAnswer,
  type MeContact,
  type PermissionFlag,
  type PortalSettings,
} from '@sportello/contracts';

/** Test data for shell tests: a portal, contacts with chosen flags, a user holding them. */
export function portalSettings(over: Partial<PortalSettings> = {}): PortalSettings {
  return {
    webPortalKey: 'demo',
    webPortalName: 'Demo Portal',
    customCss: '',
    disableHtmlEditor: false,
    logoUrl: null,
    baseColor: null,
    footerCustomHtml: '',
    enableServiceContracts: false,
    timeZone: 'Europe/Rome',
    defaultLanguage: 'it-IT',
    overviewLanding: false,
    ...over,
  };
}

const NO_FLAGS = Object.fromEntries(permissionFlags.map((f) => [f, false])) as Record<
  PermissionFlag,
  boolean
>;

export function contact(over: Partial<MeContact> = {}): MeContact {
  return {
    contactId: 101,
    companyName: 'Acme S.r.l.',
    ...NO_FLAGS,
    portalSettings: portalSettings(),
    ...over,
  };
}

export const ALL_FLAGS = Object.fromEntries(Object.keys(NO_FLAGS).map((k) => [k, true])) as typeof NO_FLAGS;

export function user(contacts: MeContact[], over: Partial<MeAnswer> = {}): MeAnswer {
  return {
    id: 1,
    userName: 'demo',
    displayName: null,
    language: null,
    contacts,
    maxUploadBytes: 25 * 1024 * 1024,
    ...over,
  };
}
