import { queryOptions } from '@tanstack/react-query';
import { staffAuthRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/** `GET /api/staff/me`: the agent and the portals they belong to. */
export const staffMeQuery = () =>
  queryOptions({
    queryKey: staffKeys.me(),
    queryFn: ({ signal }) => call(staffAuthRoutes.me, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });
