import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LinkCheckAnswer } from '@sportello/contracts';
import { api } from '../../../lib/api-client';

/** `GET /api/auth/links/{token}`: what an invitation or recovery link is for; 404 invalid, 410 expired. */
export const authLinkQuery = (token: string) =>
  queryOptions({
    queryKey: ['authLink', token] as const,
    queryFn: ({ signal }) =>
      api<LinkCheckAnswer>(`/api/auth/links/${encodeURIComponent(token)}`, { signal, anonymous: true }),
    retry: false,
    staleTime: Infinity,
  });

export const useAuthLink = (token: string | null) =>
  useQuery({ ...authLinkQuery(token ?? ''), enabled: !!token });
