import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type BillingQuery } from '@sportello/contracts';
import { billingRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { billingKeys } from './keys';

/** `GET /api/{company}/{contactid}/invoices?from&to` */
export const fetchInvoices = (
  company: string,
  contactId: number,
  query: BillingQuery,
  signal?: AbortSignal,
) => call(billingRoutes.invoices, { params: { company, contactid: contactId }, query, signal });

/** The period the invoices open with (components/billing-list-page.tsx): any date. */
export const openingInvoicesQuery = (): BillingQuery => ({ from: undefined, to: undefined });

export const invoicesQuery = (company: string, contactId: number, query: BillingQuery) =>
  queryOptions({
    queryKey: billingKeys.invoices(company, contactId, query),
    queryFn: ({ signal }) => fetchInvoices(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useInvoices = (company: string, contactId: number, query: BillingQuery) =>
  useQuery(invoicesQuery(company, contactId, query));
