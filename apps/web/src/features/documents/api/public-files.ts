import { queryOptions, useQuery } from '@tanstack/react-query';
import { documentRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { documentKeys } from './keys';

/** `GET /api/settings/{company}/publicfiles` */
export const fetchPublicFiles = (company: string, signal?: AbortSignal) =>
  call(documentRoutes.publicFiles, { params: { company }, signal });

export const publicFilesQuery = (company: string) =>
  queryOptions({
    queryKey: documentKeys.publicFiles(company),
    queryFn: ({ signal }) => fetchPublicFiles(company, signal),
  });

export const usePublicFiles = (company: string) => useQuery(publicFilesQuery(company));
