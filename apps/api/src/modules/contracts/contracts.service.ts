/**
 * Contracts: the server computes residuals and expiry (they are not part of the import format). Days
 * are compared in the portal's time zone.
 */
import type {
  ActivityContract,
  ContractActivity,
  ContractsQuery,
  ServiceContract,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import { addDays, localDay } from '@sportello/contracts/time-zone';
import type { TenantContext } from '../../platform/tenancy';
import { listActivityContracts, listServiceContracts, type RawActivity } from './contracts.queries';

/** Minutes as `H:MM`, `-H:MM` when negative (an overrun contract). */
export function formatResidualMinutes(minutes: number): string {
  const m = Math.round(minutes);
  const abs = Math.abs(m);
  return `${m < 0 ? '-' : ''}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** Avoids 10 - 3.3 = 6.699999… in answers: amounts carry at most 2 decimals. */
const round2 = (n: number) => Math.round(n * 100) / 100;

type Signer = (fileId: number, name: string) => string;

function mapActivity(sign: Signer, a: RawActivity): ContractActivity {
  return {
    id: a.id,
    activityTypeName: a.activityTypeName,
    start: a.start,
    durationMinutes: a.durationMinutes,
    units: a.units === null ? null : Number(a.units),
    reportDocumentUrl: a.fileId !== null ? sign(a.fileId, a.fileName ?? 'report') : null,
    assignedUser: a.assignedUser,
    addressType: a.addressType,
    activityLocation_Address: a.address,
  };
}

export async function activityContracts(
  ctx: AppContext,
  t: TenantContext,
  q: ContractsQuery,
): Promise<ActivityContract[]> {
  const range = parseDateRange(q, t.timeZone);
  const rows = await listActivityContracts(ctx.database.db, {
    portalId: t.portalId,
    companyId: t.companyId,
    ...range,
  });
  const now = ctx.clock.now();
  const today = localDay(now, t.timeZone);
  const sign: Signer = (id, name) => ctx.signer.sign(id, name, now, { bind: t });
  return rows.map((c) => {
    const hours = c.hoursAmount === null ? null : Number(c.hoursAmount);
    const unitsTotal = c.unitAmount === null ? null : Number(c.unitAmount);
    return {
      id: c.id,
      name: c.name,
      start: c.start,
      end: c.end,
      isExpired: c.end !== null && localDay(c.end, t.timeZone) < today,
      activityContractType: c.activityContractType,
      hoursAmount: hours,
      residual_Time_String: hours === null ? null : formatResidualMinutes(hours * 60 - Number(c.usedMinutes)),
      unitAmount: unitsTotal,
      residual_UnitAmount: unitsTotal === null ? null : round2(unitsTotal - Number(c.usedUnits)),
      activities: c.activities.map((a) => mapActivity(sign, a)),
    };
  });
}

export const EXPIRING_WINDOW_DAYS = 30;

export async function serviceContracts(
  ctx: AppContext,
  t: TenantContext,
  q: ContractsQuery,
): Promise<ServiceContract[]> {
  const range = parseDateRange(q, t.timeZone);
  const rows = await listServiceContracts(ctx.database.db, {
    portalId: t.portalId,
    companyId: t.companyId,
    ...range,
  });
  const now = ctx.clock.now();
  const today = localDay(now, t.timeZone);
  const horizon = addDays(today, EXPIRING_WINDOW_DAYS);
  const sign: Signer = (id, name) => ctx.signer.sign(id, name, now, { bind: t });
  return rows.map((c) => {
    const endDay = c.activeTo === null ? null : localDay(c.activeTo, t.timeZone);
    const ended = endDay !== null && endDay < today;
    return {
      id: c.id,
      name: c.name,
      status: c.status,
      expiring30Days: c.status === 1 && endDay !== null && endDay >= today && endDay <= horizon,
      isExpired: c.status === 4 || ended,
      activeFrom: c.activeFrom,
      activeTo: c.activeTo,
      tagIds: c.tags.map((x) => x.id),
      wikiElementIds: c.wikiElements.map((x) => x.id),
      tags: c.tags.map((x) => ({ id: x.id, name: x.name })),
      wikiElements: c.wikiElements.map((x) => ({ id: x.id, name: x.name })),
      documents: c.documents.map((d) => ({
        id: d.id,
        documentName: d.documentName,
        url: sign(d.fileId, d.fileName),
      })),
      packages: c.packages.map((p) => ({
        id: p.id,
        name: p.name,
        unitsText: p.unitsText,
        residualText: p.residualText,
        activities: p.activities.map((a) => mapActivity(sign, a)),
      })),
    };
  });
}
