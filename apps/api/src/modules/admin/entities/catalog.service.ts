/**
 * The catalogue's entities one by one: hour and unit contracts, service contracts with their
 * packages, subscriptions, appointment links, task links and the wiki, through the import's writers (so the import's rules and "write only what differs" hold),
 * with the audit row and the event in the change's transaction (entities.service's `record`). Also the
 * staff admin's lists (the bookings and their cancellation are the appointments module's).
 */
import { randomBytes } from 'node:crypto';
import {
  entityErrorCodes,
  type ActivityContractEntity,
  type AppointmentLinkEntity,
  type EntityFileInput,
  type FileRef,
  type ServiceContractEntity,
  type SubscriptionEntity,
  type TagEntity,
  type TaskLinkEntity,
  type WikiElementEntity,
  type WikiFolderEntity,
} from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import type { AppContext } from '../../../platform/context';
import { AppError, conflict } from '../../../platform/errors';
import { ImportFiles } from '../import.files';
import { writeRecurringAdvances } from '../writers/billing';
import { writeActivityContracts, writeServiceContracts } from '../writers/contracts';
import { writeTags } from '../writers/portal';
import { writeAppointmentLinks, writeTaskLinks } from '../writers/public-links';
import { writeWikiElements, writeWikiFolders } from '../writers/wiki';
import { PortalScope } from '../writers/support';
import {
  listActivityContracts,
  listAppointmentLinks,
  listServiceContracts,
  listSubscriptions,
  listTaskLinks,
  listTicketTaskLinks,
  listWiki,
  missingServiceRefs,
  pickCompanies,
  readActivityContract,
  readAppointmentLink,
  readServiceContract,
  readSubscription,
  readTag,
  readTaskLink,
  rowIdOf,
  readWikiElement,
  readWikiFolder,
  tagInUse,
  upcomingBookings,
  wikiInUse,
} from './catalog.queries';
import { deleteRow, lockPortal, nextExtId, readCompany, type Stored } from './entities.queries';
import { claimUpload } from './uploads.queries';
import {
  inTransaction,
  missing,
  noHtml,
  publicOf,
  record,
  unknownReference,
  uploadNotFound,
  withFiles,
  type Actor,
  type EntityService,
  type Idem,
} from './entities.service';

/** A writers' scope that hands out files kept from the stored rows (an update names no bytes). */
class KeptFiles extends PortalScope {
  readonly kept = new Map<FileRef, number>();
  override fileId(ref: FileRef): number {
    return this.kept.get(ref) ?? super.fileId(ref);
  }
  override optionalFileId(ref: FileRef | null | undefined): number | null {
    return ref ? (this.kept.get(ref) ?? super.optionalFileId(ref)) : null;
  }
  /** A reference the writers resolve to the stored file `fileId` (none for null). */
  keep(fileId: number | null | undefined): FileRef | undefined {
    if (!fileId) return undefined;
    const ref = { name: 'kept' } as FileRef;
    this.kept.set(ref, fileId);
    return ref;
  }
}
const scopeOf = (ctx: AppContext, tx: Tx, actor: Actor, files = new ImportFiles()) =>
  new KeptFiles(tx, actor.portalId, actor.timeZone, files, noHtml, ctx.clock.now());

type Fields = Record<string, unknown>;

/**
 * One kind of entity without bytes of its own: how it is read (the API's image, also the audit image
 * and the event's data), numbered, written (422 for a reference the portal lacks) and deleted.
 */
interface Kind<Id extends number | string, E> {
  entity:
    | 'activity_contract'
    | 'service_contract'
    | 'subscription'
    | 'appointment_link'
    | 'task_link'
    | 'tag'
    | 'wiki_folder'
    | 'wiki_element';
  what: string;
  idField: 'id' | 'eventKey';
  read: (
    db: Tx | AppContext['database']['db'],
    portalId: number,
    id: Id,
    lock?: boolean,
  ) => Promise<Stored<E> | undefined>;
  next: (tx: Tx, portalId: number) => Promise<Id>;
  /** The inline bytes a body carries (staged before the transaction, discarded if it fails). */
  inline?: (body: Fields) => FileRef[];
  /** `files`: the staged bytes of `inline`, for the writers' scope. */
  write: (
    ctx: AppContext,
    tx: Tx,
    actor: Actor,
    id: Id,
    fields: Fields,
    stored: Stored<E> | undefined,
    files: ImportFiles,
  ) => Promise<void>;
  /** 409 `entity_in_use` when the delete would take what others still need. */
  checkDelete?: (ctx: AppContext, tx: Tx, stored: Stored<E>) => Promise<void>;
  table:
    | 'activity_contracts'
    | 'service_contracts'
    | 'recurring_advances'
    | 'appointment_links'
    | 'task_links'
    | 'tags'
    | 'wiki_folders'
    | 'wiki_elements';
}

/** The fields a body sets: `undefined` leaves the stored value, `null` clears it. */
const defined = (body: object) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));

function kindService<Id extends number | string, E extends object>(
  kind: Kind<Id, E>,
): EntityService<Id, Fields, Fields, E> {
  return {
    get: async (ctx, actor, id) => {
      const e = await kind.read(ctx.database.db, actor.portalId, id);
      if (!e) throw missing(kind.what, id);
      return publicOf(e)!;
    },
    create: (ctx, actor, body, idem?: Idem) =>
      withFiles(ctx, kind.inline?.(body) ?? [], (files) =>
        inTransaction(ctx, actor, idem, body, async (tx) => {
          await lockPortal(tx, actor.portalId);
          const id = (body[kind.idField] as Id | undefined) ?? (await kind.next(tx, actor.portalId));
          if (await kind.read(tx, actor.portalId, id))
            throw conflict(`A ${kind.what} ${String(id)} exists`, entityErrorCodes.entityExists);
          const { [kind.idField]: _id, ...fields } = defined(body);
          await kind.write(ctx, tx, actor, id, fields, undefined, files);
          const after = publicOf(await kind.read(tx, actor.portalId, id))!;
          await record(ctx, tx, actor, {
            entity: kind.entity,
            entityId: id,
            action: 'created',
            before: null,
            after,
          });
          return { status: 201, body: after };
        }),
      ),
    update: async (ctx, actor, id, body) =>
      (
        await withFiles(ctx, kind.inline?.(body) ?? [], (files) =>
          inTransaction(ctx, actor, undefined, body, async (tx) => {
            const stored = await kind.read(tx, actor.portalId, id, true);
            if (!stored) throw missing(kind.what, id);
            const before = publicOf(stored)!;
            await kind.write(ctx, tx, actor, id, { ...before, ...defined(body) }, stored, files);
            const after = publicOf(await kind.read(tx, actor.portalId, id))!;
            await record(ctx, tx, actor, {
              entity: kind.entity,
              entityId: id,
              action: 'updated',
              before,
              after,
            });
            return { status: 200, body: after };
          }),
        )
      ).body,
    remove: async (ctx, actor, id) => {
      await inTransaction(ctx, actor, undefined, null, async (tx) => {
        const stored = await kind.read(tx, actor.portalId, id, true);
        if (!stored) throw missing(kind.what, id);
        await kind.checkDelete?.(ctx, tx, stored);
        await record(ctx, tx, actor, {
          entity: kind.entity,
          entityId: id,
          action: 'deleted',
          before: publicOf(stored),
          after: null,
        });
        await deleteRow(tx, kind.table, stored.rowId);
        return { status: 204, body: null };
      });
    },
  };
}

/** The company's row (422 naming `companyId` when the portal lacks it). */
async function companyRow(tx: Tx, actor: Actor, companyId: number): Promise<number> {
  const company = await readCompany(tx, actor.portalId, companyId);
  if (!company) throw unknownReference('companyId', companyId);
  return company.rowId;
}

/** The row of an agent or ticket the body names, made known to the writers' scope (422 when unknown). */
async function refRow(tx: Tx, s: PortalScope, table: 'agents' | 'tickets', field: string, extId: number) {
  const id = await rowIdOf(tx, table, s.portalId, extId);
  if (id === null) throw unknownReference(field, extId);
  (table === 'agents' ? s.ids.agents : s.ids.tickets).add([{ id, extId }]);
}

/** A new public key: 24 URL-safe characters, unguessable. */
const newEventKey = async () => randomBytes(18).toString('base64url');

// ---- the kinds -----------------------------------------------------------------------------------

export const activityContracts = kindService<number, ActivityContractEntity>({
  entity: 'activity_contract',
  what: 'hour or unit contract',
  idField: 'id',
  table: 'activity_contracts',
  read: readActivityContract,
  next: (tx, portalId) => nextExtId(tx, 'activity_contracts', portalId),
  write: async (ctx, tx, actor, id, f, stored) => {
    const companyId = await companyRow(tx, actor, f.companyId as number);
    const s = scopeOf(ctx, tx, actor);
    // An activity named again keeps its report (reports come with the import's bytes).
    const reports = new Map((stored?.activities ?? []).map((a) => [a.id, a.reportFileId]));
    const activities = ((f.activities ?? []) as ActivityContractEntity['activities']).map((a) => {
      const fileId = reports.get(a.id);
      const report = fileId ? ({ name: 'kept' } as FileRef) : undefined;
      if (report && fileId) s.kept.set(report, fileId);
      const { reportFileId: _r, ...rest } = a as ActivityContractEntity['activities'][number];
      return { ...rest, report };
    });
    await writeActivityContracts(s, [
      {
        companyId,
        item: {
          id,
          name: f.name as string,
          start: f.start as string,
          end: (f.end as string | null | undefined) ?? null,
          activityContractType: f.activityContractType as 0 | 1,
          hoursAmount: (f.hoursAmount as number | null | undefined) ?? null,
          unitAmount: (f.unitAmount as number | null | undefined) ?? null,
          activities,
        },
      },
    ]);
  },
});

type ServicePackage = ServiceContractEntity['packages'][number];
/** A document of a service contract as a body gives it (`file`: new bytes) or as stored (`fileId`). */
type ServiceDocument = { id: number; documentName: string; file?: EntityFileInput; fileId?: number };
const inlineOf = (f: EntityFileInput | undefined): FileRef | undefined =>
  f && !('uploadId' in f) ? f : undefined;

/**
 * Service contracts with their packages (import: `serviceContracts`, the import's writer): tags of
 * the portal and wiki elements of the company by id (422 otherwise); packages with their activities
 * replace the stored ones, an activity named again keeps its report; documents take new bytes (inline
 * or `{uploadId}`), keep their file when named again without, and go when left out.
 */
export const serviceContracts = kindService<number, ServiceContractEntity>({
  entity: 'service_contract',
  what: 'service contract',
  idField: 'id',
  table: 'service_contracts',
  read: readServiceContract,
  next: (tx, portalId) => nextExtId(tx, 'service_contracts', portalId),
  inline: (body) => ((body.documents ?? []) as ServiceDocument[]).flatMap((d) => inlineOf(d.file) ?? []),
  write: async (ctx, tx, actor, id, f, stored, files) => {
    const companyId = await companyRow(tx, actor, f.companyId as number);
    const tagIds = (f.tagIds ?? []) as number[];
    const wikiElementIds = (f.wikiElementIds ?? []) as number[];
    const gap = await missingServiceRefs(tx, actor.portalId, companyId, tagIds, wikiElementIds);
    if (gap)
      throw unknownReference(
        gap.field,
        gap.id,
        gap.field === 'wikiElementIds' ? ` in company ${String(f.companyId)}` : '',
      );
    const s = scopeOf(ctx, tx, actor, files);
    const given = (f.documents ?? []) as ServiceDocument[];
    const inline = given.flatMap((d) => inlineOf(d.file) ?? []);
    if (inline.length > 0) await files.writeRows(tx, actor.portalId, inline, ctx.clock.now());
    const kept = new Map((stored?.documents ?? []).map((d) => [d.id, d.fileId]));
    const documents = [];
    for (const [i, d] of given.entries()) {
      let file: FileRef | undefined = inlineOf(d.file);
      if (d.file && 'uploadId' in d.file) {
        const upload = await claimUpload(tx, actor, d.file.uploadId, ctx.clock.now());
        if (!upload) throw uploadNotFound(`documents[${i}].file`, d.file.uploadId);
        file = s.keep(upload.id);
      } else if (!file) file = s.keep(kept.get(d.id));
      if (!file)
        throw new AppError(
          422,
          entityErrorCodes.unknownReference,
          `documents[${i}]: service contract ${id} has no document ${d.id}; a new document needs its file`,
          [{ path: `documents[${i}].file`, message: 'a new document needs its file' }],
        );
      documents.push({ id: d.id, documentName: d.documentName, file });
    }
    const reports = new Map(
      (stored?.packages ?? []).flatMap((p) => p.activities.map((a) => [`${p.id}:${a.id}`, a.reportFileId])),
    );
    const packages = ((f.packages ?? []) as ServicePackage[]).map((p) => ({
      id: p.id,
      name: p.name,
      unitsText: p.unitsText ?? null,
      residualText: p.residualText ?? null,
      activities: (p.activities ?? []).map((a) => {
        const { reportFileId: _r, ...rest } = a;
        return { ...rest, report: s.keep(reports.get(`${p.id}:${a.id}`)) };
      }),
    }));
    await writeServiceContracts(s, [
      {
        companyId,
        item: {
          id,
          name: f.name as string,
          status: f.status as 1 | 4,
          activeFrom: f.activeFrom as string,
          activeTo: (f.activeTo as string | null | undefined) ?? null,
          tagIds,
          wikiElementIds,
          documents,
          packages,
        },
      },
    ]);
  },
});

export const subscriptions = kindService<number, SubscriptionEntity>({
  entity: 'subscription',
  what: 'subscription',
  idField: 'id',
  table: 'recurring_advances',
  read: readSubscription,
  next: (tx, portalId) => nextExtId(tx, 'recurring_advances', portalId),
  write: async (ctx, tx, actor, id, f) => {
    const companyId = await companyRow(tx, actor, f.companyId as number);
    await writeRecurringAdvances(scopeOf(ctx, tx, actor), [
      {
        companyId,
        item: {
          id,
          code: f.code as string,
          description: f.description as string,
          quantity: f.quantity as number,
          taxedTotal: f.taxedTotal as number,
          advanceDate: f.advanceDate as string,
          trigger: f.trigger as SubscriptionEntity['trigger'],
        },
      },
    ]);
  },
});

export const appointmentLinks = kindService<string, AppointmentLinkEntity>({
  entity: 'appointment_link',
  what: 'appointment link',
  idField: 'eventKey',
  table: 'appointment_links',
  read: readAppointmentLink,
  next: newEventKey,
  write: async (ctx, tx, actor, eventKey, f) => {
    const s = scopeOf(ctx, tx, actor);
    await refRow(tx, s, 'agents', 'agentId', f.agentId as number);
    await writeAppointmentLinks(s, [
      {
        eventKey,
        title: f.title as string,
        agentId: f.agentId as number,
        defaultDurationMinutes: f.defaultDurationMinutes as number,
        slotMinutes: f.slotMinutes as number,
        daysAhead: f.daysAhead as number,
        weeklyHours: f.weeklyHours as AppointmentLinkEntity['weeklyHours'],
      },
    ]);
  },
  checkDelete: async (ctx, tx, stored) => {
    const n = await upcomingBookings(tx, stored.rowId, ctx.clock.now());
    if (n > 0)
      throw conflict(
        `Appointment link ${stored.eventKey} has ${n} upcoming booking(s): cancel them first`,
        entityErrorCodes.entityInUse,
      );
  },
});

export const taskLinks = kindService<string, TaskLinkEntity>({
  entity: 'task_link',
  what: 'task link',
  idField: 'eventKey',
  table: 'task_links',
  read: readTaskLink,
  next: newEventKey,
  write: async (ctx, tx, actor, eventKey, f) => {
    const s = scopeOf(ctx, tx, actor);
    await refRow(tx, s, 'tickets', 'ticketId', f.ticketId as number);
    await writeTaskLinks(s, [{ eventKey, ticketId: f.ticketId as number }]);
  },
});

/**
 * The portal's tags (import: `tags`, the import's writer), which service contracts name. A tag that
 * service contracts still name is not deleted (409 `entity_in_use` with their number), as a folder
 * with elements or a type with tickets: dropping it would change those contracts unannounced (no
 * `service_contract.updated` would tell a back office).
 */
export const tags = kindService<number, TagEntity>({
  entity: 'tag',
  what: 'tag',
  idField: 'id',
  table: 'tags',
  read: readTag,
  next: (tx, portalId) => nextExtId(tx, 'tags', portalId),
  write: async (ctx, tx, actor, id, f) => {
    await writeTags(scopeOf(ctx, tx, actor), [
      { id, name: f.name as string, tagGroupName: (f.tagGroupName as string | null | undefined) ?? null },
    ]);
  },
  checkDelete: async (_ctx, tx, stored) => {
    const n = await tagInUse(tx, stored.rowId);
    if (n > 0)
      throw conflict(
        `Tag ${stored.id} is named by ${n} service contract(s): take it off them first`,
        entityErrorCodes.entityInUse,
      );
  },
});

export const wikiFolders = kindService<number, WikiFolderEntity>({
  entity: 'wiki_folder',
  what: 'wiki folder',
  idField: 'id',
  table: 'wiki_folders',
  read: readWikiFolder,
  next: (tx, portalId) => nextExtId(tx, 'wiki_folders', portalId),
  write: async (ctx, tx, actor, id, f) => {
    const companyId = await companyRow(tx, actor, f.companyId as number);
    await writeWikiFolders(scopeOf(ctx, tx, actor), [{ companyId, item: { id, name: f.name as string } }]);
  },
  checkDelete: async (_ctx, tx, stored) => {
    if ((await wikiInUse(tx, 'wiki_folders', stored.rowId)) > 0)
      throw conflict(
        `Wiki folder ${stored.id} still holds elements: delete them first`,
        entityErrorCodes.entityInUse,
      );
  },
});

export const wikiElements = kindService<number, WikiElementEntity>({
  entity: 'wiki_element',
  what: 'wiki element',
  idField: 'id',
  table: 'wiki_elements',
  read: readWikiElement,
  next: (tx, portalId) => nextExtId(tx, 'wiki_elements', portalId),
  write: async (ctx, tx, actor, id, f, stored) => {
    const companyId = await companyRow(tx, actor, f.companyId as number);
    const folder = await readWikiFolder(tx, actor.portalId, f.folderId as number);
    if (!folder || folder.companyId !== f.companyId)
      throw unknownReference('folderId', f.folderId as number, ` in company ${String(f.companyId)}`);
    const s = scopeOf(ctx, tx, actor);
    s.ids.wikiFolders.add([{ id: folder.rowId, extId: folder.id }]);
    // A file property named again keeps the file the import gave it.
    const files = new Map((stored?.properties ?? []).map((p) => [p.id, p.fileId]));
    const properties = ((f.properties ?? []) as WikiElementEntity['properties']).map((p) => {
      const { fileId: _f, ...rest } = p;
      const fileId = p.dataType === 'file' ? files.get(p.id) : null;
      const file = fileId ? ({ name: 'kept' } as FileRef) : undefined;
      if (file && fileId) s.kept.set(file, fileId);
      return { ...rest, file };
    });
    await writeWikiElements(s, [
      { companyId, folderExtId: folder.id, item: { id, name: f.name as string, properties } },
    ]);
  },
  checkDelete: async (_ctx, tx, stored) => {
    if ((await wikiInUse(tx, 'wiki_elements', stored.rowId)) > 0)
      throw conflict(`Wiki element ${stored.id} is named by tickets`, entityErrorCodes.entityInUse);
  },
});

// ---- the staff admin's lists ---------------------------------------------------------------------

export const listContractsOf = async (ctx: AppContext, portalId: number, companyId: number) => ({
  items: await listActivityContracts(ctx.database.db, portalId, companyId),
});
export const listServiceContractsOf = async (ctx: AppContext, portalId: number, companyId: number) => ({
  items: await listServiceContracts(ctx.database.db, portalId, companyId),
});
export const listSubscriptionsOf = async (ctx: AppContext, portalId: number, companyId: number) => ({
  items: await listSubscriptions(ctx.database.db, portalId, companyId),
});
export const listLinks = async (ctx: AppContext, portalId: number) => ({
  items: await listAppointmentLinks(ctx.database.db, portalId),
});
export const companyPicker = async (ctx: AppContext, portalId: number, q: string) => ({
  items: await pickCompanies(ctx.database.db, portalId, q),
});
export const listWikiOf = (ctx: AppContext, portalId: number, companyId: number) =>
  listWiki(ctx.database.db, portalId, companyId);
export const listTasks = async (ctx: AppContext, portalId: number) => ({
  items: await listTaskLinks(ctx.database.db, portalId),
});
/** The task links of one ticket (404 `entity_not_found` when the portal has no such ticket). */
export async function listTasksOf(ctx: AppContext, portalId: number, ticketExtId: number) {
  const items = await listTicketTaskLinks(ctx.database.db, portalId, ticketExtId);
  if (!items) throw missing('ticket', ticketExtId);
  return { items };
}
