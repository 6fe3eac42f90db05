/** Activity reports (a PDF per intervention, optionally tied to a ticket). */
import { activityReports } from '../../../db/schema';
import { upsertByExtId, type CompanyItem, type Owned, type PortalScope } from './support';

export async function writeActivityReports(
  s: PortalScope,
  rows: Owned<CompanyItem<'activityReports'>>[],
): Promise<void> {
  if (rows.length === 0) return;
  await s.ids.tickets.ensure(rows.map(({ item }) => item.taskId));
  await upsertByExtId(
    s,
    activityReports,
    ['companyId', 'name', 'dateTime', 'ticketId', 'fileId'],
    rows.map(({ companyId, item: r }) => ({
      portalId: s.portalId,
      companyId,
      extId: r.id,
      name: r.name,
      dateTime: s.at(r.dateTime),
      ticketId: s.ids.tickets.get(r.taskId),
      fileId: s.fileId(r.document),
    })),
    undefined,
  );
}
