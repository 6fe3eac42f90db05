import { queryOptions, useQuery } from '@tanstack/react-query';
import { wikiRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

export const wikiKeys = {
  elements: (company: string, contactId: number) =>
    ['wiki', company.toLowerCase(), contactId, 'elements'] as const,
};

/** `GET /api/{company}/{contactid}/wikielements`: every element of the company with its properties. */
export const fetchWikiElements = (company: string, contactId: number, signal?: AbortSignal) =>
  call(wikiRoutes.list, { params: { company, contactid: contactId }, signal });

export const wikiElementsQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: wikiKeys.elements(company, contactId),
    queryFn: ({ signal }) => fetchWikiElements(company, contactId, signal),
  });

export const useWikiElements = (company: string, contactId: number) =>
  useQuery(wikiElementsQuery(company, contactId));
