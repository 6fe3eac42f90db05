import { useMutation } from '@tanstack/react-query';
import type { RecoveryAnswer, RecoveryRequest } from '@sportello/contracts';
import { api } from '../../../lib/api-client';

/** `POST /api/auth/recovery`: answers the same whether the user exists or not (B2). */
export const requestRecovery = (body: RecoveryRequest) =>
  api<RecoveryAnswer>('/api/auth/recovery', { method: 'POST', body, anonymous: true });

export const useRecovery = () => useMutation({ mutationFn: requestRecovery });
