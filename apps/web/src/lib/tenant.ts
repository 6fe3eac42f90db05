import { createContext, useContext } from 'react';
import { queryOptions } from '@tanstack/react-query';
import { type MeAnswer, type MeContact } from '@sportello/contracts';
import { authRoutes, portalRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError, call } from './api-client';

/** Who the signed-in user acts as on a page inside the layout. */
export interface Tenant {
  /** The portal key as the server spells it (route value `{company}`). */
  company: string;
  contactId: number;
  /** The contact's permission flags and its portal's settings. */
  contact: MeContact;
  user: MeAnswer;
  /** `/{company}/{contactId}`: prefix of every layout route, for links. */
  basePath: string;
}

export const TenantContext = createContext<Tenant | null>(null);

/** The current contact; only valid under the layout route (the layout provides it once it has settled). */
export function useTenant(): Tenant {
  const tenant = useContext(TenantContext);
  if (!tenant) throw new Error('useTenant() used outside the layout route');
  return tenant;
}

/** A 4xx will not get better by asking again; network errors and 5xx get one more try. */
const retryOnce = (failures: number, error: unknown) =>
  !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failures < 1;

/** `GET /api/Users/me`: the user and the contacts they hold (with flags and portal settings). */
export const fetchMe = (signal?: AbortSignal) => call(authRoutes.me, { signal });

export const meQuery = () =>
  queryOptions({
    queryKey: ['me'] as const,
    queryFn: ({ signal }) => fetchMe(signal),
    staleTime: 5 * 60_000,
    retry: retryOnce,
  });

/** `GET /api/Settings/portals/{company}`: public branding, used before sign-in (login, confirm, privacy). */
/** `GET /api/settings/{company}` (public): the portal's name, logo, colours, languages, time zone. */
export const fetchPortalSettings = (company: string, signal?: AbortSignal) =>
  call(portalRoutes.settings, { params: { company }, signal });

export const portalSettingsQuery = (company: string) =>
  queryOptions({
    queryKey: ['portalSettings', company.toLowerCase()] as const,
    queryFn: ({ signal }) => fetchPortalSettings(company, signal),
    staleTime: 5 * 60_000,
    retry: retryOnce,
  });
