import { useMutation } from '@tanstack/react-query';
import { type LoginRequest } from '@sportello/contracts';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `POST /api/auth/login`: 401 wrong_credentials, 429 too_many_attempts. */
export const login = (body: LoginRequest) => call(authRoutes.login, { body });

export const useLogin = () => useMutation({ mutationFn: login });
