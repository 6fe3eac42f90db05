/** Files shown to contacts: a company's documents and the portal's public files. */
import { documents, publicFiles } from '../../../db/schema';
import {
  onlyChanged,
  upsertByExtId,
  type CompanyItem,
  type Owned,
  type PortalItem,
  type PortalScope,
} from './support';

export async function writeDocuments(s: PortalScope, rows: Owned<CompanyItem<'documents'>>[]): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.contacts.ensure(rows.map(({ item }) => item.contactId));
  await upsertByExtId(
    rows.map(({ companyId, item: d }) => ({
      portalId: s.portalId,
      companyId,
      contactId: s.ids.contacts.must(d.contactId),
      extId: d.id,
      documentName: d.documentName,
      createDate: s.at(d.createDate),
      fileId: s.fileId(d.file),
    })),
    undefined,
    (part) =>
      s.tx
        .insert(documents)
        .values(part)
        .onConflictDoUpdate({
          target: [documents.portalId, documents.extId],
          ...onlyChanged(documents, ['companyId', 'contactId', 'documentName', 'createDate', 'fileId']),
        })
        .returning({ id: documents.id, extId: documents.extId }),
  );
}

export async function writePublicFiles(s: PortalScope, rows: PortalItem<'publicFiles'>[]): Promise<void> {
  await upsertByExtId(
    rows.map((f) => ({ portalId: s.portalId, extId: f.id, fileName: f.fileName, fileId: s.fileId(f.file) })),
    undefined,
    (part) =>
      s.tx
        .insert(publicFiles)
        .values(part)
        .onConflictDoUpdate({
          target: [publicFiles.portalId, publicFiles.extId],
          ...onlyChanged(publicFiles, ['fileName', 'fileId']),
        })
        .returning({ id: publicFiles.id, extId: publicFiles.extId }),
  );
}
