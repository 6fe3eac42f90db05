import { queryOptions, useQuery } from '@tanstack/react-query';
import { portalRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';

/** `GET /api/settings/{company}/privacy`: the portal's privacy terms as sanitised HTML (public). */
export const privacyQuery = (company: string) =>
  queryOptions({
    queryKey: ['privacy', company.toLowerCase()] as const,
    queryFn: ({ signal }) => call(portalRoutes.privacy, { params: { company }, signal }),
    staleTime: 10 * 60_000,
  });

export const usePrivacy = (company: string | null) =>
  useQuery({ ...privacyQuery(company ?? ''), enabled: !!company });
