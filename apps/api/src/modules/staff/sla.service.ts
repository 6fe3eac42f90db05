/**
 * The portal's service-level policy (issue 28 item 13): read by every member of the desk, replaced by
 * its admins. A change applies to the clocks computed after it (a ticket's next public message,
 * priority or step change); the due times tickets already carry are not rewritten in bulk.
 */
import type { SlaPolicy, SlaPolicyInput } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { readSlaPolicy, writeSlaPolicy, type SlaPolicyStored } from './sla.queries';
import type { StaffPortalAccess } from './staff.access';

function answerOf(p: SlaPolicyStored): SlaPolicy {
  return {
    enabled: p.enabled,
    hours: p.hours,
    holidays: [...p.holidays].sort(),
    targets: p.targets,
    timeZone: p.timeZone,
    updatedAt: p.updatedAt === null ? null : p.updatedAt.toISOString(),
  };
}

export async function slaPolicy(ctx: AppContext, a: StaffPortalAccess): Promise<SlaPolicy> {
  const p = await readSlaPolicy(ctx.database.db, a.portal.portalId);
  if (!p) throw notFound('No such portal');
  return answerOf(p);
}

export async function replaceSlaPolicy(
  ctx: AppContext,
  a: StaffPortalAccess,
  body: SlaPolicyInput,
): Promise<SlaPolicy> {
  const portalId = a.portal.portalId;
  // Each day's intervals in order, so the answer and the editor read them as the calendar walks them.
  const hours = body.hours.map((day) => [...day].sort((x, y) => x[0].localeCompare(y[0])));
  await ctx.database.db.transaction((tx) =>
    writeSlaPolicy(tx, portalId, { ...body, hours }, ctx.clock.now()),
  );
  return slaPolicy(ctx, a);
}
