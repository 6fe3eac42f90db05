/**
 * The portal's service-level policy (issue 28 item 13): read by every member of the desk, replaced by
 * its admins, each change in the audit log. A change that touches what clocks depend on (on/off, hours,
 * holidays, targets) queues the recompute of the portal's open tickets: the breach sweep does it in
 * batches (modules/staff/sla-sweeper.ts), so the admin's request stays one row whatever the portal's
 * size; what the new clocks find already past is marked told, not told (SLA_QUIET).
 */
import type { SlaPolicy, SlaPolicyInput } from '@sportello/contracts';
import { insertAudit } from '../../platform/audit';
import type { AppContext } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { queueSlaRecompute, readSlaPolicy, writeSlaPolicy, type SlaPolicyStored } from './sla.queries';
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

type Target = SlaPolicyInput['targets']['low'];
const targetOf = (t: Target): Target => ({ firstResponse: t.firstResponse, resolution: t.resolution });

/**
 * What a policy says, keys in a fixed order (jsonb stores them in its own) and holidays sorted: the
 * audit's image and the no-change test.
 */
const rulesOf = (p: SlaPolicyInput): SlaPolicyInput => ({
  enabled: p.enabled,
  hours: p.hours,
  holidays: [...p.holidays].sort(),
  targets: {
    low: targetOf(p.targets.low),
    normal: targetOf(p.targets.normal),
    high: targetOf(p.targets.high),
    urgent: targetOf(p.targets.urgent),
  },
});

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
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    const stored = await readSlaPolicy(tx, portalId, true);
    if (!stored) throw notFound('No such portal');
    const before = stored.updatedAt === null ? null : rulesOf(stored);
    const after = rulesOf({ ...body, hours });
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    await writeSlaPolicy(tx, portalId, after, now);
    await queueSlaRecompute(tx, portalId);
    await insertAudit(tx, {
      portalId,
      occurredAt: now,
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'sla_policy',
      entityId: a.portal.portalKey,
      action: before === null ? 'created' : 'updated',
      before,
      after,
    });
  });
  return slaPolicy(ctx, a);
}
