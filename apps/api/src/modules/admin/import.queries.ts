/**
 * The SQL of the import: batched upserts keyed by the back office's ids within a portal. Inline children
 * (comments and their attachments, wiki properties, contract activities, packages, service-contract
 * documents and links) are synchronised: rows are matched by (parent, ext id) and updated in place,
 * new ones inserted and the ones the document no longer lists deleted, so a re-import keeps every row
 * (and its internal id) exactly as it was.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { permissionFlags, type ImportContractActivity, type ImportPortal } from '@sportello/contracts';
import type { Db, Tx } from '../../db/client';
import {
  activityContracts,
  activityReports,
  agents,
  appointmentLinks,
  assigneeGroups,
  companies,
  contacts,
  contractActivities,
  documents,
  estimates,
  invoices,
  portals,
  publicFiles,
  recurringAdvances,
  serviceContractDocuments,
  serviceContractPackages,
  serviceContracts,
  serviceContractTags,
  serviceContractWikiElements,
  signatureRequests,
  statusSteps,
  tags,
  taskLinks,
  ticketAttachments,
  ticketComments,
  tickets,
  ticketTypes,
  wikiElements,
  wikiFolders,
  wikiProperties,
} from '../../db/schema';
import { AppError } from '../../platform/errors';
import { chunk, portalFileRefs, type ImportFiles } from './import.files';
import type { CleanHtml } from './import.html';
import { emptyKnownPortal, type KnownPortal } from './import.validate';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DEFAULT_TIME_ZONE = 'Europe/Rome';
/** The back office's way of saying "no base colour". */
const BASE_COLOR_UNSET = /^hsl\(\s*123\s*,\s*0%\s*,\s*0%\s*\)$/i;
/** Rows per multi-row statement: well under PostgreSQL's 65,535 parameters for our widest table. */
const BATCH = 1000;

/** A day means midnight in the portal's zone; a date-time without an offset is the portal's local time. */
export function importDateToDate(value: string, timeZone: string): Date {
  const s = value.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return dayjs.tz(s, timeZone).toDate();
  if (/T.*(Z|[+-]\d{2}:?\d{2})$/.test(s)) return new Date(s);
  return dayjs.tz(s, timeZone).toDate();
}

/** `excluded.<column>` for each key: "take the document's value" in an upsert. */
function excluded<T extends PgTable>(table: T, keys: readonly (keyof T['$inferInsert'] & string)[]) {
  const cols = getTableColumns(table) as Record<string, { name: string }>;
  const set: Record<string, SQL> = {};
  for (const k of keys) {
    const col = cols[k];
    if (!col) throw new Error(`no column ${k}`);
    set[k] = sql.raw(`excluded."${col.name}"`);
  }
  return set;
}

async function batched<R, O>(rows: R[], run: (part: R[]) => Promise<O[]>): Promise<O[]> {
  const out: O[] = [];
  for (const part of chunk(rows, BATCH)) out.push(...(await run(part)));
  return out;
}

const concurrentChange = (what: string) =>
  new AppError(409, 'import_conflict', `${what} changed while importing; run the import again`);

/** ext id → internal id of one kind of row in one portal; looks up the database for ids not written now. */
class ExtIds {
  private readonly map = new Map<number, number>();
  constructor(
    private readonly what: string,
    private readonly load: (extIds: number[]) => Promise<{ id: number; extId: number }[]>,
  ) {}

  add(rows: { id: number; extId: number }[]): this {
    for (const r of rows) this.map.set(r.extId, r.id);
    return this;
  }

  async ensure(extIds: Iterable<number | null | undefined>): Promise<void> {
    const missing = [...new Set([...extIds].filter((x): x is number => x != null && !this.map.has(x)))];
    for (const part of chunk(missing, 5000)) this.add(await this.load(part));
  }

  get(extId: number | null | undefined): number | null {
    if (extId == null) return null;
    const id = this.map.get(extId);
    if (id === undefined) throw concurrentChange(`${this.what} ${extId}`);
    return id;
  }

  must(extId: number): number {
    return this.get(extId) as number;
  }
}

interface SyncPlan<R> {
  update: (R & { id: number })[];
  insert: R[];
  remove: number[];
}

/** Matches existing child rows to the document's by key: update in place, insert, or delete. */
function planSync<R>(
  existing: { id: number; key: string }[],
  desired: { key: string; row: R }[],
): SyncPlan<R> {
  const byKey = new Map<string, number>();
  const remove: number[] = [];
  for (const e of existing) {
    if (byKey.has(e.key)) remove.push(e.id);
    else byKey.set(e.key, e.id);
  }
  const used = new Set<number>();
  const update: (R & { id: number })[] = [];
  const insert: R[] = [];
  for (const d of desired) {
    const id = byKey.get(d.key);
    if (id !== undefined && !used.has(id)) {
      used.add(id);
      update.push({ ...d.row, id });
    } else insert.push(d.row);
  }
  for (const id of byKey.values()) if (!used.has(id)) remove.push(id);
  return { update, insert, remove };
}

const pairKey = (a: number, b: number) => `${a}:${b}`;

/** What the database holds for these portals, for the referential checks of a merge. */
export async function loadKnownPortals(db: Db, keys: string[]): Promise<Map<string, KnownPortal>> {
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
  for (const t of await db
    .select({ p: tickets.portalId, ext: tickets.extId, company: companies.extId })
    .from(tickets)
    .innerJoin(companies, eq(companies.id, tickets.companyId))
    .where(inArray(tickets.portalId, ids)))
    of(t.p).tickets.set(t.ext, t.company);
  return out;
}

export interface PortalWrite {
  portalId: number;
}

/** Writes one validated portal with everything under it. */
export async function writePortal(
  tx: Tx,
  p: ImportPortal,
  files: ImportFiles,
  clean: CleanHtml,
  now: Date,
): Promise<PortalWrite> {
  const tz = p.timeZone ?? DEFAULT_TIME_ZONE;
  const at = (s: string) => importDateToDate(s, tz);
  const atOrNull = (s: string | null | undefined) => (s ? at(s) : null);

  // The settings row; updated_at moves only when a setting really changed.
  const settingKeys = [
    'name',
    'baseColor',
    'customCss',
    'footerCustomHtml',
    'disableHtmlEditor',
    'enableServiceContracts',
    'privacyHtml',
    'timeZone',
    'defaultLanguage',
  ] as const;
  const cols = getTableColumns(portals);
  const current = sql.join(
    settingKeys.map((k) => sql`${cols[k]}`),
    sql`, `,
  );
  const incoming = sql.raw(settingKeys.map((k) => `excluded."${cols[k].name}"`).join(', '));
  const [portalRow] = await tx
    .insert(portals)
    .values({
      key: p.webPortalKey,
      name: p.webPortalName,
      baseColor: p.baseColor && !BASE_COLOR_UNSET.test(p.baseColor) ? p.baseColor : null,
      // Injected as a stylesheet: closing the <style> element is the one way out of it.
      customCss: (p.customCss ?? '').replace(/<\/style/gi, ''),
      footerCustomHtml: clean(p.footerCustomHtml),
      disableHtmlEditor: p.disableHtmlEditor ?? false,
      enableServiceContracts: p.enableServiceContracts ?? false,
      privacyHtml: clean(p.privacyHtml),
      timeZone: tz,
      defaultLanguage: p.defaultLanguage ?? 'it-IT',
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: portals.key,
      set: {
        ...excluded(portals, settingKeys),
        updatedAt: sql`case when (${current}) is distinct from (${incoming}) then excluded.updated_at else ${portals.updatedAt} end`,
      },
    })
    .returning({ id: portals.id });
  if (!portalRow) throw new Error('portal upsert returned nothing');
  const portalId = portalRow.id;

  await files.writeRows(tx, portalId, portalFileRefs(p), now);
  const logoId = files.optionalIdOf(portalId, p.logo);
  await tx
    .update(portals)
    .set({
      logoFileId: logoId,
      updatedAt: sql`case when ${portals.logoFileId} is distinct from ${logoId}::int then ${now.toISOString()}::timestamptz else ${portals.updatedAt} end`,
    })
    .where(eq(portals.id, portalId));

  // Portal-wide lists.
  if (p.ticketTypes?.length)
    await batched(
      p.ticketTypes.map((t) => ({ portalId, extId: t.id, name: t.name, color: t.color ?? null })),
      (part) =>
        tx
          .insert(ticketTypes)
          .values(part)
          .onConflictDoUpdate({
            target: [ticketTypes.portalId, ticketTypes.extId],
            set: excluded(ticketTypes, ['name', 'color']),
          })
          .returning({ id: ticketTypes.id }),
    );
  if (p.statusSteps?.length)
    await batched(
      p.statusSteps.map((s) => ({
        portalId,
        extId: s.id,
        name: s.name,
        taskStatus: s.taskStatus,
        isDefault: s.isDefault ?? false,
        isClosing: s.isClosing ?? false,
      })),
      (part) =>
        tx
          .insert(statusSteps)
          .values(part)
          .onConflictDoUpdate({
            target: [statusSteps.portalId, statusSteps.extId],
            set: excluded(statusSteps, ['name', 'taskStatus', 'isDefault', 'isClosing']),
          })
          .returning({ id: statusSteps.id }),
    );
  if (p.groups?.length)
    await batched(
      p.groups.map((g) => ({ portalId, extId: g.id, name: g.name })),
      (part) =>
        tx
          .insert(assigneeGroups)
          .values(part)
          .onConflictDoUpdate({
            target: [assigneeGroups.portalId, assigneeGroups.extId],
            set: excluded(assigneeGroups, ['name']),
          })
          .returning({ id: assigneeGroups.id }),
    );
  if (p.agents?.length)
    await batched(
      p.agents.map((a) => ({
        portalId,
        extId: a.id,
        displayName: a.displayName,
        firstName: a.firstName ?? '',
        lastName: a.lastName ?? '',
        email: a.email ?? null,
        profileFileId: files.optionalIdOf(portalId, a.profileImage),
      })),
      (part) =>
        tx
          .insert(agents)
          .values(part)
          .onConflictDoUpdate({
            target: [agents.portalId, agents.extId],
            set: excluded(agents, ['displayName', 'firstName', 'lastName', 'email', 'profileFileId']),
          })
          .returning({ id: agents.id }),
    );
  if (p.tags?.length)
    await batched(
      p.tags.map((t) => ({ portalId, extId: t.id, name: t.name, tagGroupName: t.tagGroupName ?? '' })),
      (part) =>
        tx
          .insert(tags)
          .values(part)
          .onConflictDoUpdate({
            target: [tags.portalId, tags.extId],
            set: excluded(tags, ['name', 'tagGroupName']),
          })
          .returning({ id: tags.id }),
    );
  if (p.publicFiles?.length)
    await batched(
      p.publicFiles.map((f) => ({
        portalId,
        extId: f.id,
        fileName: f.fileName,
        fileId: files.idOf(portalId, f.file),
      })),
      (part) =>
        tx
          .insert(publicFiles)
          .values(part)
          .onConflictDoUpdate({
            target: [publicFiles.portalId, publicFiles.extId],
            set: excluded(publicFiles, ['fileName', 'fileId']),
          })
          .returning({ id: publicFiles.id }),
    );

  const all = async (
    table: typeof ticketTypes | typeof statusSteps | typeof assigneeGroups | typeof agents | typeof tags,
  ) => tx.select({ id: table.id, extId: table.extId }).from(table).where(eq(table.portalId, portalId));
  const noLoad = async () => [];
  const typeIds = new ExtIds('ticket type', noLoad).add(await all(ticketTypes));
  const stepIds = new ExtIds('status step', noLoad).add(await all(statusSteps));
  const groupIds = new ExtIds('group', noLoad).add(await all(assigneeGroups));
  const agentIds = new ExtIds('agent', noLoad).add(await all(agents));
  const tagIds = new ExtIds('tag', noLoad).add(await all(tags));
  const contactIds = new ExtIds('contact', (ext) =>
    tx
      .select({ id: contacts.id, extId: contacts.extId })
      .from(contacts)
      .where(and(eq(contacts.portalId, portalId), inArray(contacts.extId, ext))),
  );
  const elementIds = new ExtIds('wiki element', (ext) =>
    tx
      .select({ id: wikiElements.id, extId: wikiElements.extId })
      .from(wikiElements)
      .where(and(eq(wikiElements.portalId, portalId), inArray(wikiElements.extId, ext))),
  );
  const ticketIds = new ExtIds('ticket', (ext) =>
    tx
      .select({ id: tickets.id, extId: tickets.extId })
      .from(tickets)
      .where(and(eq(tickets.portalId, portalId), inArray(tickets.extId, ext))),
  );

  const companyList = p.companies ?? [];
  const companyIds = new ExtIds('company', noLoad);
  if (companyList.length)
    companyIds.add(
      await batched(
        companyList.map((c) => ({ portalId, extId: c.id, companyName: c.companyName })),
        (part) =>
          tx
            .insert(companies)
            .values(part)
            .onConflictDoUpdate({
              target: [companies.portalId, companies.extId],
              set: excluded(companies, ['companyName']),
            })
            .returning({ id: companies.id, extId: companies.extId }),
      ),
    );
  const perCompany = <T>(pick: (c: (typeof companyList)[number]) => T[] | null | undefined) =>
    companyList.flatMap((c) => (pick(c) ?? []).map((item) => ({ companyId: companyIds.must(c.id), item })));

  // Contacts.
  const contactRows = perCompany((c) => c.contacts).map(({ companyId, item: c }) => {
    const perms = c.permissions ?? {};
    const flags = Object.fromEntries(permissionFlags.map((f) => [f, perms[f] === true])) as Record<
      (typeof permissionFlags)[number],
      boolean
    >;
    return {
      portalId,
      companyId,
      extId: c.contactId,
      referentName: c.referentName,
      email: c.email ?? null,
      phone: c.phone ?? null,
      ...flags,
    };
  });
  if (contactRows.length)
    contactIds.add(
      await batched(contactRows, (part) =>
        tx
          .insert(contacts)
          .values(part)
          .onConflictDoUpdate({
            target: [contacts.portalId, contacts.extId],
            set: excluded(contacts, ['companyId', 'referentName', 'email', 'phone', ...permissionFlags]),
          })
          .returning({ id: contacts.id, extId: contacts.extId }),
      ),
    );

  // Wiki: folders, elements, and the elements' properties (replaced by the document's list).
  const folderList = perCompany((c) => c.wikiFolders);
  const folderIds = new ExtIds('wiki folder', noLoad);
  if (folderList.length)
    folderIds.add(
      await batched(
        folderList.map(({ companyId, item: f }) => ({ portalId, companyId, extId: f.id, name: f.name })),
        (part) =>
          tx
            .insert(wikiFolders)
            .values(part)
            .onConflictDoUpdate({
              target: [wikiFolders.portalId, wikiFolders.extId],
              set: excluded(wikiFolders, ['companyId', 'name']),
            })
            .returning({ id: wikiFolders.id, extId: wikiFolders.extId }),
      ),
    );
  const elementList = folderList.flatMap(({ companyId, item: f }) =>
    (f.elements ?? []).map((e) => ({ companyId, folderId: folderIds.must(f.id), e })),
  );
  if (elementList.length)
    elementIds.add(
      await batched(
        elementList.map(({ companyId, folderId, e }) => ({
          portalId,
          companyId,
          folderId,
          extId: e.id,
          name: e.name,
        })),
        (part) =>
          tx
            .insert(wikiElements)
            .values(part)
            .onConflictDoUpdate({
              target: [wikiElements.portalId, wikiElements.extId],
              set: excluded(wikiElements, ['companyId', 'folderId', 'name']),
            })
            .returning({ id: wikiElements.id, extId: wikiElements.extId }),
      ),
    );
  if (elementList.length) {
    const parents = elementList.map(({ e }) => elementIds.must(e.id));
    const existing = await selectIn(parents, (part) =>
      tx
        .select({ id: wikiProperties.id, parent: wikiProperties.elementId, ext: wikiProperties.extId })
        .from(wikiProperties)
        .where(inArray(wikiProperties.elementId, part))
        .orderBy(wikiProperties.id),
    );
    const desired = elementList.flatMap(({ e }) => {
      const elementId = elementIds.must(e.id);
      return (e.properties ?? []).map((prop, position) => ({
        key: pairKey(elementId, prop.id),
        row: {
          elementId,
          extId: prop.id,
          position,
          typologyName: prop.typologyName,
          dataType: prop.dataType,
          value: prop.value == null || prop.dataType === 'file' ? null : String(prop.value),
          fileId: prop.dataType === 'file' ? files.optionalIdOf(portalId, prop.file) : null,
        },
      }));
    });
    const plan = planSync(
      existing.map((e) => ({ id: e.id, key: pairKey(e.parent, e.ext) })),
      desired,
    );
    const keys = ['elementId', 'extId', 'position', 'typologyName', 'dataType', 'value', 'fileId'] as const;
    await batched(plan.update, (part) =>
      tx
        .insert(wikiProperties)
        .overridingSystemValue()
        .values(part)
        .onConflictDoUpdate({ target: wikiProperties.id, set: excluded(wikiProperties, keys) })
        .returning({ id: wikiProperties.id }),
    );
    await batched(plan.insert, (part) =>
      tx.insert(wikiProperties).values(part).returning({ id: wikiProperties.id }),
    );
    await deleteIds(plan.remove, (part) => tx.delete(wikiProperties).where(inArray(wikiProperties.id, part)));
  }

  // Tickets.
  const ticketList = perCompany((c) => c.tickets);
  await contactIds.ensure(
    ticketList.flatMap(({ item: t }) => [
      t.creatorContactId,
      ...(t.comments ?? []).map((c) => c.senderContactId),
    ]),
  );
  await elementIds.ensure(ticketList.map(({ item: t }) => t.wikiElementId));
  if (ticketList.length)
    ticketIds.add(
      await batched(
        ticketList.map(({ companyId, item: t }) => ({
          portalId,
          companyId,
          extId: t.id,
          title: t.title,
          description: clean(t.description),
          ticketNumber: t.ticketNumber ?? '',
          internalAnnualProgressive: t.internalAnnualProgressive ?? 0,
          createdOn: at(t.createdOn),
          typeId: typeIds.must(t.taskTypeId),
          statusStepId: stepIds.must(t.statusStepId),
          nextPlannedActivityInfo: t.nextPlannedActivityInfo ?? null,
          creatorContactId: contactIds.get(t.creatorContactId),
          assignedGroupId: groupIds.get(t.assignedGroupId),
          assignedUserId: agentIds.get(t.assignedUserId),
          wikiElementId: elementIds.get(t.wikiElementId),
        })),
        (part) =>
          tx
            .insert(tickets)
            .values(part)
            .onConflictDoUpdate({
              target: [tickets.portalId, tickets.extId],
              set: excluded(tickets, [
                'companyId',
                'title',
                'description',
                'ticketNumber',
                'internalAnnualProgressive',
                'createdOn',
                'typeId',
                'statusStepId',
                'nextPlannedActivityInfo',
                'creatorContactId',
                'assignedGroupId',
                'assignedUserId',
                'wikiElementId',
              ]),
            })
            .returning({ id: tickets.id, extId: tickets.extId }),
      ),
    );

  // Comments of the document's tickets: replaced by the document's list.
  if (ticketList.length) {
    const docTickets = ticketList.map(({ item: t }) => ticketIds.must(t.id));
    const comments = ticketList.flatMap(({ item: t }) =>
      (t.comments ?? []).map((c) => ({ ticketId: ticketIds.must(t.id), c })),
    );
    const commentIds = new ExtIds('comment', noLoad);
    if (comments.length)
      commentIds.add(
        await batched(
          comments.map(({ ticketId, c }) => ({
            portalId,
            ticketId,
            extId: c.id,
            message: clean(c.message),
            creationDate: at(c.creationDate),
            senderContactId: contactIds.get(c.senderContactId),
            senderAgentId: agentIds.get(c.senderAgentId),
          })),
          (part) =>
            tx
              .insert(ticketComments)
              .values(part)
              .onConflictDoUpdate({
                target: [ticketComments.portalId, ticketComments.extId],
                // sender_user_id stays: it is who wrote the comment from the portal ('you').
                set: excluded(ticketComments, [
                  'ticketId',
                  'message',
                  'creationDate',
                  'senderContactId',
                  'senderAgentId',
                ]),
              })
              .returning({ id: ticketComments.id, extId: ticketComments.extId }),
        ),
      );
    const kept = new Set(comments.map(({ c }) => commentIds.must(c.id)));
    const existingComments = await selectIn(docTickets, (part) =>
      tx.select({ id: ticketComments.id }).from(ticketComments).where(inArray(ticketComments.ticketId, part)),
    );
    await deleteIds(
      existingComments.filter((c) => !kept.has(c.id)).map((c) => c.id),
      (part) => tx.delete(ticketComments).where(inArray(ticketComments.id, part)),
    );

    // Attachments of those comments.
    const commentParents = [...kept];
    const existing = await selectIn(commentParents, (part) =>
      tx
        .select({
          id: ticketAttachments.id,
          parent: ticketAttachments.commentId,
          ext: ticketAttachments.extId,
        })
        .from(ticketAttachments)
        .where(inArray(ticketAttachments.commentId, part))
        .orderBy(ticketAttachments.id),
    );
    const desired = comments.flatMap(({ ticketId, c }) => {
      const commentId = commentIds.must(c.id);
      return (c.attachments ?? []).map((a) => ({
        key: pairKey(commentId, a.id),
        row: {
          portalId,
          ticketId,
          commentId,
          extId: a.id,
          name: a.name,
          fileId: files.idOf(portalId, a.file),
        },
      }));
    });
    const plan = planSync(
      existing.map((e) => ({ id: e.id, key: pairKey(e.parent ?? 0, e.ext) })),
      desired,
    );
    await batched(plan.update, (part) =>
      tx
        .insert(ticketAttachments)
        .overridingSystemValue()
        .values(part)
        .onConflictDoUpdate({
          target: ticketAttachments.id,
          set: excluded(ticketAttachments, ['ticketId', 'commentId', 'extId', 'name', 'fileId']),
        })
        .returning({ id: ticketAttachments.id }),
    );
    await batched(plan.insert, (part) =>
      tx.insert(ticketAttachments).values(part).returning({ id: ticketAttachments.id }),
    );
    await deleteIds(plan.remove, (part) =>
      tx.delete(ticketAttachments).where(inArray(ticketAttachments.id, part)),
    );
  }

  // Activity reports.
  const reportList = perCompany((c) => c.activityReports);
  await ticketIds.ensure(reportList.map(({ item }) => item.taskId));
  if (reportList.length)
    await batched(
      reportList.map(({ companyId, item: r }) => ({
        portalId,
        companyId,
        extId: r.id,
        name: r.name,
        dateTime: at(r.dateTime),
        ticketId: ticketIds.get(r.taskId),
        fileId: files.idOf(portalId, r.document),
      })),
      (part) =>
        tx
          .insert(activityReports)
          .values(part)
          .onConflictDoUpdate({
            target: [activityReports.portalId, activityReports.extId],
            set: excluded(activityReports, ['companyId', 'name', 'dateTime', 'ticketId', 'fileId']),
          })
          .returning({ id: activityReports.id }),
    );

  const activityRow = (a: ImportContractActivity) => ({
    extId: a.id,
    activityTypeName: a.activityTypeName,
    start: at(a.start),
    durationMinutes: a.durationMinutes ?? 0,
    units: a.units ?? null,
    assignedUser: a.assignedUser ?? '',
    addressType: a.addressType ?? 0,
    address: a.activityLocation_Address ?? null,
    reportFileId: files.optionalIdOf(portalId, a.report),
  });
  const activityKeys = [
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
  const syncActivities = async (
    parentColumn: 'activityContractId' | 'packageId',
    parents: { parentId: number; activities: ImportContractActivity[] }[],
  ) => {
    if (parents.length === 0) return;
    const col = contractActivities[parentColumn];
    const existing = await selectIn(
      parents.map((x) => x.parentId),
      (part) =>
        tx
          .select({ id: contractActivities.id, parent: col, ext: contractActivities.extId })
          .from(contractActivities)
          .where(inArray(col, part))
          .orderBy(contractActivities.id),
    );
    const desired = parents.flatMap(({ parentId, activities }) =>
      activities.map((a) => ({
        key: pairKey(parentId, a.id),
        row: {
          ...activityRow(a),
          activityContractId: parentColumn === 'activityContractId' ? parentId : null,
          packageId: parentColumn === 'packageId' ? parentId : null,
        },
      })),
    );
    const plan = planSync(
      existing.map((e) => ({ id: e.id, key: pairKey(e.parent ?? 0, e.ext) })),
      desired,
    );
    await batched(plan.update, (part) =>
      tx
        .insert(contractActivities)
        .overridingSystemValue()
        .values(part)
        .onConflictDoUpdate({
          target: contractActivities.id,
          set: excluded(contractActivities, activityKeys),
        })
        .returning({ id: contractActivities.id }),
    );
    await batched(plan.insert, (part) =>
      tx.insert(contractActivities).values(part).returning({ id: contractActivities.id }),
    );
    await deleteIds(plan.remove, (part) =>
      tx.delete(contractActivities).where(inArray(contractActivities.id, part)),
    );
  };

  // Activity contracts and their activities.
  const acList = perCompany((c) => c.activityContracts);
  if (acList.length) {
    const acIds = new ExtIds('activity contract', noLoad).add(
      await batched(
        acList.map(({ companyId, item: a }) => ({
          portalId,
          companyId,
          extId: a.id,
          name: a.name,
          start: at(a.start),
          end: atOrNull(a.end),
          contractType: a.activityContractType,
          hoursAmount: a.hoursAmount ?? null,
          unitAmount: a.unitAmount ?? null,
        })),
        (part) =>
          tx
            .insert(activityContracts)
            .values(part)
            .onConflictDoUpdate({
              target: [activityContracts.portalId, activityContracts.extId],
              set: excluded(activityContracts, [
                'companyId',
                'name',
                'start',
                'end',
                'contractType',
                'hoursAmount',
                'unitAmount',
              ]),
            })
            .returning({ id: activityContracts.id, extId: activityContracts.extId }),
      ),
    );
    await syncActivities(
      'activityContractId',
      acList.map(({ item: a }) => ({ parentId: acIds.must(a.id), activities: a.activities ?? [] })),
    );
  }

  // Service contracts: links, documents, packages and the packages' activities.
  const scList = perCompany((c) => c.serviceContracts);
  await elementIds.ensure(scList.flatMap(({ item }) => item.wikiElementIds ?? []));
  if (scList.length) {
    const scIds = new ExtIds('service contract', noLoad).add(
      await batched(
        scList.map(({ companyId, item: s }) => ({
          portalId,
          companyId,
          extId: s.id,
          name: s.name,
          status: s.status,
          activeFrom: at(s.activeFrom),
          activeTo: atOrNull(s.activeTo),
        })),
        (part) =>
          tx
            .insert(serviceContracts)
            .values(part)
            .onConflictDoUpdate({
              target: [serviceContracts.portalId, serviceContracts.extId],
              set: excluded(serviceContracts, ['companyId', 'name', 'status', 'activeFrom', 'activeTo']),
            })
            .returning({ id: serviceContracts.id, extId: serviceContracts.extId }),
      ),
    );
    const parents = scList.map(({ item }) => scIds.must(item.id));

    const syncPairs = async (
      table: typeof serviceContractTags | typeof serviceContractWikiElements,
      other: 'tagId' | 'wikiElementId',
      desiredPairs: [number, number][],
    ) => {
      const otherCol =
        table === serviceContractTags ? serviceContractTags.tagId : serviceContractWikiElements.wikiElementId;
      const existing = await selectIn(parents, (part) =>
        tx
          .select({ sc: table.serviceContractId, other: otherCol })
          .from(table)
          .where(inArray(table.serviceContractId, part)),
      );
      const want = new Set(desiredPairs.map(([a, b]) => pairKey(a, b)));
      const have = new Set(existing.map((e) => pairKey(e.sc, e.other)));
      const stale = existing.filter((e) => !want.has(pairKey(e.sc, e.other)));
      for (const part of chunk(stale, BATCH)) {
        await tx.execute(
          sql`delete from ${table} where (${table.serviceContractId}, ${otherCol}) in (${sql.join(
            part.map((e) => sql`(${e.sc}::int, ${e.other}::int)`),
            sql`, `,
          )})`,
        );
      }
      const fresh = [...new Map(desiredPairs.map((p) => [pairKey(...p), p])).values()].filter(
        ([a, b]) => !have.has(pairKey(a, b)),
      );
      for (const part of chunk(fresh, BATCH)) {
        await tx
          .insert(table)
          .values(part.map(([serviceContractId, o]) => ({ serviceContractId, [other]: o }) as never))
          .onConflictDoNothing();
      }
    };
    await syncPairs(
      serviceContractTags,
      'tagId',
      scList.flatMap(({ item }) =>
        (item.tagIds ?? []).map((t): [number, number] => [scIds.must(item.id), tagIds.must(t)]),
      ),
    );
    await syncPairs(
      serviceContractWikiElements,
      'wikiElementId',
      scList.flatMap(({ item }) =>
        (item.wikiElementIds ?? []).map((e): [number, number] => [scIds.must(item.id), elementIds.must(e)]),
      ),
    );

    {
      const existing = await selectIn(parents, (part) =>
        tx
          .select({
            id: serviceContractDocuments.id,
            parent: serviceContractDocuments.serviceContractId,
            ext: serviceContractDocuments.extId,
          })
          .from(serviceContractDocuments)
          .where(inArray(serviceContractDocuments.serviceContractId, part))
          .orderBy(serviceContractDocuments.id),
      );
      const desired = scList.flatMap(({ item }) => {
        const serviceContractId = scIds.must(item.id);
        return (item.documents ?? []).map((d) => ({
          key: pairKey(serviceContractId, d.id),
          row: {
            serviceContractId,
            extId: d.id,
            documentName: d.documentName,
            fileId: files.idOf(portalId, d.file),
          },
        }));
      });
      const plan = planSync(
        existing.map((e) => ({ id: e.id, key: pairKey(e.parent, e.ext) })),
        desired,
      );
      await batched(plan.update, (part) =>
        tx
          .insert(serviceContractDocuments)
          .overridingSystemValue()
          .values(part)
          .onConflictDoUpdate({
            target: serviceContractDocuments.id,
            set: excluded(serviceContractDocuments, ['serviceContractId', 'extId', 'documentName', 'fileId']),
          })
          .returning({ id: serviceContractDocuments.id }),
      );
      await batched(plan.insert, (part) =>
        tx.insert(serviceContractDocuments).values(part).returning({ id: serviceContractDocuments.id }),
      );
      await deleteIds(plan.remove, (part) =>
        tx.delete(serviceContractDocuments).where(inArray(serviceContractDocuments.id, part)),
      );
    }

    {
      const existing = await selectIn(parents, (part) =>
        tx
          .select({
            id: serviceContractPackages.id,
            parent: serviceContractPackages.serviceContractId,
            ext: serviceContractPackages.extId,
          })
          .from(serviceContractPackages)
          .where(inArray(serviceContractPackages.serviceContractId, part))
          .orderBy(serviceContractPackages.id),
      );
      const desired = scList.flatMap(({ item }) => {
        const serviceContractId = scIds.must(item.id);
        return (item.packages ?? []).map((pk, position) => ({
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
      });
      const plan = planSync(
        existing.map((e) => ({ id: e.id, key: pairKey(e.parent, e.ext) })),
        desired,
      );
      const packageIds = new Map<string, number>();
      for (const r of plan.update) packageIds.set(pairKey(r.serviceContractId, r.extId), r.id);
      await batched(plan.update, (part) =>
        tx
          .insert(serviceContractPackages)
          .overridingSystemValue()
          .values(part)
          .onConflictDoUpdate({
            target: serviceContractPackages.id,
            set: excluded(serviceContractPackages, [
              'serviceContractId',
              'extId',
              'position',
              'name',
              'unitsText',
              'residualText',
            ]),
          })
          .returning({ id: serviceContractPackages.id }),
      );
      const inserted = await batched(plan.insert, (part) =>
        tx.insert(serviceContractPackages).values(part).returning({
          id: serviceContractPackages.id,
          sc: serviceContractPackages.serviceContractId,
          ext: serviceContractPackages.extId,
        }),
      );
      for (const r of inserted) packageIds.set(pairKey(r.sc, r.ext), r.id);
      await deleteIds(plan.remove, (part) =>
        tx.delete(serviceContractPackages).where(inArray(serviceContractPackages.id, part)),
      );
      await syncActivities(
        'packageId',
        scList.flatMap(({ item }) =>
          (item.packages ?? []).map((pk) => ({
            parentId: packageIds.get(pairKey(scIds.must(item.id), pk.id)) as number,
            activities: pk.activities ?? [],
          })),
        ),
      );
    }
  }

  // Billing and documents.
  const invoiceList = perCompany((c) => c.invoices);
  if (invoiceList.length)
    await batched(
      invoiceList.map(({ companyId, item: i }) => ({
        portalId,
        companyId,
        extId: i.id,
        documentNumber: i.documentNumber,
        total: i.total,
        invoiceDate: at(i.invoiceDate),
        fileId: files.idOf(portalId, i.document),
      })),
      (part) =>
        tx
          .insert(invoices)
          .values(part)
          .onConflictDoUpdate({
            target: [invoices.portalId, invoices.extId],
            set: excluded(invoices, ['companyId', 'documentNumber', 'total', 'invoiceDate', 'fileId']),
          })
          .returning({ id: invoices.id }),
    );
  const estimateList = perCompany((c) => c.estimates);
  if (estimateList.length)
    await batched(
      estimateList.map(({ companyId, item: e }) => ({
        portalId,
        companyId,
        extId: e.id,
        estimateName: e.estimateName,
        estimateNumber: e.estimateNumber,
        revisionNumber: e.revisionNumber ?? 0,
        total: e.total,
        estimateCreationDate: at(e.estimateCreationDate),
        fileId: files.idOf(portalId, e.document),
      })),
      (part) =>
        tx
          .insert(estimates)
          .values(part)
          .onConflictDoUpdate({
            target: [estimates.portalId, estimates.extId],
            set: excluded(estimates, [
              'companyId',
              'estimateName',
              'estimateNumber',
              'revisionNumber',
              'total',
              'estimateCreationDate',
              'fileId',
            ]),
          })
          .returning({ id: estimates.id }),
    );
  const advanceList = perCompany((c) => c.recurringAdvances);
  if (advanceList.length)
    await batched(
      advanceList.map(({ companyId, item: a }) => ({
        portalId,
        companyId,
        extId: a.id,
        code: a.code,
        description: a.description,
        quantity: a.quantity,
        taxedTotal: a.taxedTotal,
        advanceDate: at(a.advanceDate),
        trigger: {
          recurrenceType: a.trigger.recurrenceType,
          frequencyWeek: a.trigger.frequencyWeek ?? null,
          recurrenceDayOfWeek: a.trigger.recurrenceDayOfWeek ?? null,
          frequencyMonth: a.trigger.frequencyMonth ?? null,
          recurrenceDay: a.trigger.recurrenceDay ?? null,
          recurrenceMonth: a.trigger.recurrenceMonth ?? null,
        },
      })),
      (part) =>
        tx
          .insert(recurringAdvances)
          .values(part)
          .onConflictDoUpdate({
            target: [recurringAdvances.portalId, recurringAdvances.extId],
            set: excluded(recurringAdvances, [
              'companyId',
              'code',
              'description',
              'quantity',
              'taxedTotal',
              'advanceDate',
              'trigger',
            ]),
          })
          .returning({ id: recurringAdvances.id }),
    );
  const documentList = perCompany((c) => c.documents);
  await contactIds.ensure(documentList.map(({ item }) => item.contactId));
  if (documentList.length)
    await batched(
      documentList.map(({ companyId, item: d }) => ({
        portalId,
        companyId,
        contactId: contactIds.must(d.contactId),
        extId: d.id,
        documentName: d.documentName,
        createDate: at(d.createDate),
        fileId: files.idOf(portalId, d.file),
      })),
      (part) =>
        tx
          .insert(documents)
          .values(part)
          .onConflictDoUpdate({
            target: [documents.portalId, documents.extId],
            set: excluded(documents, ['companyId', 'contactId', 'documentName', 'createDate', 'fileId']),
          })
          .returning({ id: documents.id }),
    );

  // Public capabilities: signing, appointments, task pages.
  const signatureList = p.signatureRequests ?? [];
  await contactIds.ensure(signatureList.map((s) => s.contactId));
  if (signatureList.length)
    await batched(
      signatureList.map((s) => ({
        portalId,
        documentKey: s.documentKey,
        contactId: contactIds.must(s.contactId),
        documentName: s.documentName,
        fileId: files.idOf(portalId, s.file),
        requireOtp: s.requireOtp,
        expiresAt: atOrNull(s.expiresAt),
      })),
      (part) =>
        tx
          .insert(signatureRequests)
          .values(part)
          .onConflictDoUpdate({
            target: [signatureRequests.portalId, signatureRequests.documentKey],
            // A signed request keeps its signature (signed_at, signed_file_id).
            set: excluded(signatureRequests, [
              'contactId',
              'documentName',
              'fileId',
              'requireOtp',
              'expiresAt',
            ]),
          })
          .returning({ id: signatureRequests.id }),
    );
  if (p.appointmentLinks?.length)
    await batched(
      p.appointmentLinks.map((l) => ({
        portalId,
        eventKey: l.eventKey,
        title: l.title,
        agentId: agentIds.must(l.agentId),
        defaultDurationMinutes: l.defaultDurationMinutes,
        slotMinutes: l.slotMinutes,
        daysAhead: l.daysAhead,
        weeklyHours: Object.fromEntries(
          (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((d) => [
            d,
            l.weeklyHours[d] ?? [],
          ]),
        ),
      })),
      (part) =>
        tx
          .insert(appointmentLinks)
          .values(part)
          .onConflictDoUpdate({
            target: [appointmentLinks.portalId, appointmentLinks.eventKey],
            set: excluded(appointmentLinks, [
              'title',
              'agentId',
              'defaultDurationMinutes',
              'slotMinutes',
              'daysAhead',
              'weeklyHours',
            ]),
          })
          .returning({ id: appointmentLinks.id }),
    );
  const taskList = p.taskLinks ?? [];
  await ticketIds.ensure(taskList.map((l) => l.ticketId));
  if (taskList.length)
    await batched(
      taskList.map((l) => ({ portalId, eventKey: l.eventKey, ticketId: ticketIds.must(l.ticketId) })),
      (part) =>
        tx
          .insert(taskLinks)
          .values(part)
          .onConflictDoUpdate({
            target: [taskLinks.portalId, taskLinks.eventKey],
            set: excluded(taskLinks, ['ticketId']),
          })
          .returning({ id: taskLinks.id }),
    );

  // Rows the portal creates itself continue after the back office's numbers.
  await tx.execute(sql`
    update ${portals} set
      ticket_seq = greatest(ticket_seq, (select coalesce(max(ext_id), 0) from ${tickets} where portal_id = ${portalId})),
      comment_seq = greatest(comment_seq, (select coalesce(max(ext_id), 0) from ${ticketComments} where portal_id = ${portalId})),
      attachment_seq = greatest(attachment_seq, (select coalesce(max(ext_id), 0) from ${ticketAttachments} where portal_id = ${portalId})),
      document_seq = greatest(document_seq, (select coalesce(max(ext_id), 0) from ${documents} where portal_id = ${portalId}))
    where id = ${portalId}`);

  return { portalId };
}

async function selectIn<T>(ids: number[], run: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const part of chunk(ids, 5000)) out.push(...(await run(part)));
  return out;
}

async function deleteIds(ids: number[], run: (part: number[]) => Promise<unknown>): Promise<void> {
  for (const part of chunk(ids, 5000)) await run(part);
}
