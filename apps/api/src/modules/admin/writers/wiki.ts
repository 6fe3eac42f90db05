/** The asset knowledge base: folders, elements, and each element's properties. */
import { inArray } from 'drizzle-orm';
import { wikiElements, wikiFolders, wikiProperties } from '../../../db/schema';
import {
  updateChanged,
  pairKey,
  selectIn,
  syncChildren,
  upsertByExtId,
  type CompanyItem,
  type Owned,
  type PortalScope,
} from './support';

type WikiFolder = CompanyItem<'wikiFolders'>;
export type WikiElement = NonNullable<WikiFolder['elements']>[number];

/** The folders' own rows (their elements are written by `writeWikiElements`). */
export async function writeWikiFolders(s: PortalScope, rows: Owned<WikiFolder>[]): Promise<void> {
  await upsertByExtId(
    s,
    wikiFolders,
    ['companyId', 'name'],
    rows.map(({ companyId, item: f }) => ({ portalId: s.portalId, companyId, extId: f.id, name: f.name })),
    s.ids.wikiFolders,
  );
}

/** Elements of folders (by the folder's ext id), each with exactly the document's list of properties. */
export async function writeWikiElements(
  s: PortalScope,
  rows: (Owned<WikiElement> & { folderExtId: number })[],
): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.wikiFolders.ensure(rows.map((r) => r.folderExtId));
  await upsertByExtId(
    s,
    wikiElements,
    ['companyId', 'folderId', 'name'],
    rows.map(({ companyId, folderExtId, item: e }) => ({
      portalId: s.portalId,
      companyId,
      folderId: s.ids.wikiFolders.must(folderExtId),
      extId: e.id,
      name: e.name,
    })),
    s.ids.wikiElements,
  );
  await syncWikiProperties(
    s,
    rows.map(({ item }) => item),
  );
}

async function syncWikiProperties(s: PortalScope, elements: WikiElement[]): Promise<void> {
  const parents = elements.map((e) => s.ids.wikiElements.must(e.id));
  const keys = ['elementId', 'extId', 'position', 'typologyName', 'dataType', 'value', 'fileId'] as const;
  await syncChildren({
    existing: await selectIn(parents, (part) =>
      s.tx
        .select({ id: wikiProperties.id, parent: wikiProperties.elementId, ext: wikiProperties.extId })
        .from(wikiProperties)
        .where(inArray(wikiProperties.elementId, part))
        .orderBy(wikiProperties.id),
    ),
    desired: elements.flatMap((e) => {
      const elementId = s.ids.wikiElements.must(e.id);
      return (e.properties ?? []).map((prop, position) => ({
        key: pairKey(elementId, prop.id),
        row: {
          elementId,
          extId: prop.id,
          position,
          typologyName: prop.typologyName,
          dataType: prop.dataType,
          value: prop.value == null || prop.dataType === 'file' ? null : String(prop.value),
          fileId: prop.dataType === 'file' ? s.optionalFileId(prop.file) : null,
        },
      }));
    }),
    update: (part) => updateChanged(s.tx, wikiProperties, keys, part),
    insert: (part) =>
      s.tx.insert(wikiProperties).values(part).returning({
        id: wikiProperties.id,
        parent: wikiProperties.elementId,
        ext: wikiProperties.extId,
      }),
    remove: (ids) => s.tx.delete(wikiProperties).where(inArray(wikiProperties.id, ids)),
  });
}
