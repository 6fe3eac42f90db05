import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { staffBellRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/** How often the bell asks for its count besides the desk's own refreshes (a cheap index range). */
export const BELL_POLL_MS = 30_000;

const bellKey = (company: string) => [...staffKeys.portal(company), 'bell'] as const;
export const bellKeys = {
  all: bellKey,
  count: (company: string) => [...bellKey(company), 'count'] as const,
  list: (company: string) => [...bellKey(company), 'list'] as const,
};

/** The agent's unread notices in this portal. */
export const bellCountQuery = (company: string) =>
  queryOptions({
    queryKey: bellKeys.count(company),
    queryFn: ({ signal }) => call(staffBellRoutes.count, { params: { company }, signal }),
    refetchInterval: BELL_POLL_MS,
  });

/** The list, newest first, page by page (keyset). */
export const bellListQuery = (company: string) =>
  infiniteQueryOptions({
    queryKey: bellKeys.list(company),
    queryFn: ({ signal, pageParam }) =>
      call(staffBellRoutes.list, {
        params: { company },
        query: { limit: 15, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
