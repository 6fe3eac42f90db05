import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecurringAdvance } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys, contactApi } from './keys';

/** `GET /api/{company}/{contactid}/jobadvances/recurring` */
export const fetchRecurringAdvances = (company: string, contactId: number, signal?: AbortSignal) =>
  api<RecurringAdvance[]>(`${contactApi(company, contactId)}/jobadvances/recurring`, { signal });

export const recurringAdvancesQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: billingKeys.recurring(company, contactId),
    queryFn: ({ signal }) => fetchRecurringAdvances(company, contactId, signal),
  });

export const useRecurringAdvances = (company: string, contactId: number) =>
  useQuery(recurringAdvancesQuery(company, contactId));
