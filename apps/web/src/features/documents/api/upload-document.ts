import { useMutation, useQueryClient } from '@tanstack/react-query';
import { documentRoutes } from '@sportello/contracts/route-refs';
import { uploadTo } from '../../../lib/api-client';
import { documentKeys } from './keys';

/** `POST /api/{company}/{contactid}/documents/upload/contact` (multipart field `file`), with progress. */
export const uploadContactDocument = (
  company: string,
  contactId: number,
  file: File,
  onProgress?: (fraction: number) => void,
) => uploadTo(documentRoutes.upload, { company, contactid: contactId }, file, onProgress);

/** Uploads one file; on success the documents list is fetched again (same key). */
export function useUploadContactDocument(company: string, contactId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (fraction: number) => void }) =>
      uploadContactDocument(company, contactId, file, onProgress),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: documentKeys.contact(company, contactId) }),
  });
}
