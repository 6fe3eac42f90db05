import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tag } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { contractKeys } from './keys';

/** `GET /api/settings/{company}/tags`: the one call of SPEC A7 that carries no token. */
export const fetchTags = (company: string, signal?: AbortSignal) =>
  api<Tag[]>(`/api/settings/${encodeURIComponent(company)}/tags`, { signal, anonymous: true });

export const tagsQuery = (company: string) =>
  queryOptions({
    queryKey: contractKeys.tags(company),
    queryFn: ({ signal }) => fetchTags(company, signal),
    staleTime: 5 * 60_000,
  });

export const useTags = (company: string) => useQuery(tagsQuery(company));
