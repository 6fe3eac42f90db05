import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ActivityReportsQuery } from '@sportello/contracts';
import { reportRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { reportKeys } from './keys';

/** `GET /api/{company}/{contactid}/activities/activityreports?from&to&wikiFilter` */
export const fetchActivityReports = (
  company: string,
  contactId: number,
  query: ActivityReportsQuery,
  signal?: AbortSignal,
) => call(reportRoutes.list, { params: { company, contactid: contactId }, query, signal });

export const activityReportsQuery = (company: string, contactId: number, query: ActivityReportsQuery) =>
  queryOptions({
    queryKey: reportKeys.list(company, contactId, query),
    queryFn: ({ signal }) => fetchActivityReports(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useActivityReports = (company: string, contactId: number, query: ActivityReportsQuery) =>
  useQuery(activityReportsQuery(company, contactId, query));
