/**
 * A company's own service-level targets (issue 28 item 13): a business sells some clients a faster
 * answer ("Gold": the urgent first response in 30 minutes instead of the portal's 60). Set and removed
 * by the portal's admins, each change in the audit log; the targets a company leaves out are the
 * portal policy's (the tickets core's `targetsFor`). A change queues the recompute of the company's
 * open tickets exactly as a policy change queues its portal's: the breach sweep marks them for a quiet
 * look in batches (modules/staff/sla-sweeper.ts) and the clock's one writer, `refreshSlaClock`,
 * recomputes each.
 */
import {
  SLA_COMPANIES_MAX,
  slaCompanyErrorCodes,
  ticketPriorities,
  type SlaCompany,
  type SlaCompanyInput,
  type SlaCompanyList,
  type SlaCompanyTargets,
} from '@sportello/contracts';
import { insertAudit } from '../../platform/audit';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import {
  companyOfPortal,
  countSlaCompanies,
  deleteSlaCompany,
  listSlaCompanies,
  lockPortalSla,
  queueCompanySlaRecompute,
  readSlaCompany,
  writeSlaCompany,
  type SlaCompanyRow,
} from './sla-companies.queries';
import type { StaffPortalAccess } from './staff.access';

/**
 * What the override says, priorities and targets in a fixed order (jsonb keeps its own) and empty
 * priorities left out: what is stored, the audit's image and the no-change test.
 */
function ownOf(targets: SlaCompanyTargets): SlaCompanyTargets {
  const out: SlaCompanyTargets = {};
  for (const p of ticketPriorities) {
    const t = targets[p];
    if (!t || (t.firstResponse === undefined && t.resolution === undefined)) continue;
    out[p] = {
      ...(t.firstResponse !== undefined && { firstResponse: t.firstResponse }),
      ...(t.resolution !== undefined && { resolution: t.resolution }),
    };
  }
  return out;
}

const answerOf = (r: SlaCompanyRow): SlaCompany => ({
  company: { id: r.companyExtId, name: r.companyName },
  targets: ownOf(r.targets),
  updatedAt: r.updatedAt.toISOString(),
});

const noCompany = (id: number) => notFound(`The portal has no company ${id}`);

export async function slaCompanies(ctx: AppContext, a: StaffPortalAccess): Promise<SlaCompanyList> {
  return { items: (await listSlaCompanies(ctx.database.db, a.portal.portalId)).map(answerOf) };
}

export async function setSlaCompany(
  ctx: AppContext,
  a: StaffPortalAccess,
  companyExtId: number,
  body: SlaCompanyInput,
): Promise<SlaCompany> {
  const portalId = a.portal.portalId;
  const after = ownOf(body.targets);
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    await lockPortalSla(tx, portalId);
    const company = await companyOfPortal(tx, portalId, companyExtId);
    if (!company) throw noCompany(companyExtId);
    const stored = await readSlaCompany(tx, company.id);
    const before = stored === null ? null : ownOf(stored);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    if (before === null && (await countSlaCompanies(tx, portalId)) >= SLA_COMPANIES_MAX)
      throw conflict(
        `At most ${SLA_COMPANIES_MAX} companies have targets of their own`,
        slaCompanyErrorCodes.tooManySlaCompanies,
      );
    await writeSlaCompany(tx, portalId, company.id, after, now);
    await queueCompanySlaRecompute(tx, company.id);
    await insertAudit(tx, {
      portalId,
      occurredAt: now,
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'sla_company',
      entityId: String(companyExtId),
      action: before === null ? 'created' : 'updated',
      before,
      after,
    });
  });
  const [row] = await listSlaCompanies(ctx.database.db, portalId, companyExtId);
  // Removed by another admin since: gone, as for a company the portal has not.
  if (!row) throw noCompany(companyExtId);
  return answerOf(row);
}

export async function removeSlaCompany(
  ctx: AppContext,
  a: StaffPortalAccess,
  companyExtId: number,
): Promise<void> {
  const portalId = a.portal.portalId;
  const now = ctx.clock.now();
  await ctx.database.db.transaction(async (tx) => {
    await lockPortalSla(tx, portalId);
    const company = await companyOfPortal(tx, portalId, companyExtId);
    if (!company) throw noCompany(companyExtId);
    const stored = await readSlaCompany(tx, company.id);
    if (stored === null || !(await deleteSlaCompany(tx, company.id)))
      throw notFound(`Company ${companyExtId} has no targets of its own`);
    await queueCompanySlaRecompute(tx, company.id);
    await insertAudit(tx, {
      portalId,
      occurredAt: now,
      actorType: 'staff',
      apiKeyId: null,
      staffUserId: a.staffUserId,
      entity: 'sla_company',
      entityId: String(companyExtId),
      action: 'deleted',
      before: ownOf(stored),
      after: null,
    });
  });
}
