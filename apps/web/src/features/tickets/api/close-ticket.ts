import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** `POST /api/{company}/{contactid}/tickets/{ticketid}/close` → the ticket, now at the portal's closing step. */
export const closeTicket = (company: string, contactId: number, ticketId: number) =>
  call(ticketRoutes.close, { params: { company, contactid: contactId, ticketid: ticketId } });

/** Closes a ticket: the detail shows the answer at once; the lists are refetched (the open filter hides it). */
export function useCloseTicket(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ticketId: number) => closeTicket(company, contactId, ticketId),
    onSuccess: (ticket, ticketId) => {
      queryClient.setQueryData(ticketKeys.detail(company, contactId, ticketId), ticket);
      return queryClient.invalidateQueries({ queryKey: ticketKeys.all(company, contactId) });
    },
  });
}
