import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer, LoginRequest } from '@sportello/contracts';
import { api } from '../../../lib/api-client';

/** `POST /api/auth/login`: 401 wrong_credentials, 429 too_many_attempts. */
export const login = (body: LoginRequest) =>
  api<LoginAnswer>('/api/auth/login', { method: 'POST', body, anonymous: true });

export const useLogin = () => useMutation({ mutationFn: login });
