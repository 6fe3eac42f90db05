import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ContractsQuery } from '@sportello/contracts';
import { contractRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { contractKeys } from './keys';

/** `GET /api/{company}/{contactid}/activitycontracts?from&to` */
export const fetchActivityContracts = (
  company: string,
  contactId: number,
  query: ContractsQuery,
  signal?: AbortSignal,
) => call(contractRoutes.activity, { params: { company, contactid: contactId }, query, signal });

export const activityContractsQuery = (company: string, contactId: number, query: ContractsQuery) =>
  queryOptions({
    queryKey: contractKeys.activity(company, contactId, query),
    queryFn: ({ signal }) => fetchActivityContracts(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useActivityContracts = (company: string, contactId: number, query: ContractsQuery) =>
  useQuery(activityContractsQuery(company, contactId, query));
