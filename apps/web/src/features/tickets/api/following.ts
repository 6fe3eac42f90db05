/**
 * Following a ticket (issue 16): unread markers, read marks, reopening, the rating and the followers.
 * One file for the small calls of the ticket page that belong together.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type TicketRatingRequest } from '@sportello/contracts';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

const params = (company: string, contactId: number, ticketId: number) => ({
  company,
  contactid: contactId,
  ticketid: ticketId,
});

/** `GET …/tickets/unread`: ids of the tickets with a public message the user has not read. */
export const unreadTicketsQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: [...ticketKeys.all(company, contactId), 'unread'] as const,
    queryFn: ({ signal }) =>
      call(ticketRoutes.unread, { params: { company, contactid: contactId }, signal }).then(
        (a) => new Set(a.ticketIds),
      ),
    staleTime: 30_000,
  });

export const useUnreadTickets = (company: string, contactId: number, enabled = true) =>
  useQuery({ ...unreadTicketsQuery(company, contactId), enabled });

/** `POST …/tickets/{id}/read`: the user has seen the ticket; its unread marker goes. */
export function useMarkRead(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ticketId: number) =>
      call(ticketRoutes.markRead, { params: params(company, contactId, ticketId) }),
    onSuccess: (_v, ticketId) =>
      queryClient.setQueryData(unreadTicketsQuery(company, contactId).queryKey, (old) => {
        if (!old?.has(ticketId)) return old;
        const next = new Set(old);
        next.delete(ticketId);
        return next;
      }),
  });
}

/** `POST …/tickets/{id}/reopen`: back to the portal's default step. */
export function useReopenTicket(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ticketId: number) =>
      call(ticketRoutes.reopen, { params: params(company, contactId, ticketId) }),
    onSuccess: (ticket, ticketId) => {
      queryClient.setQueryData(ticketKeys.detail(company, contactId, ticketId), ticket);
      return queryClient.invalidateQueries({ queryKey: ticketKeys.all(company, contactId) });
    },
  });
}

/** `PUT …/tickets/{id}/rating`: 1–5 and a comment; a new one replaces the last. */
export function useRateTicket(company: string, contactId: number, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TicketRatingRequest) =>
      call(ticketRoutes.rate, { params: params(company, contactId, ticketId), body }),
    onSuccess: (rating) =>
      queryClient.setQueryData(ticketKeys.detail(company, contactId, ticketId), (old) =>
        old ? { ...old, rating } : old,
      ),
  });
}

const followersKey = (company: string, contactId: number, ticketId: number) =>
  [...ticketKeys.detail(company, contactId, ticketId), 'followers'] as const;

/** `GET …/tickets/{id}/followers`: who follows, and which colleagues could. */
export const useFollowers = (company: string, contactId: number, ticketId: number) =>
  useQuery({
    queryKey: followersKey(company, contactId, ticketId),
    queryFn: ({ signal }) =>
      call(ticketRoutes.followers, { params: params(company, contactId, ticketId), signal }),
  });

/** `PUT …/tickets/{id}/followers`: the whole list of followers. */
export function useSetFollowers(company: string, contactId: number, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webUserIds: number[]) =>
      call(ticketRoutes.setFollowers, { params: params(company, contactId, ticketId), body: { webUserIds } }),
    onSuccess: (answer) => queryClient.setQueryData(followersKey(company, contactId, ticketId), answer),
  });
}
