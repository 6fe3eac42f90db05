import { useQuery } from '@tanstack/react-query';
import type { catalogAdminRoutes, deskEntityRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/** The admin's company picker (`…/admin/company-picker`) or the desk's (agents may call it too). */
export type CompanyPickRoute = typeof catalogAdminRoutes.companies | typeof deskEntityRoutes.companies;

/**
 * The companies whose name starts with `typed`, by one of the two pickers (they take and answer the
 * same shapes: companyPickQuerySchema, companyPickSchema); the last answer stays while the next comes.
 */
export const useCompanyPick = (company: string, route: CompanyPickRoute, typed: string) =>
  useQuery({
    queryKey: [...staffKeys.portal(company), 'company-picker', route.path, typed] as const,
    queryFn: ({ signal }) =>
      call(route as typeof catalogAdminRoutes.companies, {
        params: { company },
        query: { q: typed },
        signal,
      }),
    placeholderData: (previous) => previous,
  });
