import { useMutation } from '@tanstack/react-query';
import { type ConfirmRequest } from '@sportello/contracts';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `POST /api/auth/confirm`: sets the password from a link and answers a session (the user is signed in). */
export const confirmPassword = (body: ConfirmRequest) => call(authRoutes.confirm, { body });

export const useConfirmPassword = () => useMutation({ mutationFn: confirmPassword });
