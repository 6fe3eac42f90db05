import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TagCreate } from '@sportello/contracts';
import { contractRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/settings/{company}/tags`: the portal's tags (the service contracts' tag picker reads them too). */
export const tagsQuery = (company: string) =>
  queryOptions({
    queryKey: adminKeys.tags(company),
    queryFn: ({ signal }) => call(contractRoutes.tags, { params: { company }, signal }),
  });

export const useTags = (company: string) => useQuery(tagsQuery(company));

/** `POST …/admin/tags` (tagId null) or `PATCH …/admin/tags/{tagid}`; the list is refetched. */
export function useSaveTag(company: string, tagId: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Pick<TagCreate, 'name' | 'tagGroupName'>) =>
      tagId === null
        ? call(entityStaffRoutes.createTag, { params: { company }, body })
        : call(entityStaffRoutes.updateTag, { params: { company, tagid: tagId }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.tags(company) }),
  });
}

/** `DELETE …/admin/tags/{tagid}`, then the list again (409 `entity_in_use` while contracts name it). */
export function useRemoveTag(company: string) {
  const client = useQueryClient();
  return async (tagId: number) => {
    await call(entityStaffRoutes.deleteTag, { params: { company, tagid: tagId } });
    await client.invalidateQueries({ queryKey: adminKeys.tags(company) });
  };
}
