import type { WikiElement, WikiQuery } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import type { TenantContext } from '../../platform/tenancy';
import { listWikiElements } from './wiki.queries';

/** The company's wiki elements (by folder, then name); `filter` matches names, case-insensitively. */
export async function wikiElements(ctx: AppContext, t: TenantContext, q: WikiQuery): Promise<WikiElement[]> {
  // PostgreSQL text cannot hold NUL.
  const filter = (q.filter ?? '').replaceAll('\u0000', '').trim();
  const rows = await listWikiElements(ctx.database.db, {
    portalId: t.portalId,
    companyId: t.companyId,
    nameFilter: filter === '' ? null : filter,
  });
  const now = ctx.clock.now();
  return rows.map((e) => ({
    id: e.id,
    name: e.name,
    wikiFolderId: e.wikiFolderId,
    folderName: e.folderName,
    properties: e.properties.map((p) => ({
      id: p.id,
      typologyName: p.typologyName,
      dataType: p.dataType,
      value: p.value ?? (p.dataType === 'file' ? p.fileName : null),
      url:
        p.dataType === 'file' && p.fileId !== null
          ? ctx.signer.sign(p.fileId, p.fileName ?? 'file', now, { bind: t })
          : null,
    })),
    contracts: e.contracts.map((c) => ({ id: c.id, name: c.name })),
  }));
}
