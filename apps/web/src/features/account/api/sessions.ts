import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { accountRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `GET /api/account/sessions`. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: ['account', 'sessions'] as const,
    queryFn: ({ signal }) => call(accountRoutes.sessions, { signal }),
  });

/** `DELETE /api/account/sessions/{id}`. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionid: string) => call(accountRoutes.endSession, { params: { sessionid } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey }),
  });
}

/** `POST /api/account/sessions/end-all`: this session ends too; the caller then leaves for the login. */
export const useEndAllSessions = () =>
  useMutation({ mutationFn: () => call(accountRoutes.endAllSessions, {}) });
