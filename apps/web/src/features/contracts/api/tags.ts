import { queryOptions, useQuery } from '@tanstack/react-query';
import { contractRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { contractKeys } from './keys';

/** `GET /api/settings/{company}/tags`: the one call of SPEC A7 that carries no token. */
export const fetchTags = (company: string, signal?: AbortSignal) =>
  call(contractRoutes.tags, { params: { company }, signal });

export const tagsQuery = (company: string) =>
  queryOptions({
    queryKey: contractKeys.tags(company),
    queryFn: ({ signal }) => fetchTags(company, signal),
    staleTime: 5 * 60_000,
  });

export const useTags = (company: string) => useQuery(tagsQuery(company));
