import { queryOptions, useQuery } from '@tanstack/react-query';
import { overviewRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `GET /api/{company}/{contactid}/overview`: every section the contact may see, in one answer. */
export const fetchOverview = (company: string, contactId: number, signal?: AbortSignal) =>
  call(overviewRoutes.overview, { params: { company, contactid: contactId }, signal });

export const overviewQuery = (company: string, contactId: number) =>
  queryOptions({
    // Under the tickets key of the contact: a reply, a close or a new ticket refreshes the overview too.
    queryKey: ['tickets', company.toLowerCase(), contactId, 'overview'] as const,
    queryFn: ({ signal }) => fetchOverview(company, contactId, signal),
  });

export const useOverview = (company: string, contactId: number) =>
  useQuery(overviewQuery(company, contactId));
