import { queryOptions, useQuery } from '@tanstack/react-query';
import { staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { useAfterContent } from '../../../lib/first-content';
import { staffKeys } from './keys';

/** `GET /api/staff/portals/{company}/options`: steps, types, groups and agents for the pickers, and who I am. */
export const deskOptionsQuery = (company: string) =>
  queryOptions({
    queryKey: [...staffKeys.portal(company), 'options'] as const,
    queryFn: ({ signal }) => call(staffDeskRoutes.options, { params: { company }, signal }),
    staleTime: 5 * 60_000,
  });

/** Asked for once the page's main content is shown (lib/first-content): the inbox's rows need none. */
export const useDeskOptions = (company: string) =>
  useQuery({ ...deskOptionsQuery(company), enabled: useAfterContent() });
