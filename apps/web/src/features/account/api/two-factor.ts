import { useMutation } from '@tanstack/react-query';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { type Reauth } from '@sportello/contracts';
import { accountRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { useRefreshProfile } from './profile';

/** Six digits are a code of the authenticator app; anything else is taken as the password. */
export const proofOf = (text: string): Reauth =>
  /^\d{6}$/.test(text.trim()) ? { code: text.trim() } : { password: text };

/** A change of the factors: the profile is read again after it, whatever happened. */
function useFactorMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const refresh = useRefreshProfile();
  return useMutation({ mutationFn: fn, onSettled: () => refresh() });
}

/**
 * `POST /api/account/totp/setup` with the password or a code: a secret and its otpauth URI (the QR
 * code), to confirm within five minutes.
 */
export const useTotpSetup = () =>
  useMutation({ mutationFn: (proof: Reauth) => call(accountRoutes.totpSetup, { body: proof }) });
/** `POST /api/account/totp`: 400 wrong_code; recovery codes when this turned two-factor on. */
export const useTotpConfirm = () =>
  useFactorMutation((code: string) => call(accountRoutes.totpConfirm, { body: { code } }));
export const useTotpDisable = () =>
  useFactorMutation((proof: Reauth) => call(accountRoutes.totpDisable, { body: proof }));

/**
 * Registers a passkey: options from the server (with the password or a code), the browser creates the
 * key, the server checks it.
 */
export const usePasskeyAdd = () =>
  useFactorMutation(async ({ name, proof }: { name: string; proof: Reauth }) => {
    const options = await call(accountRoutes.passkeyOptions, { body: proof });
    const response = await startRegistration({
      optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
    });
    return call(accountRoutes.passkeyAdd, {
      body: { name, response: response as unknown as Record<string, unknown> },
    });
  });
export const usePasskeyRemove = () =>
  useFactorMutation(({ id, proof }: { id: string; proof: Reauth }) =>
    call(accountRoutes.passkeyRemove, { params: { passkeyid: id }, body: proof }),
  );
export const useRenewRecoveryCodes = () =>
  useFactorMutation((proof: Reauth) => call(accountRoutes.recoveryCodes, { body: proof }));
