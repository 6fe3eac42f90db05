import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ticketSetupRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/** The three catalogues of the ticket setup. */
export type SetupKind = 'types' | 'steps' | 'groups';

/**
 * The writes of one catalogue (`POST`, `PATCH …/{id}`, `DELETE …/{id}`); each success reloads the
 * portal's queries, the desk's options (every picker) among them. The three kinds share one editor, so
 * the body is typed loosely here; the server checks it with the kind's contract.
 */
export function useSetupKind(company: string, kind: SetupKind) {
  const qc = useQueryClient();
  const r = ticketSetupRoutes[kind];
  const onSuccess = () => void qc.invalidateQueries({ queryKey: staffKeys.portal(company) });
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      call(r.create, { params: { company }, body: body as never }),
    onSuccess,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Record<string, unknown> }) =>
      call(r.update, { params: { company, id }, body: body as never }),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (id: number) => call(r.remove, { params: { company, id } }),
    onSuccess,
  });
  const error = create.error ?? update.error ?? remove.error;
  return { create, update, remove, error };
}

/** `PUT …/groups/{id}/members`: a group's members (Staff and roles sets the same per person). */
export function useSaveGroupMembers(company: string, groupId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      call(ticketSetupRoutes.groups.members, {
        params: { company, id: groupId },
        body: { staffIds: ids.map(Number) },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: staffKeys.portal(company) }),
  });
}
