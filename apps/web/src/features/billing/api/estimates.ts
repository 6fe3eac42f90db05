import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type BillingQuery } from '@sportello/contracts';
import { billingRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** `GET /api/{company}/{contactid}/estimates?from&to` */
export const fetchEstimates = (
  company: string,
  contactId: number,
  query: BillingQuery,
  signal?: AbortSignal,
) => call(billingRoutes.estimates, { params: { company, contactid: contactId }, query, signal });

export const estimatesQuery = (company: string, contactId: number, query: BillingQuery) =>
  queryOptions({
    queryKey: billingKeys.estimates(company, contactId, query),
    queryFn: ({ signal }) => fetchEstimates(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useEstimates = (company: string, contactId: number, query: BillingQuery) =>
  useQuery(estimatesQuery(company, contactId, query));
