import { infiniteQueryOptions } from '@tanstack/react-query';
import { staffInboxRoutes } from '@sportello/contracts/route-refs';
import type { InboxApiQuery } from '../inbox-url';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/** Rows per "load more". */
export const INBOX_PAGE = 50;

/** `GET /api/staff/portals/{company}/tickets`: a view page by page (keyset: each page's nextCursor). */
export const inboxQuery = (company: string, query: InboxApiQuery) =>
  infiniteQueryOptions({
    queryKey: staffKeys.inbox(company, query),
    queryFn: ({ signal, pageParam }) =>
      call(staffInboxRoutes.list, {
        params: { company },
        query: { ...query, limit: INBOX_PAGE, cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 15_000,
  });
