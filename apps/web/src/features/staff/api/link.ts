import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type StaffConfirmRequest, type StaffRecoveryRequest } from '@sportello/contracts';
import { staffAuthRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { staffKeys } from './keys';

/** `GET /api/staff/auth/links/{token}`: what an invitation or recovery link is for (404 / 410 when not usable). */
export const useStaffLink = (token: string | null) =>
  useQuery({
    queryKey: staffKeys.link(token ?? ''),
    queryFn: ({ signal }) => call(staffAuthRoutes.link, { params: { token: token! }, signal }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
  });

/** `POST /api/staff/auth/confirm`: sets the password and signs in (the staff session only). */
export function useStaffConfirm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffConfirmRequest) => call(staffAuthRoutes.confirm, { body }),
    onSuccess: ({ token }) => {
      queryClient.removeQueries({ queryKey: staffKeys.all });
      storage.set('staffToken', token);
    },
  });
}

/** `POST /api/staff/auth/recovery`: always 202, whether the e-mail is staff of the portal or not. */
export const useStaffRecovery = () =>
  useMutation({ mutationFn: (body: StaffRecoveryRequest) => call(staffAuthRoutes.recovery, { body }) });
