import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contentStaffRoutes, entityStaffRoutes } from '@sportello/contracts/route-refs';
import { call } from '../../../../lib/api-client';
import { staffKeys } from '../../api/keys';

const publicFilesKey = (company: string) =>
  [...staffKeys.portal(company), 'content', 'public-files'] as const;

/** `GET …/admin/content/public-files`: the portal's public files. */
export const usePublicFiles = (company: string) =>
  useQuery({
    queryKey: publicFilesKey(company),
    queryFn: ({ signal }) => call(contentStaffRoutes.publicFiles, { params: { company }, signal }),
  });

/** `POST …/admin/public-files`: an uploaded file published under its name; the list again. */
export function usePublishFile(company: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fileName, uploadId }: { fileName: string; uploadId: number }) =>
      call(entityStaffRoutes.createPublicFile, {
        params: { company },
        body: { fileName, file: { uploadId } },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: publicFilesKey(company) }),
  });
}

/** `PATCH …/admin/public-files/{publicfileid}`: a new name (the file kept); the list again. */
export function useRenamePublicFile(company: string, fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fileName: string) =>
      call(entityStaffRoutes.updatePublicFile, {
        params: { company, publicfileid: fileId },
        body: { fileName },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: publicFilesKey(company) }),
  });
}

/** `DELETE …/admin/public-files/{publicfileid}`, then the list again. */
export function useRemovePublicFile(company: string) {
  const client = useQueryClient();
  return async (fileId: number) => {
    await call(entityStaffRoutes.deletePublicFile, { params: { company, publicfileid: fileId } });
    await client.invalidateQueries({ queryKey: publicFilesKey(company) });
  };
}
