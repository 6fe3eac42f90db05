import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaskLinkEntity } from '@sportello/contracts';
import { deskEntityRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

const taskLinksKey = (company: string, ticketId: number) =>
  [...staffKeys.ticket(company, ticketId), 'task-links'] as const;

/** `GET …/tickets/{ticketid}/task-links`: the ticket's task page links, oldest first. */
export const taskLinksQuery = (company: string, ticketId: number) =>
  queryOptions({
    queryKey: taskLinksKey(company, ticketId),
    queryFn: ({ signal }) =>
      call(deskEntityRoutes.taskLinks, { params: { company, ticketid: ticketId }, signal }),
  });

export const useTaskLinks = (company: string, ticketId: number) =>
  useQuery(taskLinksQuery(company, ticketId));

/** `POST …/tickets/{ticketid}/task-links`: a new link with an unguessable key. */
export function useCreateTaskLink(company: string, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<TaskLinkEntity> =>
      call(deskEntityRoutes.createTaskLink, { params: { company, ticketid: ticketId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskLinksKey(company, ticketId) }),
  });
}

/** `DELETE …/tickets/{ticketid}/task-links/{eventkey}`: the page stops answering at once. */
export function useRevokeTaskLink(company: string, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eventKey: string) =>
      call(deskEntityRoutes.deleteTaskLink, { params: { company, ticketid: ticketId, eventkey: eventKey } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: taskLinksKey(company, ticketId) }),
  });
}

/** The public read-only page of a link (docs/portal-spec.md, the task page), on this site. */
export const taskPageUrl = (company: string, eventKey: string, origin = window.location.origin) =>
  `${origin}/tasks/${encodeURIComponent(company)}/${encodeURIComponent(eventKey)}`;
