import { queryOptions, useQuery } from '@tanstack/react-query';
import { ticketRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/**
 * `GET /api/users/{contactid}/colleagues?company=`: the other users of the contact's company. The
 * company is always sent so the answer is right when a contact id exists in two portals.
 */
export const fetchColleagues = (company: string, contactId: number, signal?: AbortSignal) =>
  call(ticketRoutes.colleagues, { params: { contactid: contactId }, query: { company }, signal });

export const colleaguesQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: ticketKeys.colleagues(company, contactId),
    queryFn: ({ signal }) => fetchColleagues(company, contactId, signal),
    staleTime: 5 * 60_000,
  });

export const useColleagues = (company: string, contactId: number) =>
  useQuery(colleaguesQuery(company, contactId));
