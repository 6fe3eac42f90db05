import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type AllTicketsQuery } from '@sportello/contracts';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** `GET /api/{company}/{contactid}/tickets/all?webUserIds&from&to&wikiFilter` (administrators). */
export const fetchAllTickets = (
  company: string,
  contactId: number,
  query: AllTicketsQuery,
  signal?: AbortSignal,
) => call(ticketRoutes.all, { params: { company, contactid: contactId }, query, signal });

export const allTicketsQuery = (company: string, contactId: number, query: AllTicketsQuery) =>
  queryOptions({
    queryKey: ticketKeys.company(company, contactId, query),
    queryFn: ({ signal }) => fetchAllTickets(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useAllTickets = (company: string, contactId: number, query: AllTicketsQuery) =>
  useQuery(allTicketsQuery(company, contactId, query));
