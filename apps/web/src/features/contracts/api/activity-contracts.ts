import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityContract, ContractsQuery } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { contactApi, contractKeys } from './keys';

/** `GET /api/{company}/{contactid}/activitycontracts?from&to` */
export const fetchActivityContracts = (
  company: string,
  contactId: number,
  query: ContractsQuery,
  signal?: AbortSignal,
) =>
  api<ActivityContract[]>(`${contactApi(company, contactId)}/activitycontracts`, {
    query: { ...query },
    signal,
  });

export const activityContractsQuery = (company: string, contactId: number, query: ContractsQuery) =>
  queryOptions({
    queryKey: contractKeys.activity(company, contactId, query),
    queryFn: ({ signal }) => fetchActivityContracts(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useActivityContracts = (company: string, contactId: number, query: ContractsQuery) =>
  useQuery(activityContractsQuery(company, contactId, query));
