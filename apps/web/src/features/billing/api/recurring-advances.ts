import { queryOptions, useQuery } from '@tanstack/react-query';
import { billingRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** `GET /api/{company}/{contactid}/jobadvances/recurring` */
export const fetchRecurringAdvances = (company: string, contactId: number, signal?: AbortSignal) =>
  call(billingRoutes.recurring, { params: { company, contactid: contactId }, signal });

export const recurringAdvancesQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: billingKeys.recurring(company, contactId),
    queryFn: ({ signal }) => fetchRecurringAdvances(company, contactId, signal),
  });

export const useRecurringAdvances = (company: string, contactId: number) =>
  useQuery(recurringAdvancesQuery(company, contactId));
