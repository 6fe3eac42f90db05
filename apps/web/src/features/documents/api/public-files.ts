import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicFile } from '@sportello/contracts';
import { api } from '../../../lib/api-client';
import { documentKeys } from './keys';

/** `GET /api/settings/{company}/publicfiles` */
export const fetchPublicFiles = (company: string, signal?: AbortSignal) =>
  api<PublicFile[]>(`/api/settings/${encodeURIComponent(company)}/publicfiles`, { signal });

export const publicFilesQuery = (company: string) =>
  queryOptions({
    queryKey: documentKeys.publicFiles(company),
    queryFn: ({ signal }) => fetchPublicFiles(company, signal),
  });

export const usePublicFiles = (company: string) => useQuery(publicFilesQuery(company));
