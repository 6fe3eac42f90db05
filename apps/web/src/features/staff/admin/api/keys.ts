import { staffKeys } from '../../api/keys';

/**
 * Query keys of the administration, under the portal's root (signing out drops them): one per list, so
 * a save refreshes the list it changed.
 */
export const adminKeys = {
  all: (company: string) => [...staffKeys.portal(company), 'admin'] as const,
  tags: (company: string) => [...adminKeys.all(company), 'tags'] as const,
  triage: (company: string) => [...adminKeys.all(company), 'triage'] as const,
  wiki: (company: string, companyId: number) => [...adminKeys.all(company), 'wiki', companyId] as const,
  activityContracts: (company: string, companyId: number) =>
    [...adminKeys.all(company), 'activity-contracts', companyId] as const,
  subscriptions: (company: string, companyId: number) =>
    [...adminKeys.all(company), 'subscriptions', companyId] as const,
  serviceContracts: (company: string, companyId: number) =>
    [...adminKeys.all(company), 'service-contracts', companyId] as const,
  appointmentLinks: (company: string) => [...adminKeys.all(company), 'appointment-links'] as const,
  /** Without the filters: every bookings list (a cancel refreshes them all). */
  bookings: (company: string, eventKey?: string, all?: boolean) =>
    eventKey === undefined
      ? ([...adminKeys.all(company), 'bookings'] as const)
      : ([...adminKeys.all(company), 'bookings', eventKey, all] as const),
};
