import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignRequest } from '@sportello/contracts';
import { signingRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { signingDocumentQuery } from './signing-document';

/** `POST …/sign`: 400 fields_required / invalid_otp / otp_locked / otp_expired, 409 already_signed. */
export const signDocument = (company: string, documentKey: string, body: SignRequest) =>
  call(signingRoutes.sign, { params: { company, documentkey: documentKey }, body });

export function useSignDocument(company: string, documentKey: string) {
  const queryClient = useQueryClient();
  const { queryKey } = signingDocumentQuery(company, documentKey);
  return useMutation({
    mutationFn: (body: SignRequest) => signDocument(company, documentKey, body),
    // Signed, or refused in a way that changed the state (attempts, already signed): read it again.
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
