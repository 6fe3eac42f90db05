/**
 * The SQL of the import: what the database already holds (for the checks of a merge), and the writing
 * of one portal, kind by kind, with the writers of `writers/` (one per kind of entity, each taking the
 * portal's scope and the rows of its kind, so a change of one entity can call the same writer for one
 * row). Every writer upserts by the back office's ids and writes a row only when a value differs;
 * inline children are matched by (parent, ext id), updated in place, inserted or deleted, so a
 * re-import keeps every row (and its internal id) exactly as it was, and of unchanged data writes none.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { ImportCompany, ImportPortal } from '@sportello/contracts';
import type { Db, Tx } from '../../db/client';
import {
  agents,
  assigneeGroups,
  companies,
  contacts,
  portals,
  statusSteps,
  tags,
  tickets,
  ticketTypes,
  wikiElements,
} from '../../db/schema';
import { chunk, portalFileRefs, type ImportFiles } from './import.files';
import type { DocumentHtml } from './import.html';
import { emptyKnownPortal, type KnownPortal } from './import.validate';
import { writeActivityContracts, writeServiceContracts } from './writers/contracts';
import { writeCompanies, writeContacts } from './writers/companies';
import { writeEstimates, writeInvoices, writeRecurringAdvances } from './writers/billing';
import { writeDocuments, writePublicFiles } from './writers/documents';
import {
  advancePortalSequences,
  DEFAULT_TIME_ZONE,
  writeAgents,
  writeGroups,
  writePortalLogo,
  writePortalSettings,
  writeStatusSteps,
  writeTags,
  writeTicketTypes,
} from './writers/portal';
import { writeAppointmentLinks, writeSignatureRequests, writeTaskLinks } from './writers/public-links';
import { writeActivityReports } from './writers/reports';
import { PortalScope, type Owned } from './writers/support';
import { writeTickets } from './writers/tickets';
import { writeWikiElements, writeWikiFolders } from './writers/wiki';

/**
 * What the database holds for these portals, for the referential checks of a merge. Of the tickets,
 * only those the document points to from elsewhere (`ticketIds`): the document's own tickets need none.
 */
export async function loadKnownPortals(
  db: Db,
  keys: string[],
  ticketIds: number[],
): Promise<Map<string, KnownPortal>> {
  const out = new Map<string, KnownPortal>();
  if (keys.length === 0) return out;
  const rows = await db
    .select({ id: portals.id, key: portals.key })
    .from(portals)
    .where(inArray(portals.key, keys));
  if (rows.length === 0) return out;
  const byId = new Map<number, KnownPortal>();
  for (const r of rows) {
    const k = emptyKnownPortal();
    out.set(r.key, k);
    byId.set(r.id, k);
  }
  const ids = rows.map((r) => r.id);
  const of = (portalId: number) => byId.get(portalId) as KnownPortal;
  for (const t of await db
    .select({ p: ticketTypes.portalId, ext: ticketTypes.extId })
    .from(ticketTypes)
    .where(inArray(ticketTypes.portalId, ids)))
    of(t.p).ticketTypes.add(t.ext);
  for (const s of await db
    .select({
      p: statusSteps.portalId,
      ext: statusSteps.extId,
      isDefault: statusSteps.isDefault,
      isClosing: statusSteps.isClosing,
    })
    .from(statusSteps)
    .where(inArray(statusSteps.portalId, ids)))
    of(s.p).statusSteps.set(s.ext, { isDefault: s.isDefault, isClosing: s.isClosing });
  for (const g of await db
    .select({ p: assigneeGroups.portalId, ext: assigneeGroups.extId })
    .from(assigneeGroups)
    .where(inArray(assigneeGroups.portalId, ids)))
    of(g.p).groups.add(g.ext);
  for (const a of await db
    .select({ p: agents.portalId, ext: agents.extId })
    .from(agents)
    .where(inArray(agents.portalId, ids)))
    of(a.p).agents.add(a.ext);
  for (const t of await db
    .select({ p: tags.portalId, ext: tags.extId })
    .from(tags)
    .where(inArray(tags.portalId, ids)))
    of(t.p).tags.add(t.ext);
  for (const c of await db
    .select({ p: contacts.portalId, ext: contacts.extId, company: companies.extId })
    .from(contacts)
    .innerJoin(companies, eq(companies.id, contacts.companyId))
    .where(inArray(contacts.portalId, ids)))
    of(c.p).contacts.set(c.ext, c.company);
  for (const e of await db
    .select({ p: wikiElements.portalId, ext: wikiElements.extId, company: companies.extId })
    .from(wikiElements)
    .innerJoin(companies, eq(companies.id, wikiElements.companyId))
    .where(inArray(wikiElements.portalId, ids)))
    of(e.p).wikiElements.set(e.ext, e.company);
  for (const part of chunk(ticketIds, 5000))
    for (const t of await db
      .select({ p: tickets.portalId, ext: tickets.extId, company: companies.extId })
      .from(tickets)
      .innerJoin(companies, eq(companies.id, tickets.companyId))
      .where(and(inArray(tickets.portalId, ids), inArray(tickets.extId, part))))
      of(t.p).tickets.set(t.ext, t.company);
  return out;
}

export interface PortalWrite {
  portalId: number;
}

/** Writes one validated portal with everything under it, in the order rows point to each other. */
export async function writePortal(
  tx: Tx,
  p: ImportPortal,
  files: ImportFiles,
  html: DocumentHtml,
  now: Date,
): Promise<PortalWrite> {
  const portalId = await writePortalSettings(tx, p, html.clean, now);
  await files.writeRows(tx, portalId, portalFileRefs(p), now);
  const s = new PortalScope(
    tx,
    portalId,
    p.timeZone ?? DEFAULT_TIME_ZONE,
    files,
    html.clean,
    now,
    html.fragment,
  );
  await writePortalLogo(s, p.logo);

  // Portal-wide lists.
  await writeTicketTypes(s, p.ticketTypes ?? []);
  await writeStatusSteps(s, p.statusSteps ?? []);
  await writeGroups(s, p.groups ?? []);
  await writeAgents(s, p.agents ?? []);
  await writeTags(s, p.tags ?? []);
  await writePublicFiles(s, p.publicFiles ?? []);

  // Companies and what each of them holds.
  const companyList = p.companies ?? [];
  await writeCompanies(s, companyList);
  const owned = <T>(pick: (c: ImportCompany) => T[] | null | undefined): Owned<T>[] =>
    companyList.flatMap((c) =>
      (pick(c) ?? []).map((item) => ({ companyId: s.ids.companies.must(c.id), item })),
    );
  await writeContacts(
    s,
    owned((c) => c.contacts),
  );
  const folders = owned((c) => c.wikiFolders);
  await writeWikiFolders(s, folders);
  await writeWikiElements(
    s,
    folders.flatMap(({ companyId, item: f }) =>
      (f.elements ?? []).map((item) => ({ companyId, folderExtId: f.id, item })),
    ),
  );
  await writeTickets(
    s,
    owned((c) => c.tickets),
  );
  await writeActivityReports(
    s,
    owned((c) => c.activityReports),
  );
  await writeActivityContracts(
    s,
    owned((c) => c.activityContracts),
  );
  await writeServiceContracts(
    s,
    owned((c) => c.serviceContracts),
  );
  await writeInvoices(
    s,
    owned((c) => c.invoices),
  );
  await writeEstimates(
    s,
    owned((c) => c.estimates),
  );
  await writeRecurringAdvances(
    s,
    owned((c) => c.recurringAdvances),
  );
  await writeDocuments(
    s,
    owned((c) => c.documents),
  );

  // Public capabilities: signing, appointments, task pages.
  await writeSignatureRequests(s, p.signatureRequests ?? []);
  await writeAppointmentLinks(s, p.appointmentLinks ?? []);
  await writeTaskLinks(s, p.taskLinks ?? []);

  await advancePortalSequences(s);
  return { portalId };
}
