import { queryOptions, useQuery } from '@tanstack/react-query';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { reportKeys } from './keys';

/**
 * The ids of the tickets the user can see, to decide which report-to-ticket links to keep (SPEC A7):
 * `tickets/all` first, the contact's own `tickets` when that fails, and no ticket at all when both fail
 * (every link is then cleared).
 */
export async function fetchVisibleTicketIds(
  company: string,
  contactId: number,
  signal?: AbortSignal,
): Promise<number[]> {
  const params = { company, contactid: contactId };
  try {
    return (await call(ticketRoutes.all, { params, signal })).map((t) => t.id);
  } catch {
    try {
      return (await call(ticketRoutes.list, { params, signal })).map((t) => t.id);
    } catch {
      return [];
    }
  }
}

export const visibleTicketsQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: reportKeys.visibleTickets(company, contactId),
    queryFn: ({ signal }) => fetchVisibleTicketIds(company, contactId, signal),
    staleTime: 60_000,
  });

export const useVisibleTicketIds = (company: string, contactId: number) =>
  useQuery(visibleTicketsQuery(company, contactId));
