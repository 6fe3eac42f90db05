import type { ActivityReport, ActivityReportsQuery } from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import { forbidden } from '../../platform/errors';
import type { TenantContext } from '../../platform/tenancy';
import { listReports } from './reports.queries';

/**
 * The company's activity reports. A linked ticket is named only when the caller may open it (the same
 * rule as the ticket detail: administrators any ticket of the company, others with manageTickets
 * their own); otherwise taskId and taskName are null.
 */
export async function activityReports(
  ctx: AppContext,
  t: TenantContext,
  q: ActivityReportsQuery,
): Promise<ActivityReport[]> {
  const range = parseDateRange(q, t.timeZone);
  if (q.wikiFilter !== undefined && !t.flags.viewContactWiki)
    throw forbidden('This contact lacks the viewContactWiki permission', 'missing_permission');
  const rows = await listReports(
    ctx.database.db,
    {
      portalId: t.portalId,
      companyId: t.companyId,
      visibleCreatorContactId: t.flags.administrator ? null : t.contactId,
      mayOpenTickets: t.flags.administrator || t.flags.manageTickets,
    },
    { ...range, wikiElementExtId: q.wikiFilter ?? null },
  );
  const now = ctx.clock.now();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    dateTime: r.dateTime,
    documentUrl: ctx.signer.sign(r.fileId, r.fileName, now, { bind: t }),
    taskId: r.taskId,
    taskName: r.taskName,
  }));
}
