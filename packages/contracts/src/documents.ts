// Schemas of the documents area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { isoDateTime } from './common';
import { tenantParams, uploadResultSchema } from './common';
import { portalParamsSchema } from './portals';
import { defineRoute } from './route';

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
  /** A second file part in one upload request (400): one file per request. */
  oneFileOnly: 'one_file_only',
  /** The multipart body is malformed (no boundary, cut short) (400). */
  badMultipart: 'bad_multipart',
  /** Too many files or bytes uploaded and not attached yet (429, Retry-After: when the oldest expires). */
  pendingQuota: 'too_many_pending_uploads',
  /** A contact's uploads of the last 24 hours, attached or not, reached their bound (429, Retry-After). */
  dailyQuota: 'too_many_uploads',
} as const;

// --- Routes (see route.ts) ---

export const documentRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/documents',
    params: tenantParams,
    responses: { 200: contactDocumentListSchema },
    access: { guard: 'tenant', flag: 'viewContactDocuments' },
    tags: ['documents'],
    summary: "The contact's own documents, newest first",
  }),
  upload: defineRoute({
    method: 'POST',
    path: '/api/:company/:contactid/documents/upload/contact',
    params: tenantParams,
    bodyKind: 'multipart',
    responses: { 201: uploadResultSchema },
    access: { guard: 'tenant', flag: 'uploadContactDocuments' },
    tags: ['documents'],
    summary: "Upload one of the contact's documents (answers the new document's id and URL)",
    description:
      'multipart/form-data with one field `file` (at most MAX_UPLOAD_MB, else 413 and nothing is kept). ' +
      '429 too_many_uploads (200 files or 40 × MAX_UPLOAD_MB in 24 hours), with Retry-After.',
  }),
  publicFiles: defineRoute({
    method: 'GET',
    path: '/api/settings/:company/publicfiles',
    params: portalParamsSchema,
    responses: { 200: publicFileListSchema },
    access: { guard: 'portal' },
    tags: ['documents'],
    summary: "The portal's public files (any signed-in user holding a contact of the portal)",
  }),
};
