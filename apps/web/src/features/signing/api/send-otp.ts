import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SigningDocument } from '@sportello/contracts';
import { OTP_MAX_ATTEMPTS } from '@sportello/contracts/signing-codes';
import { signingRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { signingDocumentQuery } from './signing-document';

/** `POST …/otp`: sends (or resends) the code by SMS. 409 no_phone / otp_resend_too_early, 429 otp_too_many. */
export const sendOtp = (company: string, documentKey: string) =>
  call(signingRoutes.otp, { params: { company, documentkey: documentKey } });

export function useSendOtp(company: string, documentKey: string) {
  const queryClient = useQueryClient();
  const { queryKey } = signingDocumentQuery(company, documentKey);
  return useMutation({
    mutationFn: () => sendOtp(company, documentKey),
    onSuccess: (sent) => {
      // The page's countdown and attempts come from the document's `otp`: a new code resets both.
      queryClient.setQueryData<SigningDocument>(queryKey, (doc) =>
        doc
          ? {
              ...doc,
              otp: {
                sentAt: sent.sentAt,
                expiresAt: sent.expiresAt,
                resendAvailableAt: sent.resendAvailableAt,
                attemptsLeft: OTP_MAX_ATTEMPTS,
              },
            }
          : doc,
      );
    },
  });
}
