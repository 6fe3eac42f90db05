import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { clearAllDrafts } from '../../../lib/drafts';
import { storage } from '../../../lib/storage';

/** `POST /api/auth/logout`: revokes the token on the server. */
export const logout = () => call(authRoutes.logout, {});

/**
 * Signs out and goes to `to` (the login page). Whatever the server answers (even a network error) the
 * token and every cached answer are dropped, so the next user of this browser sees nothing of this one.
 * The cache is cleared after leaving, so the signed-in pages do not refetch on the way out.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (to: string) => {
      try {
        await logout();
      } catch {
        // Already revoked or offline: signing out here is what the user asked for.
      }
      return to;
    },
    onSettled: (to) => {
      storage.set('token', null);
      // Drafts outlive an expired session (issue 16), not a logout: the next user sees nothing of this one.
      clearAllDrafts();
      navigate(to ?? '/Login', { replace: true });
      queryClient.clear();
    },
  });
}
