/**
 * Contracts of a company: activity contracts (hours or units) with their activities, and service
 * contracts with their tags, wiki elements, documents and packages (each package with its activities).
 */
import { inArray, sql } from 'drizzle-orm';
import type { ImportContractActivity } from '@sportello/contracts';
import {
  activityContracts,
  contractActivities,
  serviceContractDocuments,
  serviceContractPackages,
  serviceContracts,
  serviceContractTags,
  serviceContractWikiElements,
} from '../../../db/schema';
import { chunk } from '../import.files';
import {
  BATCH,
  updateChanged,
  pairKey,
  selectIn,
  syncChildren,
  upsertByExtId,
  type CompanyItem,
  type Owned,
  type PortalScope,
} from './support';

type ServiceContract = CompanyItem<'serviceContracts'>;

export async function writeActivityContracts(
  s: PortalScope,
  rows: Owned<CompanyItem<'activityContracts'>>[],
): Promise<void> {
  if (rows.length === 0) return;
  await upsertByExtId(
    s,
    activityContracts,
    ['companyId', 'name', 'start', 'end', 'contractType', 'hoursAmount', 'unitAmount'],
    rows.map(({ companyId, item: a }) => ({
      portalId: s.portalId,
      companyId,
      extId: a.id,
      name: a.name,
      start: s.at(a.start),
      end: s.atOrNull(a.end),
      contractType: a.activityContractType,
      hoursAmount: a.hoursAmount ?? null,
      unitAmount: a.unitAmount ?? null,
    })),
    s.ids.activityContracts,
  );
  await syncActivities(
    s,
    'activityContractId',
    rows.map(({ item: a }) => ({
      parentId: s.ids.activityContracts.must(a.id),
      activities: a.activities ?? [],
    })),
  );
}

export async function writeServiceContracts(s: PortalScope, rows: Owned<ServiceContract>[]): Promise<void> {
  if (rows.length === 0) return;
  const { ids } = s;
  await ids.tags.ensure(rows.flatMap(({ item }) => item.tagIds ?? []));
  await ids.wikiElements.ensure(rows.flatMap(({ item }) => item.wikiElementIds ?? []));
  await upsertByExtId(
    s,
    serviceContracts,
    ['companyId', 'name', 'status', 'activeFrom', 'activeTo'],
    rows.map(({ companyId, item: c }) => ({
      portalId: s.portalId,
      companyId,
      extId: c.id,
      name: c.name,
      status: c.status,
      activeFrom: s.at(c.activeFrom),
      activeTo: s.atOrNull(c.activeTo),
    })),
    ids.serviceContracts,
  );
  const list = rows.map((r) => r.item);
  const parents = list.map((c) => ids.serviceContracts.must(c.id));
  await syncLinks(
    s,
    serviceContractTags,
    parents,
    list.flatMap((c) =>
      (c.tagIds ?? []).map((t): [number, number] => [ids.serviceContracts.must(c.id), ids.tags.must(t)]),
    ),
  );
  await syncLinks(
    s,
    serviceContractWikiElements,
    parents,
    list.flatMap((c) =>
      (c.wikiElementIds ?? []).map((e): [number, number] => [
        ids.serviceContracts.must(c.id),
        ids.wikiElements.must(e),
      ]),
    ),
  );
  await syncServiceDocuments(s, list, parents);
  await syncPackages(s, list, parents);
}

/** The (contract, other) pairs of a link table set to the wanted ones: stale deleted, missing inserted. */
async function syncLinks(
  s: PortalScope,
  table: typeof serviceContractTags | typeof serviceContractWikiElements,
  parents: number[],
  wanted: [number, number][],
): Promise<void> {
  const otherCol =
    table === serviceContractTags ? serviceContractTags.tagId : serviceContractWikiElements.wikiElementId;
  const other = table === serviceContractTags ? 'tagId' : 'wikiElementId';
  const existing = await selectIn(parents, (part) =>
    s.tx
      .select({ sc: table.serviceContractId, other: otherCol })
      .from(table)
      .where(inArray(table.serviceContractId, part)),
  );
  const want = new Set(wanted.map(([a, b]) => pairKey(a, b)));
  const have = new Set(existing.map((e) => pairKey(e.sc, e.other)));
  const stale = existing.filter((e) => !want.has(pairKey(e.sc, e.other)));
  for (const part of chunk(stale, BATCH)) {
    await s.tx.execute(
      sql`delete from ${table} where (${table.serviceContractId}, ${otherCol}) in (${sql.join(
        part.map((e) => sql`(${e.sc}::int, ${e.other}::int)`),
        sql`, `,
      )})`,
    );
  }
  const fresh = [...new Map(wanted.map((p) => [pairKey(...p), p])).values()].filter(
    ([a, b]) => !have.has(pairKey(a, b)),
  );
  for (const part of chunk(fresh, BATCH)) {
    await s.tx
      .insert(table)
      .values(part.map(([serviceContractId, o]) => ({ serviceContractId, [other]: o }) as never))
      .onConflictDoNothing();
  }
}

async function syncServiceDocuments(s: PortalScope, list: ServiceContract[], parents: number[]) {
  const keys = ['serviceContractId', 'extId', 'documentName', 'fileId'] as const;
  await syncChildren({
    existing: await selectIn(parents, (part) =>
      s.tx
        .select({
          id: serviceContractDocuments.id,
          parent: serviceContractDocuments.serviceContractId,
          ext: serviceContractDocuments.extId,
        })
        .from(serviceContractDocuments)
        .where(inArray(serviceContractDocuments.serviceContractId, part))
        .orderBy(serviceContractDocuments.id),
    ),
    desired: list.flatMap((c) => {
      const serviceContractId = s.ids.serviceContracts.must(c.id);
      return (c.documents ?? []).map((d) => ({
        key: pairKey(serviceContractId, d.id),
        row: { serviceContractId, extId: d.id, documentName: d.documentName, fileId: s.fileId(d.file) },
      }));
    }),
    update: (part) => updateChanged(s.tx, serviceContractDocuments, keys, part),
    insert: (part) =>
      s.tx.insert(serviceContractDocuments).values(part).returning({
        id: serviceContractDocuments.id,
        parent: serviceContractDocuments.serviceContractId,
        ext: serviceContractDocuments.extId,
      }),
    remove: (ids) => s.tx.delete(serviceContractDocuments).where(inArray(serviceContractDocuments.id, ids)),
  });
}

async function syncPackages(s: PortalScope, list: ServiceContract[], parents: number[]) {
  const keys = ['serviceContractId', 'extId', 'position', 'name', 'unitsText', 'residualText'] as const;
  const packageIds = await syncChildren({
    existing: await selectIn(parents, (part) =>
      s.tx
        .select({
          id: serviceContractPackages.id,
          parent: serviceContractPackages.serviceContractId,
          ext: serviceContractPackages.extId,
        })
        .from(serviceContractPackages)
        .where(inArray(serviceContractPackages.serviceContractId, part))
        .orderBy(serviceContractPackages.id),
    ),
    desired: list.flatMap((c) => {
      const serviceContractId = s.ids.serviceContracts.must(c.id);
      return (c.packages ?? []).map((pk, position) => ({
        key: pairKey(serviceContractId, pk.id),
        row: {
          serviceContractId,
          extId: pk.id,
          position,
          name: pk.name,
          unitsText: pk.unitsText ?? '',
          residualText: pk.residualText ?? '',
        },
      }));
    }),
    update: (part) => updateChanged(s.tx, serviceContractPackages, keys, part),
    insert: (part) =>
      s.tx.insert(serviceContractPackages).values(part).returning({
        id: serviceContractPackages.id,
        parent: serviceContractPackages.serviceContractId,
        ext: serviceContractPackages.extId,
      }),
    remove: (ids) => s.tx.delete(serviceContractPackages).where(inArray(serviceContractPackages.id, ids)),
  });
  await syncActivities(
    s,
    'packageId',
    list.flatMap((c) =>
      (c.packages ?? []).map((pk) => ({
        parentId: packageIds.get(pairKey(s.ids.serviceContracts.must(c.id), pk.id)) as number,
        activities: pk.activities ?? [],
      })),
    ),
  );
}

const ACTIVITY_KEYS = [
  'activityContractId',
  'packageId',
  'extId',
  'activityTypeName',
  'start',
  'durationMinutes',
  'units',
  'assignedUser',
  'addressType',
  'address',
  'reportFileId',
] as const;

/** The activities of activity contracts or of service packages, set to the document's lists. */
async function syncActivities(
  s: PortalScope,
  parentColumn: 'activityContractId' | 'packageId',
  parents: { parentId: number; activities: ImportContractActivity[] }[],
): Promise<void> {
  if (parents.length === 0) return;
  const col = contractActivities[parentColumn];
  await syncChildren({
    existing: await selectIn(
      parents.map((x) => x.parentId),
      (part) =>
        s.tx
          .select({ id: contractActivities.id, parent: col, ext: contractActivities.extId })
          .from(contractActivities)
          .where(inArray(col, part))
          .orderBy(contractActivities.id),
    ),
    desired: parents.flatMap(({ parentId, activities }) =>
      activities.map((a) => ({
        key: pairKey(parentId, a.id),
        row: {
          extId: a.id,
          activityTypeName: a.activityTypeName,
          start: s.at(a.start),
          durationMinutes: a.durationMinutes ?? 0,
          units: a.units ?? null,
          assignedUser: a.assignedUser ?? '',
          addressType: a.addressType ?? 0,
          address: a.activityLocation_Address ?? null,
          reportFileId: s.optionalFileId(a.report),
          activityContractId: parentColumn === 'activityContractId' ? parentId : null,
          packageId: parentColumn === 'packageId' ? parentId : null,
        },
      })),
    ),
    update: (part) => updateChanged(s.tx, contractActivities, ACTIVITY_KEYS, part),
    insert: (part) =>
      s.tx
        .insert(contractActivities)
        .values(part)
        .returning({ id: contractActivities.id, parent: col, ext: contractActivities.extId }),
    remove: (ids) => s.tx.delete(contractActivities).where(inArray(contractActivities.id, ids)),
  });
}
