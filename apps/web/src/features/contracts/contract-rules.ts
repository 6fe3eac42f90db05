import {
  ADDRESS_TYPE_LOCATION,
  SERVICE_CONTRACT_ACTIVE,
  type ContractActivity,
  type ServiceContract,
} from '@sportello/contracts';
import { formatNumber } from '../../lib/format';

/** 'only active' (the default) or 'all' (SPEC A2). */
export type ActiveFilter = 'active' | 'all';

export type ServiceBadge = 'active' | 'expiring' | 'expired';

/**
 * ATTIVO when status is 1, IN SCADENZA when status is 1 and it expires within 30 days, SCADUTO otherwise
 * (status 4, and a status-1 contract whose end has passed).
 */
export function serviceBadge(
  c: Pick<ServiceContract, 'status' | 'expiring30Days' | 'isExpired'>,
): ServiceBadge {
  if (c.status !== SERVICE_CONTRACT_ACTIVE || c.isExpired) return 'expired';
  return c.expiring30Days ? 'expiring' : 'active';
}

export interface ServiceFilters {
  active: ActiveFilter;
  /** Contracts listing any of these wiki elements (none selected: no filter). */
  wikiElementIds: number[];
  /** Contracts carrying any of these tags (none selected: no filter). */
  tagIds: number[];
}

const anyOf = (selected: number[], ids: number[]) =>
  selected.length === 0 || selected.some((id) => ids.includes(id));

export function filterServiceContracts(list: ServiceContract[], f: ServiceFilters): ServiceContract[] {
  return list.filter(
    (c) =>
      (f.active === 'all' || serviceBadge(c) !== 'expired') &&
      anyOf(f.wikiElementIds, c.wikiElementIds) &&
      anyOf(f.tagIds, c.tagIds),
  );
}

/** The address is shown only for activities at a location (addressType 2). */
export const activityAddress = (a: Pick<ContractActivity, 'addressType' | 'activityLocation_Address'>) =>
  a.addressType === ADDRESS_TYPE_LOCATION ? a.activityLocation_Address : null;

/** `1.5` → `1,5` and `1234` → `1.234` in Italian: amounts read in the interface language. */
export const formatAmount = (n: number | null, language: string) =>
  n === null ? '—' : formatNumber(n, language);
