import { queryOptions, useQuery } from '@tanstack/react-query';
import { taskRoutes } from '@sportello/contracts/route-refs';
import { ApiRequestError, call } from '../../../lib/api-client';

/** `GET /api/tasks/{company}/{eventkey}` (public): the read-only summary of one ticket. */
export const taskPageQuery = (company: string, eventKey: string) =>
  queryOptions({
    queryKey: ['tasks', company.toLowerCase(), eventKey] as const,
    queryFn: ({ signal }) => call(taskRoutes.page, { params: { company, eventkey: eventKey }, signal }),
    staleTime: 60_000,
    retry: (failures, error) =>
      !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failures < 1,
  });

export const useTaskPage = (company: string, eventKey: string) => useQuery(taskPageQuery(company, eventKey));
