import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { billingRoutes, type BillingQuery } from '@sportello/contracts';
import { call } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** `GET /api/{company}/{contactid}/invoices?from&to` */
export const fetchInvoices = (
  company: string,
  contactId: number,
  query: BillingQuery,
  signal?: AbortSignal,
) => call(billingRoutes.invoices, { params: { company, contactid: contactId }, query, signal });

export const invoicesQuery = (company: string, contactId: number, query: BillingQuery) =>
  queryOptions({
    queryKey: billingKeys.invoices(company, contactId, query),
    queryFn: ({ signal }) => fetchInvoices(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useInvoices = (company: string, contactId: number, query: BillingQuery) =>
  useQuery(invoicesQuery(company, contactId, query));
