import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminPortalSettingsPatch } from '@sportello/contracts';
import { settingsAdminRoutes, staffDeskRoutes } from '@sportello/contracts/route-refs';
import { call, uploadTo } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

/** `GET …/admin/settings`: the portal's settings as Branding edits them (service contracts read the switch). */
export const adminSettingsQuery = (company: string) =>
  queryOptions({
    queryKey: [...staffKeys.portal(company), 'admin-settings'] as const,
    queryFn: ({ signal }) => call(settingsAdminRoutes.get, { params: { company }, signal }),
  });

export const useAdminSettings = (company: string) => useQuery(adminSettingsQuery(company));

/**
 * `PATCH …/admin/settings` with the changed fields: the answer is what the server kept; the desk's own
 * shell reads the portal's name and settings too, so the portal's queries are refetched.
 */
export function useSaveSettings(company: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminPortalSettingsPatch) =>
      call(settingsAdminRoutes.update, { params: { company }, body }),
    onSuccess: (answer) => {
      qc.setQueryData(adminSettingsQuery(company).queryKey, answer);
      void qc.invalidateQueries({ queryKey: staffKeys.portal(company) });
    },
  });
}

/** `POST …/upload` of the desk: a file (the logo) kept for the next save, which names it by its id. */
export const useDeskUpload = (company: string) =>
  useMutation({ mutationFn: (file: File) => uploadTo(staffDeskRoutes.upload, { company }, file) });
