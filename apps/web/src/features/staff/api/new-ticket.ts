import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeskTicketCreate, TicketEntity } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/**
 * `POST …/tickets`: a ticket opened on behalf of a contact (any staff member of the portal); answers
 * the ticket (its back-office id opens it on the desk). The inbox and its counts are read again.
 */
export function useCreateDeskTicket(company: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeskTicketCreate): Promise<TicketEntity> =>
      call(deskEntityRoutes.createTicket, { params: { company }, body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: staffKeys.inboxes(company) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.unread(company) });
    },
  });
}
