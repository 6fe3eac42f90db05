import {
  contactDocumentListSchema,
  errorSchema,
  portalParamsSchema,
  publicFileListSchema,
  tenantParams,
  uploadResultSchema,
} from '@sportello/contracts';
import { guard } from '../../platform/access';
import type { App, AppContext } from '../../platform/context';
import { contactDocuments, publicFiles, uploadContactDocument } from './documents.service';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

export function registerDocumentsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/api/:company/:contactid/documents',
    {
      schema: {
        tags: ['documents'],
        summary: "The contact's own documents, newest first",
        params: tenantParams,
        response: { 200: contactDocumentListSchema, ...errors },
      },
    },
    async (req) => {
      const t = await guard(req, ctx, 'GET /api/:company/:contactid/documents');
      return contactDocuments(ctx, t);
    },
  );

  app.post(
    '/api/:company/:contactid/documents/upload/contact',
    {
      schema: {
        tags: ['documents'],
        summary: "Upload one of the contact's documents (answers the new document's id and URL)",
        description:
          'multipart/form-data with one field `file` (at most MAX_UPLOAD_MB, else 413 and nothing is kept).',
        consumes: ['multipart/form-data'],
        params: tenantParams,
        response: { 201: uploadResultSchema, ...errors, 413: errorSchema },
      },
    },
    async (req, reply) => {
      const t = await guard(req, ctx, 'POST /api/:company/:contactid/documents/upload/contact');
      return reply.code(201).send(await uploadContactDocument(req, ctx, t));
    },
  );

  app.get(
    '/api/settings/:company/publicfiles',
    {
      schema: {
        tags: ['documents'],
        summary: "The portal's public files (any signed-in user holding a contact of the portal)",
        params: portalParamsSchema,
        response: { 200: publicFileListSchema, ...errors },
      },
    },
    async (req) => {
      const p = await guard(req, ctx, 'GET /api/settings/:company/publicfiles');
      return publicFiles(ctx, p.portalId);
    },
  );
}
