import { useMutation } from '@tanstack/react-query';
import { type RecoveryRequest } from '@sportello/contracts';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `POST /api/auth/recovery`: answers the same whether the user exists or not (B2). */
export const requestRecovery = (body: RecoveryRequest) => call(authRoutes.recovery, { body });

export const useRecovery = () => useMutation({ mutationFn: requestRecovery });
