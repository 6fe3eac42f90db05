import { useMutation } from '@tanstack/react-query';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `POST /api/auth/login/second-factor` with a code: 401 wrong_code / challenge_expired, 429. */
export const finishWithCode = (ticket: string, code: string) =>
  call(authRoutes.secondFactor, { body: { ticket, code } });

/** Asks the server for the passkey options of this sign-in, lets the browser sign them, sends the answer. */
export async function finishWithPasskey(ticket: string) {
  const options = await call(authRoutes.passkeyLoginOptions, { body: { ticket } });
  const answer = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return call(authRoutes.secondFactor, {
    body: { ticket, passkey: answer as unknown as Record<string, unknown> },
  });
}

export const useFinishWithCode = () =>
  useMutation({
    mutationFn: ({ ticket, code }: { ticket: string; code: string }) => finishWithCode(ticket, code),
  });
export const useFinishWithPasskey = () => useMutation({ mutationFn: finishWithPasskey });
