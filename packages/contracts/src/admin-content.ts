/**
 * Content in the staff desk (issue 14 items 2 and 3) and signature requests as an entity (issue 12
 * item 4): the company's documents listed for the desk's `documents` section, and signature requests
 * created, followed, cancelled and downloaded, by a staff admin (`/api/staff/portals/:company/admin`)
 * or a portal key (`/api/integration/v1`, `read` / `write`). One service serves both roots; every
 * change writes the audit log and emits its event in its transaction.
 */
import { z } from 'zod';
import { importIdSchema } from './admin';
import {
  cursorText,
  dateTimeInput,
  errorSchema,
  EXT_ID_MAX,
  extIdParam,
  INT4_MAX,
  isoDateTime,
} from './common';
import { entityFileInputSchema, entityFileSchema, publicFileEntitySchema } from './entities';
import { binaryAnswer, defineRoute, type Access } from './route';
import { staffPortalParamsSchema } from './staff';

export const contentErrorCodes = {
  /** 422: the file of a signature request is not a PDF (checked on its bytes, not its name). */
  notAPdf: 'not_a_pdf',
  /** 422: an expiry that is not in the future. */
  expiryInPast: 'expiry_in_past',
  /** 409: cancel of a request already signed or cancelled. */
  signatureClosed: 'signature_closed',
  /** 422: an SMS code for a contact without a phone. */
  contactWithoutPhone: 'contact_without_phone',
  /** 404: the signed PDF of a request that is not signed. */
  notSigned: 'not_signed',
} as const;

// ---- the desk's pickers and a company's documents --------------------------------------------------

export const contentCompanySchema = z.object({ id: z.number().int(), companyName: z.string() });
export const contentCompaniesQuerySchema = z.object({
  /** Part of the name, or the id. */
  q: z.string().trim().max(200).optional(),
});
export const contentContactSchema = z.object({
  contactId: z.number().int(),
  referentName: z.string(),
  email: z.string().nullable(),
  /** Present: the contact can sign with an SMS code. */
  hasPhone: z.boolean(),
});
export type ContentContact = z.infer<typeof contentContactSchema>;
export const contentCompanyParamsSchema = staffPortalParamsSchema.extend({ id: extIdParam });

export const contentKinds = ['invoice', 'estimate', 'document', 'report'] as const;
export const contentKindSchema = z.enum(contentKinds);
export type ContentKind = z.infer<typeof contentKindSchema>;
export const CONTENT_PAGE_MAX = 100;
/** The desk lists at most this many public files of a portal. */
export const PUBLIC_FILES_MAX = 500;
export const contentListQuerySchema = z.object({
  kind: contentKindSchema,
  /** An item's id (a back-office id). */
  cursor: cursorText(BigInt(EXT_ID_MAX)).optional(),
  limit: z.coerce.number().int().min(1).max(CONTENT_PAGE_MAX).default(50),
});
/** One row of a company's list, whatever its kind (the entity itself: GET of its kind's route). */
export const contentItemSchema = z.object({
  kind: contentKindSchema,
  id: z.number().int(),
  /** Document number, estimate name, document name or report name. */
  title: z.string(),
  date: isoDateTime,
  total: z.number().nullable(),
  contactId: z.number().int().nullable(),
  taskId: z.number().int().nullable(),
  file: entityFileSchema,
});
export type ContentItem = z.infer<typeof contentItemSchema>;
export const contentPageSchema = z.object({
  items: z.array(contentItemSchema),
  nextCursor: z.string().nullable(),
});
export type ContentPage = z.infer<typeof contentPageSchema>;

// ---- signature requests ------------------------------------------------------------------------------

export const signatureMethods = ['sms_code', 'acceptance'] as const;
export const signatureMethodSchema = z.enum(signatureMethods);
/** pending: sent, not opened; opened: the signer saw the page; the rest say themselves. */
export const signatureStatuses = ['pending', 'opened', 'signed', 'expired', 'cancelled'] as const;
export const signatureStatusSchema = z.enum(signatureStatuses);
export type SignatureStatus = z.infer<typeof signatureStatusSchema>;

export const signatureRequestCreateSchema = z.strictObject({
  /** The unguessable key of the signing link; omitted: the portal makes one. */
  documentKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,200}$/, 'expected 16 to 200 characters of A-Z a-z 0-9 _ -')
    .optional(),
  contactId: importIdSchema,
  documentName: z.string().trim().min(1).max(200),
  /** A PDF: `{uploadId}` of an earlier upload or inline `{name, contentType, base64}`. */
  file: entityFileInputSchema,
  /** sms_code: a code sent to the contact's phone; acceptance: a tick and the typed name. */
  method: signatureMethodSchema,
  /** In the future; null or absent: no expiry. */
  expiresAt: dateTimeInput.nullish(),
});
export type SignatureRequestCreate = z.infer<typeof signatureRequestCreateSchema>;

export const signatureRequestSchema = z.object({
  documentKey: z.string(),
  companyId: z.number().int(),
  contactId: z.number().int(),
  contactName: z.string(),
  documentName: z.string(),
  method: signatureMethodSchema,
  status: signatureStatusSchema,
  createdAt: isoDateTime.nullable(),
  openedAt: isoDateTime.nullable(),
  signedAt: isoDateTime.nullable(),
  cancelledAt: isoDateTime.nullable(),
  expiresAt: isoDateTime.nullable(),
  file: entityFileSchema,
  /** The signed PDF with its audit page, once signed. */
  signedFile: entityFileSchema.nullable(),
  /** The signing page the contact is sent to. */
  link: z.string(),
});
export type SignatureRequestEntity = z.infer<typeof signatureRequestSchema>;

export const signatureTimelineEntrySchema = z.object({
  /** created, sent_email, sent_sms, opened, otp_sent, otp_failed, signed, cancelled. */
  event: z.string(),
  at: isoDateTime,
  /** E.g. the masked phone an SMS went to. */
  detail: z.string().nullable(),
});
export const signatureRequestDetailSchema = signatureRequestSchema.extend({
  timeline: z.array(signatureTimelineEntrySchema),
});
export type SignatureRequestDetail = z.infer<typeof signatureRequestDetailSchema>;

export const SIGNATURE_PAGE_MAX = 100;
export const signatureListQuerySchema = z.object({
  status: signatureStatusSchema.optional(),
  companyId: extIdParam.optional(),
  contactId: extIdParam.optional(),
  /** A request's row id. */
  cursor: cursorText(BigInt(INT4_MAX)).optional(),
  limit: z.coerce.number().int().min(1).max(SIGNATURE_PAGE_MAX).default(50),
});
export type SignatureListQuery = z.input<typeof signatureListQuerySchema>;
export type SignatureListFilter = z.output<typeof signatureListQuerySchema>;
export const signaturePageSchema = z.object({
  items: z.array(signatureRequestSchema),
  nextCursor: z.string().nullable(),
});
export type SignaturePage = z.infer<typeof signaturePageSchema>;

const documentKeyParam = z.object({ documentkey: z.string().min(1).max(200) });

// ---- routes (see route.ts) -----------------------------------------------------------------------

function signatureRoutesUnder<
  const Root extends string,
  const R extends Access,
  const W extends Access,
  P extends z.ZodObject,
>(root: Root, read: R, write: W, params: P, tag: string) {
  const one = params.extend(documentKeyParam.shape);
  const tags = [tag] as const;
  return {
    createSignatureRequest: defineRoute({
      method: 'POST',
      path: `${root}/signature-requests`,
      params,
      body: signatureRequestCreateSchema,
      // Inline base64 PDFs: the schema's own bound; the caller is checked before the body is read.
      bodyLimit: 72 * 1024 * 1024,
      responses: { 201: signatureRequestSchema, 409: errorSchema, 422: errorSchema },
      access: write,
      tags,
      summary: 'Ask a contact to sign a PDF: the link goes out by e-mail, and by SMS when it has a phone',
      description:
        "The e-mail goes to the contact's users (branded, in each user's language, unless they turned " +
        "signature notices off); the SMS to the contact's phone. 422 `not_a_pdf`, `expiry_in_past`, " +
        '`unknown_reference` (contact), `upload_not_found`, `contact_without_phone` (sms_code); 409 `entity_exists` for a taken ' +
        '`documentKey`; 413 above MAX_UPLOAD_MB. Emits `signature.requested`.',
    }),
    signatureRequests: defineRoute({
      method: 'GET',
      path: `${root}/signature-requests`,
      params,
      query: signatureListQuerySchema,
      responses: { 200: signaturePageSchema },
      access: read,
      tags,
      summary: 'Signature requests, newest first, by status, company or contact; keyset pages',
    }),
    signatureRequest: defineRoute({
      method: 'GET',
      path: `${root}/signature-requests/:documentkey`,
      params: one,
      responses: { 200: signatureRequestDetailSchema, 404: errorSchema },
      access: read,
      tags,
      summary: 'A signature request with its timeline (sent, opened, codes, signed)',
    }),
    cancelSignatureRequest: defineRoute({
      method: 'POST',
      path: `${root}/signature-requests/:documentkey/cancel`,
      params: one,
      responses: { 200: signatureRequestSchema, 404: errorSchema, 409: errorSchema },
      access: write,
      tags,
      summary: 'Cancel an open request: its link stops working',
      description: '409 `signature_closed` once signed or cancelled. Emits `signature.cancelled`.',
    }),
    signedPdf: defineRoute({
      method: 'GET',
      path: `${root}/signature-requests/:documentkey/signed.pdf`,
      params: one,
      responses: {
        200: binaryAnswer('The signed PDF with its audit page (a download)', 'application/pdf'),
        404: errorSchema,
      },
      access: read,
      tags,
      summary: 'The signed PDF with its audit page; 404 `not_signed` before it is signed',
    }),
  };
}

const staffAdmin = { guard: 'staff', role: 'admin' } as const;

export const signatureKeyRoutes = signatureRoutesUnder(
  '/api/integration/v1',
  { guard: 'apiKey', scope: 'read' },
  { guard: 'apiKey', scope: 'write' },
  z.object({}),
  'integration: signature requests',
);
export const signatureStaffRoutes = signatureRoutesUnder(
  '/api/staff/portals/:company/admin',
  staffAdmin,
  staffAdmin,
  staffPortalParamsSchema,
  'staff: admin',
);

export const contentStaffRoutes = {
  companies: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/admin/content/companies',
    params: staffPortalParamsSchema,
    query: contentCompaniesQuerySchema,
    responses: { 200: z.array(contentCompanySchema) },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: 'Companies by name or id (the first 20), for the content pickers',
  }),
  contacts: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/admin/content/companies/:id/contacts',
    params: contentCompanyParamsSchema,
    responses: { 200: z.array(contentContactSchema), 404: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: "The company's contacts (the first 500 by name), for the content pickers",
  }),
  items: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/admin/content/companies/:id/items',
    params: contentCompanyParamsSchema,
    query: contentListQuerySchema,
    responses: { 200: contentPageSchema, 404: errorSchema },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: "A company's invoices, estimates, documents or activity reports, newest id first; keyset",
  }),
  publicFiles: defineRoute({
    method: 'GET',
    path: '/api/staff/portals/:company/admin/content/public-files',
    params: staffPortalParamsSchema,
    responses: { 200: z.object({ items: z.array(publicFileEntitySchema) }) },
    access: staffAdmin,
    tags: ['staff: admin'],
    summary: `The portal's public files by name (at most ${PUBLIC_FILES_MAX}); each changes through \`…/admin/public-files\``,
  }),
};
