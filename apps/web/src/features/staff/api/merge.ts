import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffMergeAnswer, StaffTimeRequest, TimeEntry } from '@sportello/contracts';
import { staffMergeRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

const mergeKey = (company: string, ticketId: number) =>
  [...staffKeys.ticket(company, ticketId), 'merge'] as const;
const timeKey = (company: string, ticketId: number) =>
  [...staffKeys.ticket(company, ticketId), 'time'] as const;

/** `GET …/tickets/{ticketid}/merge`: the ticket it was merged into, those merged into it. */
export const mergeStateQuery = (company: string, ticketId: number) =>
  queryOptions({
    queryKey: mergeKey(company, ticketId),
    queryFn: ({ signal }) =>
      call(staffMergeRoutes.state, { params: { company, ticketid: ticketId }, signal }),
  });

export const useMergeState = (company: string, ticketId: number) =>
  useQuery(mergeStateQuery(company, ticketId));

/**
 * `POST …/tickets/{ticketid}/merge` and `…/merge/undo`: then everything of the portal is read again
 * (both tickets, the inbox, the counts).
 */
export function useMerge(company: string, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: { undo: true } | { targetId: number }): Promise<StaffMergeAnswer> =>
      'undo' in action
        ? call(staffMergeRoutes.undo, { params: { company, ticketid: ticketId } })
        : call(staffMergeRoutes.merge, {
            params: { company, ticketid: ticketId },
            body: { targetId: action.targetId },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.portal(company) }),
  });
}

/** Minutes as hours and minutes: 95 → "1:35". */
// Here, not in the time panel: the merge line uses it too, and the time panel comes after the
// conversation (components/ticket-after-content.tsx).
export const hoursOf = (minutes: number) =>
  `${minutes < 0 ? '-' : ''}${Math.floor(Math.abs(minutes) / 60)}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

/** `GET …/tickets/{ticketid}/time`: entries, sums and the company's hour banks. */
export const useTicketTime = (company: string, ticketId: number) =>
  useQuery(
    queryOptions({
      queryKey: timeKey(company, ticketId),
      queryFn: ({ signal }) =>
        call(staffMergeRoutes.time, { params: { company, ticketid: ticketId }, signal }),
    }),
  );

/** `POST …/tickets/{ticketid}/time`: minutes without a comment. */
export function useLogTime(company: string, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffTimeRequest): Promise<TimeEntry> =>
      call(staffMergeRoutes.logTime, { params: { company, ticketid: ticketId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: timeKey(company, ticketId) }),
  });
}
