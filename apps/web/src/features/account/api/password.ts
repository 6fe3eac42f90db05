import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type PasswordChangeRequest } from '@sportello/contracts';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';

/**
 * `POST /api/auth/password`: every session ends, this one too, and a new token comes back: it replaces
 * the old one where the old one was kept (remembered or not).
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChangeRequest) => call(authRoutes.password, { body }),
    onSuccess: ({ token }) => {
      storage.setToken(token, storage.isTokenRemembered());
      void queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] });
    },
  });
}
