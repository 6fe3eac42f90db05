/**
 * The portal's triage (issue 28 item 2): who hears of a customer's ticket, reply or low rating when the
 * ticket has neither an assignee nor a group with members. The choice is read where the notices are
 * chosen (tickets/core/staff-notify.ts); here an admin reads and changes it, audited in its transaction.
 */
import { entityErrorCodes, type TriageSetting, type TriageSettingInput } from '@sportello/contracts';
import { insertAudit, type StaffActor } from '../../platform/audit';
import type { AppContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { groupRowId, readTriageGroup, writeTriageGroup, type TriageGroupRow } from './triage-group.queries';

const answerOf = (r: TriageGroupRow): TriageSetting => ({
  group: r.id === null ? null : { id: r.id, name: r.name ?? '' },
});

export async function triageSetting(ctx: AppContext, a: StaffActor): Promise<TriageSetting> {
  return answerOf(await readTriageGroup(ctx.database.db, a.portalId));
}

export async function setTriageSetting(
  ctx: AppContext,
  a: StaffActor,
  body: TriageSettingInput,
): Promise<TriageSetting> {
  return ctx.database.db.transaction(async (tx) => {
    const before = await readTriageGroup(tx, a.portalId, true);
    let rowId: number | null = null;
    if (body.groupId !== null) {
      rowId = await groupRowId(tx, a.portalId, body.groupId);
      if (rowId === null)
        throw new AppError(
          422,
          entityErrorCodes.unknownReference,
          `groupId: the portal has no assignee group ${body.groupId}`,
          [{ path: 'groupId', message: `unknown assignee group ${body.groupId}` }],
        );
    }
    if (rowId === before.rowId) return answerOf(before);
    await writeTriageGroup(tx, a.portalId, rowId);
    const after = await readTriageGroup(tx, a.portalId);
    await insertAudit(tx, {
      portalId: a.portalId,
      occurredAt: ctx.clock.now(),
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'portal',
      entityId: String(a.portalId),
      action: 'updated',
      before: { triageGroup: answerOf(before).group },
      after: { triageGroup: answerOf(after).group },
    });
    return answerOf(after);
  });
}
