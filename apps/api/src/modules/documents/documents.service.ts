import type { ContactDocument, PublicFile, UploadResult } from '@sportello/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context';
import { contactSource, emitDocumentEvent } from '../../platform/events';
import type { TenantContext } from '../../platform/tenancy';
import { reserveExtIds } from '../../platform/portal-sequences';
import { insertDocument, listContactDocuments, listPublicFiles } from './documents.queries';
import { receiveUpload } from '../../platform/uploads';

export async function contactDocuments(ctx: AppContext, t: TenantContext): Promise<ContactDocument[]> {
  const rows = await listContactDocuments(ctx.database.db, { portalId: t.portalId, contactId: t.contactId });
  const now = ctx.clock.now();
  return rows.map((d) => ({
    id: d.id,
    documentName: d.documentName,
    createDate: d.createDate,
    url: ctx.signer.sign(d.fileId, d.fileName, now, { bind: t }),
    fileName: d.fileName,
    contentType: d.contentType,
  }));
}

/** Stores the file and the contact's document row in one transaction; answers the document id. */
export async function uploadContactDocument(
  req: FastifyRequest,
  ctx: AppContext,
  t: TenantContext,
): Promise<UploadResult> {
  const now = ctx.clock.now();
  return receiveUpload(
    req,
    ctx,
    t,
    async (tx, file) => {
      const extId = await reserveExtIds(tx, t.portalId, 'document_seq');
      const documentId = await insertDocument(tx, {
        portalId: t.portalId,
        companyId: t.companyId,
        contactId: t.contactId,
        extId,
        documentName: file.name,
        createDate: now,
        fileId: file.id,
      });
      await emitDocumentEvent(tx, ctx, documentId, contactSource(t));
      return { id: extId, url: ctx.signer.sign(file.id, file.name, now, { bind: t }) };
    },
    { attachNow: true },
  );
}

export async function publicFiles(ctx: AppContext, portalId: number): Promise<PublicFile[]> {
  const rows = await listPublicFiles(ctx.database.db, portalId);
  const now = ctx.clock.now();
  return rows.map((f) => ({
    id: f.id,
    fileName: f.fileName,
    url: ctx.signer.sign(f.fileId, f.name, now),
    contentType: f.contentType,
  }));
}
