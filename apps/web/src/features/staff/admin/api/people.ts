import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { entityStaffRoutes, peopleRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
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

/** A company's name as the create and rename routes take it (the admin's form holds it untrimmed). */
export const companyNameBody = (v: { companyName: string }) => ({ companyName: v.companyName.trim() });

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

type ContactBody = BodyFor<typeof entityStaffRoutes.updateContact>;

/**
 * `POST …/admin/contacts` (contactId null: a new one of `companyId`) or `PATCH …/{contactid}`: the answer
 * shown at once, the section's lists again.
 */
export function useSaveContact(company: string, companyId: number, contactId: number | null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactBody & { referentName: string }) =>
      contactId === null
        ? call(entityStaffRoutes.createContact, { params: { company }, body: { ...body, companyId } })
        : call(entityStaffRoutes.updateContact, { params: { company, contactid: contactId }, body }),
    onSuccess: (c) => {
      void qc.invalidateQueries({ queryKey: peopleKeys.all(company) });
      qc.setQueryData(peopleKeys.contact(company, c.contactId), c);
    },
  });
}

/** `POST …/admin/contacts/{contactid}/view-as`: a short-lived session to see the portal as the contact. */
export const useViewAs = (company: string, contactId: number) =>
  useMutation({ mutationFn: () => call(peopleRoutes.viewAs, { params: { company, contactid: contactId } }) });

/** `GET …/admin/contacts/{contactid}/users`: the contact's user accounts and invitations. */
export const useContactUsers = (company: string, contactId: number) =>
  useQuery({
    queryKey: peopleKeys.users(company, contactId),
    queryFn: ({ signal }) =>
      call(peopleRoutes.contactUsers, { params: { company, contactid: contactId }, signal }),
  });

export type UserAction = 'resend' | 'revoke' | 'deactivate' | 'reset';

/** One action on a user account (resend or revoke its invitation, deactivate, reset its password). */
export function useUserAction(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ action, userName }: { action: UserAction; userName: string }) => {
      const params = { company, username: userName };
      const r = entityStaffRoutes;
      return action === 'resend'
        ? call(r.resendInvitation, { params })
        : action === 'revoke'
          ? call(r.revokeInvitation, { params })
          : action === 'deactivate'
            ? call(r.deactivateUser, { params })
            : call(r.passwordReset, { params });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: peopleKeys.all(company) }),
  });
}

/** `POST …/admin/users`: a user account for the contact, invited by e-mail. */
export const useInviteUser = (company: string) =>
  useMutation({
    mutationFn: (body: BodyFor<typeof entityStaffRoutes.inviteUser>) =>
      call(entityStaffRoutes.inviteUser, { params: { company }, body }),
  });
