import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type MarkReadRequest, type NotificationPreferences } from '@sportello/contracts';
import { notificationRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

export const notificationKeys = {
  bell: (company: string, contactId: number) =>
    ['notifications', company.toLowerCase(), contactId, 'bell'] as const,
  preferences: (company: string, contactId: number) =>
    ['notifications', company.toLowerCase(), contactId, 'preferences'] as const,
};

/** How often the bell asks for news while the page is open (it stops in a hidden tab). */
export const BELL_POLL_MS = 15_000;

/** `GET /api/{company}/{contactid}/notifications`: the unread count and the latest notifications. */
export const fetchBell = (company: string, contactId: number, signal?: AbortSignal) =>
  call(notificationRoutes.list, { params: { company, contactid: contactId }, signal });

export const bellQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: notificationKeys.bell(company, contactId),
    queryFn: ({ signal }) => fetchBell(company, contactId, signal),
    refetchInterval: BELL_POLL_MS,
    staleTime: 10_000,
  });

export const useBell = (company: string, contactId: number) => useQuery(bellQuery(company, contactId));

/** `POST …/notifications/read`: `{ids}` or `{all: true}`; the answer is the bell as it is now. */
export function useMarkRead(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadRequest) =>
      call(notificationRoutes.markRead, { params: { company, contactid: contactId }, body }),
    onSuccess: (bell) => queryClient.setQueryData(notificationKeys.bell(company, contactId), bell),
  });
}

export const preferencesQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: notificationKeys.preferences(company, contactId),
    queryFn: ({ signal }) =>
      call(notificationRoutes.preferences, { params: { company, contactid: contactId }, signal }),
  });

export function useSavePreferences(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) =>
      call(notificationRoutes.savePreferences, { params: { company, contactid: contactId }, body }),
    onSuccess: (prefs) => queryClient.setQueryData(notificationKeys.preferences(company, contactId), prefs),
  });
}
