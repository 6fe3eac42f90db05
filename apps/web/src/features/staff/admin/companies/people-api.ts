import { useInfiniteQuery } from '@tanstack/react-query';
import { peopleRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/** Query keys of the section, under the portal's root (signing out drops them). */
export const peopleKeys = {
  all: (company: string) => [...staffKeys.portal(company), 'people'] as const,
  companies: (company: string, q: string) => [...peopleKeys.all(company), 'companies', q] as const,
  company: (company: string, id: number) => [...peopleKeys.all(company), 'company', id] as const,
  contacts: (company: string, id: number, q: string) =>
    [...peopleKeys.all(company), 'company', id, 'contacts', q] as const,
  contact: (company: string, id: number) => [...peopleKeys.all(company), 'contact', id] as const,
  users: (company: string, id: number) => [...peopleKeys.all(company), 'contact', id, 'users'] as const,
};

const PAGE = 50;

export function useCompanies(company: string, q: string) {
  return useInfiniteQuery({
    queryKey: peopleKeys.companies(company, q),
    queryFn: ({ pageParam, signal }) =>
      call(peopleRoutes.companies, {
        params: { company },
        query: { q: q || undefined, cursor: pageParam ?? undefined, limit: PAGE },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

export function useCompanyContacts(company: string, id: number, q: string) {
  return useInfiniteQuery({
    queryKey: peopleKeys.contacts(company, id, q),
    queryFn: ({ pageParam, signal }) =>
      call(peopleRoutes.companyContacts, {
        params: { company, id },
        query: { q: q || undefined, cursor: pageParam ?? undefined, limit: PAGE },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}
