/**
 * The portal's ticket types, status steps and assignee groups, changed one at a time by a staff admin
 * (issue 14 item 5). Each change locks the portal's row (ids and the one default / one closing step are
 * decided one change at a time), writes its audit row and emits `<kind>.<action>` in its transaction.
 * New rows take the id after the portal's largest, as the back office's own ids continue. Names are
 * unique per kind without regard to case (decided under the portal's lock; the import, the back
 * office's own data, is not held to it). A group's members are set from the group here too.
 */
import { and, eq, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  entityErrorCodes,
  ticketSetupErrorCodes,
  type AssigneeGroupInput,
  type GroupMembers,
  type EntityKind,
  type StatusStepInput,
  type TicketTypeInput,
} from '@sportello/contracts';
import type { Tx } from '../../../db/client';
import { assigneeGroups, portals, statusSteps, tickets, ticketTypes } from '../../../db/schema';
import { recordStaffChange, type StaffActor } from '../../../platform/audit';
import type { AppContext } from '../../../platform/context';
import { nextExtId, type ExtIdTable } from '../../../platform/portal-sequences';
import { AppError, conflict, notFound } from '../../../platform/errors';
import { groupMembers, nameTaken, portalStaffIds, replaceGroupMembers } from './ticket-setup.queries';

type Kind = 'types' | 'steps' | 'groups';

interface KindSpec {
  table: PgTable & { id: PgColumn; portalId: PgColumn; extId: PgColumn };
  tableName: 'ticket_types' | 'status_steps' | 'assignee_groups';
  entity: EntityKind;
  what: string;
  /** The tickets' column that points to a row of this kind. */
  ticketColumn: PgColumn;
  image: (row: Record<string, unknown>) => Record<string, unknown>;
}

const SPECS: Record<Kind, KindSpec> = {
  types: {
    table: ticketTypes,
    tableName: 'ticket_types',
    entity: 'ticket_type',
    what: 'ticket type',
    ticketColumn: tickets.typeId,
    image: (r) => ({ id: r.extId, name: r.name, color: r.color ?? null }),
  },
  steps: {
    table: statusSteps,
    tableName: 'status_steps',
    entity: 'status_step',
    what: 'status step',
    ticketColumn: tickets.statusStepId,
    image: (r) => ({
      id: r.extId,
      name: r.name,
      taskStatus: r.taskStatus,
      isDefault: r.isDefault,
      isClosing: r.isClosing,
    }),
  },
  groups: {
    table: assigneeGroups,
    tableName: 'assignee_groups',
    entity: 'assignee_group',
    what: 'assignee group',
    ticketColumn: tickets.assignedGroupId,
    image: (r) => ({ id: r.extId, name: r.name }),
  },
};

type Input = TicketTypeInput | StatusStepInput | AssigneeGroupInput;

async function lockPortal(tx: Tx, portalId: number): Promise<void> {
  await tx.select({ id: portals.id }).from(portals).where(eq(portals.id, portalId)).for('update');
}

async function findRow(tx: Tx, spec: KindSpec, portalId: number, extId: number) {
  const [row] = await tx
    .select()
    .from(spec.table)
    .where(and(eq(spec.table.portalId, portalId), eq(spec.table.extId, extId)));
  if (!row) throw notFound(`No ${spec.what} ${extId} in this portal`);
  return row as Record<string, unknown> & { id: number };
}

/**
 * The default and closing marks are one each: setting one takes it from the step that held it. That
 * step changed too, so it gets its own audit row and `status_step.updated` (a back office mirroring the
 * steps learns it is no longer the default), in the same transaction.
 */
async function moveStepMarks(
  tx: Tx,
  ctx: AppContext,
  a: StaffActor,
  keep: number,
  input: Partial<StatusStepInput>,
) {
  for (const mark of ['isDefault', 'isClosing'] as const) {
    if (input[mark] !== true) continue;
    const column = mark === 'isDefault' ? statusSteps.isDefault : statusSteps.isClosing;
    const where = and(
      eq(statusSteps.portalId, a.portalId),
      eq(column, true),
      sql`${statusSteps.id} <> ${keep}`,
    );
    const held = (await tx.select().from(statusSteps).where(where).for('update')) as (Record<
      string,
      unknown
    > & { id: number; extId: number })[];
    if (held.length === 0) continue;
    await tx
      .update(statusSteps)
      .set({ [mark]: false })
      .where(where);
    for (const before of held)
      await record(tx, ctx, a, SPECS.steps, {
        id: Number(before.extId),
        action: 'updated',
        before,
        after: { ...before, [mark]: false },
      });
  }
}

/** The closing step closes its tickets (`taskStatus` 2); the default step, where tickets start, does not. */
function checkStepStatus(step: { taskStatus?: unknown; isDefault?: unknown; isClosing?: unknown }) {
  const closed = step.taskStatus === 2;
  if ((step.isClosing === true && !closed) || (step.isDefault === true && closed))
    throw new AppError(
      422,
      ticketSetupErrorCodes.stepStatusMismatch,
      step.isClosing === true && !closed
        ? "The closing step must be a closed one (taskStatus 2): a customer's close would leave the ticket open"
        : 'The default step cannot be a closed one (taskStatus 2): new tickets would start closed',
    );
}

/** 409 name_taken when another row of the kind has the name, any case (the portal is locked). */
async function assertNameFree(tx: Tx, spec: KindSpec, portalId: number, name: unknown, self: number | null) {
  if (typeof name !== 'string') return;
  if (await nameTaken(tx, spec.tableName, portalId, name, self))
    throw conflict(`Another ${spec.what} is named "${name}"`, ticketSetupErrorCodes.nameTaken);
}

const stepRequired = (mark: string) =>
  conflict(
    `The portal keeps one ${mark} step: make another step the ${mark} one instead`,
    ticketSetupErrorCodes.stepRequired,
  );

const record = (
  tx: Tx,
  ctx: AppContext,
  a: StaffActor,
  spec: KindSpec,
  c: {
    id: number;
    action: 'created' | 'updated' | 'deleted';
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
  },
) =>
  recordStaffChange(tx, ctx, a, {
    entity: spec.entity,
    entityId: c.id,
    action: c.action,
    before: c.before && spec.image(c.before),
    after: c.after && spec.image(c.after),
  });

export async function createItem(ctx: AppContext, a: StaffActor, kind: Kind, input: Input) {
  const spec = SPECS[kind];
  return ctx.database.db.transaction(async (tx) => {
    await lockPortal(tx, a.portalId);
    const extId = await nextExtId(tx, getTableName(spec.table) as ExtIdTable, a.portalId);
    await assertNameFree(tx, spec, a.portalId, input.name, null);
    if (kind === 'steps') checkStepStatus(input as StatusStepInput);
    const [row] = (await tx
      .insert(spec.table)
      .values({ ...input, portalId: a.portalId, extId } as never)
      .returning()) as (Record<string, unknown> & { id: number })[];
    if (kind === 'steps') await moveStepMarks(tx, ctx, a, row!.id, input as StatusStepInput);
    await record(tx, ctx, a, spec, { id: extId, action: 'created', before: null, after: row! });
    return spec.image(row!);
  });
}

export async function updateItem(
  ctx: AppContext,
  a: StaffActor,
  kind: Kind,
  extId: number,
  input: Partial<Input>,
) {
  const spec = SPECS[kind];
  return ctx.database.db.transaction(async (tx) => {
    await lockPortal(tx, a.portalId);
    const before = await findRow(tx, spec, a.portalId, extId);
    await assertNameFree(tx, spec, a.portalId, input.name, before.id);
    if (kind === 'steps') {
      const step = input as Partial<StatusStepInput>;
      if (step.isDefault === false && before.isDefault === true) throw stepRequired('default');
      if (step.isClosing === false && before.isClosing === true) throw stepRequired('closing');
      checkStepStatus({ ...before, ...step });
    }
    // A name changed in the desk is the one name from now on: the back office's per-language ones
    // (migration 0046) would show the old name to customers.
    const renamed =
      (kind === 'types' || kind === 'steps') && input.name !== undefined && input.name !== before.name;
    const [after] = (await tx
      .update(spec.table)
      .set((renamed ? { ...input, names: null } : input) as never)
      .where(eq(spec.table.id, before.id))
      .returning()) as (Record<string, unknown> & { id: number })[];
    if (kind === 'steps') await moveStepMarks(tx, ctx, a, before.id, input as StatusStepInput);
    if (JSON.stringify(spec.image(before)) !== JSON.stringify(spec.image(after!)))
      await record(tx, ctx, a, spec, { id: extId, action: 'updated', before, after: after! });
    return spec.image(after!);
  });
}

export async function deleteItem(ctx: AppContext, a: StaffActor, kind: Kind, extId: number): Promise<void> {
  const spec = SPECS[kind];
  await ctx.database.db.transaction(async (tx) => {
    await lockPortal(tx, a.portalId);
    const before = await findRow(tx, spec, a.portalId, extId);
    if (before.isDefault === true) throw stepRequired('default');
    if (before.isClosing === true) throw stepRequired('closing');
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tickets)
      .where(and(eq(tickets.portalId, a.portalId), eq(spec.ticketColumn, before.id)));
    if (Number(used!.n) > 0)
      throw conflict(
        `${Number(used!.n)} tickets use this ${spec.what}: move them first`,
        entityErrorCodes.entityInUse,
      );
    await tx.delete(spec.table).where(eq(spec.table.id, before.id));
    await record(tx, ctx, a, spec, { id: extId, action: 'deleted', before, after: null });
  });
}

/**
 * The group's members become exactly `staffIds` (members of the portal's staff, else 422 and nothing
 * changes). A change writes one audit row and `assignee_group.members_changed` (the group with its
 * members, by staff id and e-mail, before and after); the same members again write nothing.
 */
export async function setGroupMembers(
  ctx: AppContext,
  a: StaffActor,
  extId: number,
  staffIds: number[],
): Promise<GroupMembers> {
  const wanted = [...new Set(staffIds)].sort((x, y) => x - y);
  return ctx.database.db.transaction(async (tx) => {
    await lockPortal(tx, a.portalId);
    const group = await findRow(tx, SPECS.groups, a.portalId, extId);
    const known = new Set(await portalStaffIds(tx, a.portalId, wanted));
    const unknown = wanted.find((id) => !known.has(id));
    if (unknown !== undefined)
      throw new AppError(
        422,
        entityErrorCodes.unknownReference,
        `staffIds: ${unknown} is not a member of this portal's staff`,
        [{ path: 'staffIds', message: `unknown staff member ${unknown}` }],
      );
    const image = (members: { id: number; email: string }[]) => ({ ...SPECS.groups.image(group), members });
    const before = await groupMembers(tx, group.id);
    await replaceGroupMembers(tx, group.id, wanted);
    const after = await groupMembers(tx, group.id);
    if (JSON.stringify(before) !== JSON.stringify(after))
      await recordStaffChange(tx, ctx, a, {
        entity: 'assignee_group',
        entityId: extId,
        action: 'members_changed',
        before: image(before),
        after: image(after),
      });
    return { id: extId, name: String(group.name), staffIds: after.map((m) => m.id) };
  });
}
