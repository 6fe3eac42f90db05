import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WikiElement } from '@sportello/contracts';
import { api } from '../../../lib/api-client';

/** `/api/{company}/{contactid}` */
const contactApi = (company: string, contactId: number) => `/api/${encodeURIComponent(company)}/${contactId}`;

export const wikiKeys = {
  elements: (company: string, contactId: number) =>
    ['wiki', company.toLowerCase(), contactId, 'elements'] as const,
};

/** `GET /api/{company}/{contactid}/wikielements`: every element of the company with its properties. */
export const fetchWikiElements = (company: string, contactId: number, signal?: AbortSignal) =>
  api<WikiElement[]>(`${contactApi(company, contactId)}/wikielements`, { signal });

export const wikiElementsQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: wikiKeys.elements(company, contactId),
    queryFn: ({ signal }) => fetchWikiElements(company, contactId, signal),
  });

export const useWikiElements = (company: string, contactId: number) =>
  useQuery(wikiElementsQuery(company, contactId));
