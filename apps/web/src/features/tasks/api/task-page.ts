import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TaskPage } from '@sportello/contracts';
import { api, ApiRequestError } from '../../../lib/api-client';

/** `GET /api/tasks/{company}/{eventkey}` (public): the read-only summary of one ticket. */
export const taskPageQuery = (company: string, eventKey: string) =>
  queryOptions({
    queryKey: ['tasks', company.toLowerCase(), eventKey] as const,
    queryFn: ({ signal }) =>
      api<TaskPage>(`/api/tasks/${encodeURIComponent(company)}/${encodeURIComponent(eventKey)}`, {
        signal,
        anonymous: true,
      }),
    staleTime: 60_000,
    retry: (failures, error) =>
      !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failures < 1,
  });

export const useTaskPage = (company: string, eventKey: string) => useQuery(taskPageQuery(company, eventKey));
