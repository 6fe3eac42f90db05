import { queryOptions } from '@tanstack/react-query';
import { staffInboxRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/**
 * `GET /api/staff/portals/{company}/search?q=`: tickets, contacts and companies as one types. The
 * signal is the query's: a newer text leaves this one unobserved and React Query aborts its request.
 */
export const quickSearchQuery = (company: string, q: string) =>
  queryOptions({
    queryKey: [...staffKeys.portal(company), 'search', q] as const,
    queryFn: ({ signal }) => call(staffInboxRoutes.search, { params: { company }, query: { q }, signal }),
    staleTime: 10_000,
  });
