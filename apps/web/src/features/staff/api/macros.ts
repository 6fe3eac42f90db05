import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MacroInput, MacroReplyRequest } from '@sportello/contracts';
import { staffMacroRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../lib/api-client';
import { staffKeys } from './keys';

type Scope = 'all' | 'shared' | 'mine';
const macrosKey = (company: string) => [...staffKeys.portal(company), 'macros'] as const;

/** `GET …/macros`: the portal's shared macros and the caller's own whose name holds `q`. */
export function useMacros(company: string, q: string, scope: Scope = 'all', enabled = true) {
  return useQuery({
    queryKey: [...macrosKey(company), scope, q] as const,
    queryFn: ({ signal }) =>
      call(staffMacroRoutes.list, { params: { company }, query: { q: q || undefined, scope }, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** `GET …/tickets/{id}/macros/{macroid}`: the macro's text for this ticket, placeholders filled. */
export const renderMacro = (company: string, ticketId: number, macroId: number) =>
  call(staffMacroRoutes.render, { params: { company, ticketid: ticketId, macroid: macroId } });

/** Creates (`id` null) or changes a macro. */
export function useSaveMacro(company: string, id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MacroInput) =>
      id === null
        ? call(staffMacroRoutes.create, { params: { company }, body })
        : call(staffMacroRoutes.update, { params: { company, macroid: id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: macrosKey(company) }),
  });
}

export function useRemoveMacro(company: string) {
  const queryClient = useQueryClient();
  return async (id: number) => {
    await call(staffMacroRoutes.remove, { params: { company, macroid: id } });
    await queryClient.invalidateQueries({ queryKey: macrosKey(company) });
  };
}

/** `POST …/tickets/{id}/reply-with-actions`: the reply and the macro's ticket changes, one save. */
export function useMacroReply(company: string, ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MacroReplyRequest) =>
      call(staffMacroRoutes.reply, { params: { company, ticketid: ticketId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.portal(company) }),
  });
}
