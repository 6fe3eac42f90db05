import { useMutation, useQueryClient } from '@tanstack/react-query';
import { staffSavedViewRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { savedViewsQuery } from '../../api/saved-views';
import type { BodyFor } from './body';

/** The views' list again (the inbox's, whose key it shares). */
const useRefresh = (company: string) => {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: savedViewsQuery(company).queryKey });
};

/** `PUT …/saved-views/{viewid}/shared` with `shared: false`: the view is its maker's alone again. */
export function useUnshareView(company: string) {
  const refresh = useRefresh(company);
  return useMutation({
    mutationFn: (viewId: number) =>
      call(staffSavedViewRoutes.share, { params: { company, viewid: viewId }, body: { shared: false } }),
    onSuccess: refresh,
  });
}

/** `PATCH …/saved-views/{viewid}`: a shared view renamed; the lists again. */
export function useRenameView(company: string, viewId: number) {
  const refresh = useRefresh(company);
  return useMutation({
    mutationFn: (body: BodyFor<typeof staffSavedViewRoutes.update>) =>
      call(staffSavedViewRoutes.update, { params: { company, viewid: viewId }, body }),
    onSuccess: refresh,
  });
}

/** `DELETE …/saved-views/{viewid}`, then the lists again (for the removal's confirmation). */
export function useRemoveView(company: string) {
  const refresh = useRefresh(company);
  return async (viewId: number) => {
    await call(staffSavedViewRoutes.remove, { params: { company, viewid: viewId } });
    await refresh();
  };
}
