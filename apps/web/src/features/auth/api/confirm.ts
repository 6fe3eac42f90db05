import { useMutation } from '@tanstack/react-query';
import { authRoutes, type ConfirmRequest } from '@sportello/contracts';
import { call } from '../../../lib/api-client';

/** `POST /api/auth/confirm`: sets the password from a link and answers a session (the user is signed in). */
export const confirmPassword = (body: ConfirmRequest) => call(authRoutes.confirm, { body });

export const useConfirmPassword = () => useMutation({ mutationFn: confirmPassword });
