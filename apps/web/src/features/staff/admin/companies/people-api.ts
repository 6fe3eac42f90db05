import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { entityStaffRoutes, peopleRoutes } from '@sportello/contracts/route-refs';
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

/** `GET …/admin/companies/{id}`: one company (`enabled` false: an id that is not one). */
export const useCompany = (company: string, id: number) =>
  useQuery({
    queryKey: peopleKeys.company(company, id),
    queryFn: ({ signal }) => call(entityStaffRoutes.company, { params: { company, id }, signal }),
    enabled: Number.isSafeInteger(id),
  });

/** `POST …/admin/companies`: a new company; the section's lists again. */
export function useCreateCompany(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (companyName: string) =>
      call(entityStaffRoutes.createCompany, { params: { company }, body: { companyName } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: peopleKeys.all(company) }),
  });
}

/** `PATCH …/admin/companies/{id}`: its new name, shown at once; the section's lists again. */
export function useRenameCompany(company: string, id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (companyName: string) =>
      call(entityStaffRoutes.updateCompany, { params: { company, id }, body: { companyName } }),
    onSuccess: (c) => {
      qc.setQueryData(peopleKeys.company(company, id), c);
      void qc.invalidateQueries({ queryKey: peopleKeys.all(company) });
    },
  });
}

/** `GET …/admin/contacts/{contactid}`: one contact (`enabled` false: a new one). */
export const useContact = (company: string, contactId: number, enabled: boolean) =>
  useQuery({
    queryKey: peopleKeys.contact(company, contactId),
    queryFn: ({ signal }) =>
      call(entityStaffRoutes.contact, { params: { company, contactid: contactId }, signal }),
    enabled,
  });
