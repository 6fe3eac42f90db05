import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { ContentKind } from '@sportello/contracts';
import { contentStaffRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/** Query keys of the content section (Documents), under the portal's root. */
const contentKeys = {
  all: (company: string) => [...staffKeys.portal(company), 'content'] as const,
  items: (company: string) => [...contentKeys.all(company), 'items'] as const,
  companies: (company: string, term: string) => [...contentKeys.all(company), 'companies', term] as const,
  company: (company: string, id: number | null) =>
    [...contentKeys.all(company), 'companies', 'id', id] as const,
  contacts: (company: string, companyId: number | null) =>
    [...contentKeys.all(company), 'contacts', companyId] as const,
};

/** `GET …/admin/content/companies?q=`: companies by name or id, as one types (the last answer kept meanwhile). */
export const useContentCompanies = (company: string, term: string) =>
  useQuery({
    queryKey: contentKeys.companies(company, term),
    queryFn: ({ signal }) =>
      call(contentStaffRoutes.companies, { params: { company }, query: { q: term || undefined }, signal }),
    placeholderData: keepPreviousData,
  });

/** The same by a company's id, when `enabled` (the chosen company is not among the first answers). */
export const useContentCompany = (company: string, id: number | null, enabled: boolean) =>
  useQuery({
    queryKey: contentKeys.company(company, id),
    queryFn: ({ signal }) =>
      call(contentStaffRoutes.companies, { params: { company }, query: { q: String(id) }, signal }),
    enabled,
  });

/** `GET …/admin/content/companies/{id}/contacts`: the contacts of a company (the first 500 by name). */
export const useContentContacts = (company: string, companyId: number | null) =>
  useQuery({
    queryKey: contentKeys.contacts(company, companyId),
    queryFn: ({ signal }) =>
      call(contentStaffRoutes.contacts, { params: { company, id: companyId! }, signal }),
    enabled: companyId !== null,
  });

/** `GET …/admin/content/companies/{id}/items?kind=`: a company's files of one kind, 50 a page. */
export const useContentItems = (company: string, companyId: number, kind: ContentKind) =>
  useInfiniteQuery({
    queryKey: [...contentKeys.items(company), companyId, kind] as const,
    queryFn: ({ pageParam, signal }) =>
      call(contentStaffRoutes.items, {
        params: { company, id: companyId },
        query: { kind, cursor: pageParam ?? undefined, limit: 50 },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

const routesOf = (kind: ContentKind) => {
  const r = entityStaffRoutes;
  switch (kind) {
    case 'invoice':
      return { create: r.createInvoice, update: r.updateInvoice, remove: r.deleteInvoice, id: 'invoiceid' };
    case 'estimate':
      return {
        create: r.createEstimate,
        update: r.updateEstimate,
        remove: r.deleteEstimate,
        id: 'estimateid',
      };
    case 'document':
      return {
        create: r.createDocument,
        update: r.updateDocument,
        remove: r.deleteDocument,
        id: 'documentid',
      };
    case 'report':
      return { create: r.createReport, update: r.updateReport, remove: r.deleteReport, id: 'reportid' };
  }
};

/**
 * Files a file of a kind (`id` none: a new one, `POST …/admin/{kind}s`) or changes one (`PATCH`), then
 * the lists again. The four kinds share one form, so the body is typed loosely here; the server checks
 * it with the kind's contract.
 */
export function useSaveContentItem(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body, id }: { kind: ContentKind; body: Record<string, unknown>; id?: number }) => {
      const r = routesOf(kind);
      const route = id === undefined ? r.create : r.update;
      const params = id === undefined ? { company } : { company, [r.id]: id };
      return call(route as typeof entityStaffRoutes.createInvoice, {
        params: params as { company: string },
        body: body as never,
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: contentKeys.items(company) }),
  });
}

/** `DELETE …/admin/{kind}s/{id}`, then the lists again. */
export function useRemoveContentItem(company: string) {
  const client = useQueryClient();
  return async (kind: ContentKind, id: number) => {
    const r = routesOf(kind);
    await call(r.remove as typeof entityStaffRoutes.deleteInvoice, {
      params: { company, [r.id]: id } as { company: string; invoiceid: number },
    });
    await client.invalidateQueries({ queryKey: contentKeys.items(company) });
  };
}
