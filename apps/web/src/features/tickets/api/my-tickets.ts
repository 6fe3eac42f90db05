import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type TicketListQuery } from '@sportello/contracts';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketListQuery } from '../ticket-filters';
import { DEFAULT_FILTERS } from '../use-ticket-filters';
import { ticketKeys } from './keys';

/** `GET /api/{company}/{contactid}/tickets?from&to&wikiFilter`: the contact's own tickets, newest first. */
export const fetchMyTickets = (
  company: string,
  contactId: number,
  query: TicketListQuery,
  signal?: AbortSignal,
) => call(ticketRoutes.list, { params: { company, contactid: contactId }, query, signal });

export const myTicketsQuery = (company: string, contactId: number, query: TicketListQuery) =>
  queryOptions({
    queryKey: ticketKeys.mine(company, contactId, query),
    queryFn: ({ signal }) => fetchMyTickets(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

/** The list My tickets asks for when it opens: the default filters (no dates, no wiki element). */
export const openingMyTicketsQuery = (): TicketListQuery =>
  ticketListQuery(DEFAULT_FILTERS.range, DEFAULT_FILTERS.wiki?.id ?? null);

export const useMyTickets = (company: string, contactId: number, query: TicketListQuery) =>
  useQuery(myTicketsQuery(company, contactId, query));
