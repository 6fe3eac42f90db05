import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogAdminRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import type { BodyFor } from './body';
import { adminKeys } from './keys';

/** `GET …/admin/wiki?companyId=`: a company's wiki folders and elements with their properties. */
export const useAdminWiki = (company: string, companyId: number) =>
  useQuery({
    queryKey: adminKeys.wiki(company, companyId),
    queryFn: ({ signal }) =>
      call(catalogAdminRoutes.wiki, { params: { company }, query: { companyId }, signal }),
  });

type ElementBody = Omit<BodyFor<typeof entityStaffRoutes.createWikiElement>, 'companyId'>;

/** `POST …/admin/wiki-elements` (elementId null) or `PATCH …/admin/wiki-elements/{id}`; the list again. */
export function useSaveWikiElement(company: string, companyId: number, elementId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ElementBody) =>
      elementId === null
        ? call(entityStaffRoutes.createWikiElement, { params: { company }, body: { ...body, companyId } })
        : call(entityStaffRoutes.updateWikiElement, { params: { company, elementid: elementId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.wiki(company, companyId) }),
  });
}
