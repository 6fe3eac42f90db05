import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type NewCommentRequest } from '@sportello/contracts';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call, pathOf } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** `POST /api/{company}/{contactid}/Comments` → the new comment. */
export const createComment = (company: string, contactId: number, body: NewCommentRequest) =>
  call(ticketRoutes.comment, { params: { company, contactid: contactId }, body });

/** Adds a reply to a ticket, then refetches the ticket (and the lists, whose order may change). */
export function useCreateComment(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewCommentRequest) => createComment(company, contactId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.all(company, contactId) }),
  });
}

/** Where reply attachments are uploaded (multipart field `file`). */
export const commentAttachmentUrl = (company: string, contactId: number) =>
  pathOf(ticketRoutes.uploadCommentAttachment, { company, contactid: contactId });
