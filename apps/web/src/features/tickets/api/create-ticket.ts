import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type NewTicketRequest } from '@sportello/contracts';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** `POST /api/{company}/{contactid}/tickets` → the new ticket. */
export const createTicket = (company: string, contactId: number, body: NewTicketRequest) =>
  call(ticketRoutes.create, { params: { company, contactid: contactId }, body });

/** Creates a ticket; the lists of this contact are refetched so the new ticket shows at once. */
export function useCreateTicket(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewTicketRequest) => createTicket(company, contactId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.all(company, contactId) }),
  });
}
