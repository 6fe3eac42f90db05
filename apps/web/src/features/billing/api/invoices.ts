import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingQuery, Invoice } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys, contactApi } from './keys';

/** `GET /api/{company}/{contactid}/invoices?from&to` */
export const fetchInvoices = (
  company: string,
  contactId: number,
  query: BillingQuery,
  signal?: AbortSignal,
) => api<Invoice[]>(`${contactApi(company, contactId)}/invoices`, { query: { ...query }, signal });

export const invoicesQuery = (company: string, contactId: number, query: BillingQuery) =>
  queryOptions({
    queryKey: billingKeys.invoices(company, contactId, query),
    queryFn: ({ signal }) => fetchInvoices(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useInvoices = (company: string, contactId: number, query: BillingQuery) =>
  useQuery(invoicesQuery(company, contactId, query));
