import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingQuery, Estimate } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys, contactApi } from './keys';

/** `GET /api/{company}/{contactid}/estimates?from&to` */
export const fetchEstimates = (
  company: string,
  contactId: number,
  query: BillingQuery,
  signal?: AbortSignal,
) => api<Estimate[]>(`${contactApi(company, contactId)}/estimates`, { query: { ...query }, signal });

export const estimatesQuery = (company: string, contactId: number, query: BillingQuery) =>
  queryOptions({
    queryKey: billingKeys.estimates(company, contactId, query),
    queryFn: ({ signal }) => fetchEstimates(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useEstimates = (company: string, contactId: number, query: BillingQuery) =>
  useQuery(estimatesQuery(company, contactId, query));
