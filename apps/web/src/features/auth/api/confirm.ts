import { useMutation } from '@tanstack/react-query';
import type { ConfirmRequest, SessionAnswer } from '@sportello/contracts';
import { api } from '../../../lib/api-client';

/** `POST /api/auth/confirm`: sets the password from a link and answers a session (the user is signed in). */
export const confirmPassword = (body: ConfirmRequest) =>
  api<SessionAnswer>('/api/auth/confirm', { method: 'POST', body, anonymous: true });

export const useConfirmPassword = () => useMutation({ mutationFn: confirmPassword });
