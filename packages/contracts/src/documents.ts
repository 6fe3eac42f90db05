// Schemas of the documents area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { isoDateTime } from './common';

/** A contact's own document (`GET …/documents`, newest first). */
export const contactDocumentSchema = z.object({
  id: z.number().int(),
  documentName: z.string(),
  createDate: isoDateTime,
  /** Signed, expiring URL (preview in an iframe / img; add `&download=1` to force a download). */
  url: z.string(),
  /** Name and type of the stored file, for the type icon and the preview choice. */
  fileName: z.string(),
  contentType: z.string(),
});
export type ContactDocument = z.infer<typeof contactDocumentSchema>;
export const contactDocumentListSchema = z.array(contactDocumentSchema);

/** `GET /api/settings/{company}/publicfiles`. */
export const publicFileSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  url: z.string(),
  contentType: z.string(),
});
export type PublicFile = z.infer<typeof publicFileSchema>;
export const publicFileListSchema = z.array(publicFileSchema);

/** Error codes of uploads (413 `payload_too_large` comes from the platform). */
export const uploadErrorCodes = {
  multipartRequired: 'multipart_required',
  fileRequired: 'file_required',
} as const;
