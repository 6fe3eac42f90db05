import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { SEARCH_MIN_LENGTH } from '@sportello/contracts';
import { searchRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

export const searchKeys = {
  search: (company: string, contactId: number, q: string) =>
    ['search', company.toLowerCase(), contactId, q] as const,
};

/** `GET /api/{company}/{contactid}/search?q=`: what the contact may see, grouped by kind. */
export const fetchSearch = (company: string, contactId: number, q: string, signal?: AbortSignal) =>
  call(searchRoutes.search, { params: { company, contactid: contactId }, query: { q }, signal });

/** Disabled below the server's minimum; the previous answer stays on screen while the next loads. */
export const searchQuery = (company: string, contactId: number, q: string) =>
  queryOptions({
    queryKey: searchKeys.search(company, contactId, q),
    queryFn: ({ signal }) => fetchSearch(company, contactId, q, signal),
    enabled: [...q].length >= SEARCH_MIN_LENGTH,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
