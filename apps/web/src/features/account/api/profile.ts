import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ProfileUpdate } from '@sportello/contracts';
import { accountRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `GET /api/account`: the signed-in user's profile and second factors. */
export const profileQuery = () =>
  queryOptions({
    queryKey: ['account', 'profile'] as const,
    queryFn: ({ signal }) => call(accountRoutes.profile, { signal }),
  });

/** `PATCH /api/account`; the answer is the new profile, and /Users/me carries the name and language. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => call(accountRoutes.update, { body }),
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQuery().queryKey, profile);
      void queryClient.invalidateQueries({ queryKey: ['me'] });
    },
  });
}

/** Refreshes the profile after a change elsewhere on the page (a factor added or removed). */
export function useRefreshProfile() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: profileQuery().queryKey });
}
