/** SQL of contact documents and public files: one statement per list. */
import { sql } from 'drizzle-orm';
import { documents } from '../../db/schema';
import { isoText, queryJsonList, type Queryable } from '../../platform/sql-json';

export interface RawDocument {
  id: number;
  documentName: string;
  createDate: string;
  fileId: number;
  fileName: string;
  contentType: string;
}

/** The contact's own documents, newest first. */
export function listContactDocuments(
  db: Queryable,
  s: { portalId: number; contactId: number },
): Promise<RawDocument[]> {
  return queryJsonList<RawDocument>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', d.ext_id, 'documentName', d.document_name, 'createDate', ${sql.raw(isoText('d.create_date'))},
        'fileId', f.id, 'fileName', f.name, 'contentType', f.content_type
      ) order by d.create_date desc, d.ext_id desc), '[]'::json) as items
      from documents d join files f on f.id = d.file_id
      where d.portal_id = ${s.portalId} and d.contact_id = ${s.contactId}`,
  );
}

export async function insertDocument(tx: Queryable, v: typeof documents.$inferInsert): Promise<number> {
  const r = await tx.insert(documents).values(v).returning({ id: documents.id });
  return r[0]!.id;
}

export interface RawPublicFile {
  id: number;
  fileName: string;
  fileId: number;
  name: string;
  contentType: string;
}

export function listPublicFiles(db: Queryable, portalId: number): Promise<RawPublicFile[]> {
  return queryJsonList<RawPublicFile>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', pf.ext_id, 'fileName', pf.file_name, 'fileId', f.id, 'name', f.name, 'contentType', f.content_type
      ) order by lower(pf.file_name), pf.ext_id), '[]'::json) as items
      from public_files pf join files f on f.id = pf.file_id
      where pf.portal_id = ${portalId}`,
  );
}
