import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketDetail } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { contactApi, ticketKeys } from './keys';

/** `POST /api/{company}/{contactid}/tickets/{ticketid}/close` → the ticket, now at the portal's closing step. */
export const closeTicket = (company: string, contactId: number, ticketId: number) =>
  api<TicketDetail>(`${contactApi(company, contactId)}/tickets/${ticketId}/close`, { method: 'POST' });

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
