import { queryOptions, useQuery } from '@tanstack/react-query';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** `GET /api/settings/{company}/tickets/types`: the portal's ticket types. */
export const fetchTicketTypes = (company: string, signal?: AbortSignal) =>
  call(ticketRoutes.types, { params: { company }, signal });

export const ticketTypesQuery = (company: string) =>
  queryOptions({
    queryKey: ticketKeys.types(company),
    queryFn: ({ signal }) => fetchTicketTypes(company, signal),
    staleTime: 10 * 60_000,
  });

export const useTicketTypes = (company: string) => useQuery(ticketTypesQuery(company));
