import { queryOptions, useQuery } from '@tanstack/react-query';
import { authRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `GET /api/auth/links/{token}`: what an invitation or recovery link is for; 404 invalid, 410 expired. */
export const authLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ['authLink', token] as const,
    queryFn: ({ signal }) => call(authRoutes.link, { params: { token }, signal }),
    retry: false,
    staleTime: Infinity,
  });

export const useAuthLink = (token: string | null) =>
  useQuery({ ...authLinkQuery(token ?? ''), enabled: !!token });
