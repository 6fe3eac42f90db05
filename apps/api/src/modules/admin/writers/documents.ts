/** Files shown to contacts: a company's documents and the portal's public files. */
import { documents, publicFiles } from '../../../db/schema';
import { upsertByExtId, type CompanyItem, type Owned, type PortalItem, type PortalScope } from './support';

export async function writeDocuments(s: PortalScope, rows: Owned<CompanyItem<'documents'>>[]): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.contacts.ensure(rows.map(({ item }) => item.contactId));
  await upsertByExtId(
    s,
    documents,
    ['companyId', 'contactId', 'documentName', 'createDate', 'fileId'],
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
  );
}

export async function writePublicFiles(s: PortalScope, rows: PortalItem<'publicFiles'>[]): Promise<void> {
  await upsertByExtId(
    s,
    publicFiles,
    ['fileName', 'fileId'],
    rows.map((f) => ({ portalId: s.portalId, extId: f.id, fileName: f.fileName, fileId: s.fileId(f.file) })),
    undefined,
  );
}
