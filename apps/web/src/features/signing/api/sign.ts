import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignRequest, SignedAnswer } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { signingDocumentQuery, signingPath } from './signing-document';

/** `POST …/sign`: 400 fields_required / invalid_otp / otp_locked / otp_expired, 409 already_signed. */
export const signDocument = (company: string, documentKey: string, body: SignRequest) =>
  api<SignedAnswer>(`${signingPath(company, documentKey)}/sign`, { method: 'POST', body, anonymous: true });

export function useSignDocument(company: string, documentKey: string) {
  const queryClient = useQueryClient();
  const { queryKey } = signingDocumentQuery(company, documentKey);
  return useMutation({
    mutationFn: (body: SignRequest) => signDocument(company, documentKey, body),
    // Signed, or refused in a way that changed the state (attempts, already signed): read it again.
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
}
