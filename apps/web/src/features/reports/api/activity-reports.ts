import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityReport, ActivityReportsQuery } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { contactApi, reportKeys } from './keys';

/** `GET /api/{company}/{contactid}/activities/activityreports?from&to&wikiFilter` */
export const fetchActivityReports = (
  company: string,
  contactId: number,
  query: ActivityReportsQuery,
  signal?: AbortSignal,
) =>
  api<ActivityReport[]>(`${contactApi(company, contactId)}/activities/activityreports`, {
    query: { ...query },
    signal,
  });

export const activityReportsQuery = (company: string, contactId: number, query: ActivityReportsQuery) =>
  queryOptions({
    queryKey: reportKeys.list(company, contactId, query),
    queryFn: ({ signal }) => fetchActivityReports(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useActivityReports = (company: string, contactId: number, query: ActivityReportsQuery) =>
  useQuery(activityReportsQuery(company, contactId, query));
