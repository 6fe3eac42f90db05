import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type EmailChange } from '@sportello/contracts';
import { accountRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { profileQuery } from './profile';

/** `POST /api/account/email`: 400 wrong_password / email_unchanged, 429. */
export function useRequestEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EmailChange) => call(accountRoutes.email, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQuery().queryKey }),
  });
}

/** `POST /api/account/email/confirm` (the link's page; no sign-in needed): 404 / 410. */
export const useConfirmEmail = () =>
  useMutation({ mutationFn: (token: string) => call(accountRoutes.emailConfirm, { body: { token } }) });
