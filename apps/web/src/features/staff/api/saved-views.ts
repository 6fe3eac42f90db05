import { queryOptions } from '@tanstack/react-query';
import { staffSavedViewRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

/**
 * The agent's saved views and the portal's shared ones with their counts. Under the inbox's key, so
 * the desk's long-poll (a change of tickets) asks for the counts again with the lists.
 */
export const savedViewsQuery = (company: string) =>
  queryOptions({
    queryKey: [...staffKeys.inboxes(company), 'saved-views'] as const,
    queryFn: ({ signal }) => call(staffSavedViewRoutes.list, { params: { company }, signal }),
  });
