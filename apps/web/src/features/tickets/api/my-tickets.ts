import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketListItem, TicketListQuery } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { ticketListQuery } from '../ticket-filters';
import { DEFAULT_FILTERS } from '../use-ticket-filters';
import { contactApi, ticketKeys } from './keys';

/** `GET /api/{company}/{contactid}/tickets?from&to&wikiFilter`: the contact's own tickets, newest first. */
export const fetchMyTickets = (
  company: string,
  contactId: number,
  query: TicketListQuery,
  signal?: AbortSignal,
) => api<TicketListItem[]>(`${contactApi(company, contactId)}/tickets`, { query: { ...query }, signal });

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
