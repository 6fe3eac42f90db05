import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type ContractsQuery } from '@sportello/contracts';
import { contractRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { contractKeys } from './keys';

/** `GET /api/{company}/{contactid}/activitycontracts/servicecontracts?from&to` */
export const fetchServiceContracts = (
  company: string,
  contactId: number,
  query: ContractsQuery,
  signal?: AbortSignal,
) => call(contractRoutes.service, { params: { company, contactid: contactId }, query, signal });

export const serviceContractsQuery = (company: string, contactId: number, query: ContractsQuery) =>
  queryOptions({
    queryKey: contractKeys.service(company, contactId, query),
    queryFn: ({ signal }) => fetchServiceContracts(company, contactId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useServiceContracts = (company: string, contactId: number, query: ContractsQuery) =>
  useQuery(serviceContractsQuery(company, contactId, query));
