import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type StaffCommentRequest,
  type StaffTicketDetail,
  type StaffTicketUpdate,
} from '@sportello/contracts';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call, pathOf } from '../../../lib/api-client';
import { staffKeys } from './keys';

/**
 * `POST …/tickets/{ticketid}/comments`: a public reply (the customer sees it and is e-mailed) or an
 * internal note (staff only). Then the ticket and the inbox (order, counts, unread) are fetched again.
 */
export function useStaffComment(company: string, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffCommentRequest) =>
      call(staffDeskRoutes.comment, { params: { company, ticketid: ticketId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.portal(company) }),
  });
}

/**
 * `PATCH …/tickets/{ticketid}`: step, type, assignee, group, next planned activity; answers the ticket.
 * Any ticket of the portal (the inbox assigns the focused row with `a`).
 */
export function useUpdateTicket(company: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, change }: { ticketId: number; change: StaffTicketUpdate }) =>
      call(staffDeskRoutes.update, { params: { company, ticketid: ticketId }, body: change }),
    onSuccess: (ticket: StaffTicketDetail, { ticketId }) => {
      queryClient.setQueryData(staffKeys.ticket(company, ticketId), ticket);
      void queryClient.invalidateQueries({ queryKey: staffKeys.inboxes(company) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.unread(company) });
    },
  });
}

/** Where reply and note attachments are uploaded (multipart field `file`), with the staff session. */
export const staffUploadUrl = (company: string) => pathOf(staffDeskRoutes.upload, { company });
