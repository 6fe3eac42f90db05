import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type StaffLoginRequest } from '@sportello/contracts';
import { staffAuthRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { staffKeys } from './keys';

/**
 * The staff session lives under its own storage key (lib/storage `staffToken`), never the contact's:
 * api-client sends it to `/api/staff/…` routes only.
 */
export const staffToken = () => storage.get('staffToken');

/** `POST /api/staff/auth/login`: 401 wrong_credentials, 429 too_many_attempts. */
export const staffLogin = (body: StaffLoginRequest) => call(staffAuthRoutes.login, { body });

/** Signs in; nothing cached for an earlier agent may show to this one. */
export function useStaffLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: staffLogin,
    onSuccess: ({ token }) => {
      queryClient.removeQueries({ queryKey: staffKeys.all });
      storage.set('staffToken', token);
    },
  });
}

/**
 * `POST /api/staff/auth/logout`: revokes the token on the server; it is forgotten here whatever the
 * answer (a sign-out must not fail because the network did).
 */
export function useStaffLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(staffAuthRoutes.logout, {}).catch(() => undefined),
    onSettled: () => {
      storage.set('staffToken', null);
      queryClient.removeQueries({ queryKey: staffKeys.all });
    },
  });
}
