import { queryOptions, useQuery } from '@tanstack/react-query';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError, call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** `GET /api/{company}/{contactid}/tickets/{ticketid}`: the ticket with its conversation. */
export const fetchTicket = (company: string, contactId: number, ticketId: number, signal?: AbortSignal) =>
  call(ticketRoutes.detail, { params: { company, contactid: contactId, ticketid: ticketId }, signal });

export const ticketQuery = (company: string, contactId: number, ticketId: number) =>
  queryOptions({
    queryKey: ticketKeys.detail(company, contactId, ticketId),
    queryFn: ({ signal }) => fetchTicket(company, contactId, ticketId, signal),
    // A 404 (not one of ours) will not change by asking again.
    retry: (failures, error) => !(error instanceof ApiRequestError && error.status < 500) && failures < 2,
  });

export const useTicket = (company: string, contactId: number, ticketId: number) =>
  useQuery({ ...ticketQuery(company, contactId, ticketId), enabled: Number.isSafeInteger(ticketId) });
