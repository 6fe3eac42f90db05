/** SQL of activity reports: one statement, scoped by portal and company. */
import { sql, type SQL } from 'drizzle-orm';
import { isoText, queryJsonList, tsParam, type Queryable } from '../../platform/sql-json';

export interface RawReport {
  id: number;
  name: string;
  dateTime: string;
  fileId: number;
  fileName: string;
  taskId: number | null;
  taskName: string | null;
}

export interface ReportScope {
  portalId: number;
  companyId: number;
  /** Linked tickets are named only when visible: every ticket (null) or those of this contact. */
  visibleCreatorContactId: number | null;
  /** False: the caller may open no ticket at all, so every link is cleared. */
  mayOpenTickets: boolean;
}

export function listReports(
  db: Queryable,
  s: ReportScope,
  f: { from: Date | null; toExclusive: Date | null; wikiElementExtId: number | null },
): Promise<RawReport[]> {
  const visible = !s.mayOpenTickets
    ? sql`false`
    : s.visibleCreatorContactId === null
      ? sql`t.id is not null`
      : sql`t.creator_contact_id = ${s.visibleCreatorContactId}`;
  const conds: SQL[] = [sql`ar.portal_id = ${s.portalId} and ar.company_id = ${s.companyId}`];
  if (f.from) conds.push(sql`ar.date_time >= ${tsParam(f.from)}`);
  if (f.toExclusive) conds.push(sql`ar.date_time < ${tsParam(f.toExclusive)}`);
  if (f.wikiElementExtId !== null)
    conds.push(sql`t.wiki_element_id in (select w.id from wiki_elements w
      where w.portal_id = ${s.portalId} and w.company_id = ${s.companyId} and w.ext_id = ${f.wikiElementExtId})`);
  return queryJsonList<RawReport>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', ar.ext_id, 'name', ar.name, 'dateTime', ${sql.raw(isoText('ar.date_time'))},
        'fileId', f.id, 'fileName', f.name,
        'taskId', case when ${visible} then t.ext_id end,
        'taskName', case when ${visible} then t.title end
      ) order by ar.date_time desc, ar.ext_id desc), '[]'::json) as items
      from activity_reports ar
      join files f on f.id = ar.file_id
      left join tickets t on t.id = ar.ticket_id and t.company_id = ar.company_id
      where ${sql.join(conds, sql` and `)}`,
  );
}
