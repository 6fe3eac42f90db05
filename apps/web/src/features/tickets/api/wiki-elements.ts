import { queryOptions, useQuery } from '@tanstack/react-query';
import { wikiRoutes } from '@sportello/contracts/route-refs';
import { call, pathOf } from '../../../lib/api-client';
import { ticketKeys } from './keys';

/** The URL the wiki server-search dropdowns query (`?filter=` is appended by the widget). */
export const wikiSearchUrl = (company: string, contactId: number) =>
  pathOf(wikiRoutes.list, { company, contactid: contactId });

/** `GET /api/{company}/{contactid}/wikielements`: whether the company has any wiki element (new ticket picker). */
export const fetchWikiElements = (company: string, contactId: number, signal?: AbortSignal) =>
  call(wikiRoutes.list, { params: { company, contactid: contactId }, signal });

export const wikiElementsQuery = (company: string, contactId: number) =>
  queryOptions({
    queryKey: ticketKeys.wikiElements(company, contactId),
    queryFn: ({ signal }) => fetchWikiElements(company, contactId, signal),
    staleTime: 5 * 60_000,
  });

export const useWikiElements = (company: string, contactId: number, enabled: boolean) =>
  useQuery({ ...wikiElementsQuery(company, contactId), enabled });
