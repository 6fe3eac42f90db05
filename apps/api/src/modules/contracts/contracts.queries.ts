/**
 * SQL of activity and service contracts: each list is one statement, with activities, tags, wiki
 * elements, documents and packages aggregated as JSON inside it.
 */
import { sql, type SQL } from 'drizzle-orm';
import { isoText, queryJsonList, queryRows, tsParam, type Queryable } from '../../platform/sql-json';

export interface RawActivity {
  id: number;
  activityTypeName: string;
  start: string;
  durationMinutes: number;
  units: number | null;
  assignedUser: string;
  addressType: number;
  address: string | null;
  fileId: number | null;
  fileName: string | null;
}
export interface RawActivityContract {
  id: number;
  name: string;
  start: string;
  end: string | null;
  activityContractType: number;
  hoursAmount: number | null;
  unitAmount: number | null;
  usedMinutes: number;
  usedUnits: number;
  activities: RawActivity[];
}
export interface RawServiceContract {
  id: number;
  name: string;
  status: number;
  activeFrom: string;
  activeTo: string | null;
  tags: { id: number; name: string }[];
  wikiElements: { id: number; name: string }[];
  documents: { id: number; documentName: string; fileId: number; fileName: string }[];
  packages: {
    id: number;
    name: string;
    unitsText: string;
    residualText: string;
    activities: RawActivity[];
  }[];
}

export interface ContractScope {
  portalId: number;
  companyId: number;
  from: Date | null;
  toExclusive: Date | null;
}

const activitiesJson = (where: string) => `(
  select coalesce(json_agg(json_build_object(
    'id', x.ext_id, 'activityTypeName', x.activity_type_name, 'start', ${isoText('x.start')},
    'durationMinutes', x.duration_minutes, 'units', x.units, 'assignedUser', x.assigned_user,
    'addressType', x.address_type, 'address', x.address, 'fileId', rf.id, 'fileName', rf.name
  ) order by x.start desc, x.ext_id desc), '[]'::json)
  from contract_activities x left join files rf on rf.id = x.report_file_id
  where ${where})`;

/** Validity [start, end] overlapping [from, to); an open end never expires. */
function overlap(startCol: string, endCol: string, s: ContractScope): SQL[] {
  const conds: SQL[] = [];
  if (s.toExclusive) conds.push(sql`${sql.raw(startCol)} < ${tsParam(s.toExclusive)}`);
  if (s.from) conds.push(sql`(${sql.raw(endCol)} is null or ${sql.raw(endCol)} >= ${tsParam(s.from)})`);
  return conds;
}

export function listActivityContracts(db: Queryable, s: ContractScope): Promise<RawActivityContract[]> {
  const conds = [
    sql`ac.portal_id = ${s.portalId} and ac.company_id = ${s.companyId}`,
    ...overlap('ac.start', 'ac."end"', s),
  ];
  return queryJsonList<RawActivityContract>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', ac.ext_id, 'name', ac.name,
        'start', ${sql.raw(isoText('ac.start'))}, 'end', ${sql.raw(isoText('ac."end"'))},
        'activityContractType', ac.contract_type,
        'hoursAmount', ac.hours_amount, 'unitAmount', ac.unit_amount,
        'usedMinutes', (select coalesce(sum(u.duration_minutes), 0) from contract_activities u
          where u.activity_contract_id = ac.id),
        'usedUnits', (select coalesce(sum(u.units), 0) from contract_activities u
          where u.activity_contract_id = ac.id),
        'activities', ${sql.raw(activitiesJson('x.activity_contract_id = ac.id'))}
      ) order by ac.start desc, ac.ext_id desc), '[]'::json) as items
      from activity_contracts ac
      where ${sql.join(conds, sql` and `)}`,
  );
}

export function listServiceContracts(db: Queryable, s: ContractScope): Promise<RawServiceContract[]> {
  const conds = [
    sql`sc.portal_id = ${s.portalId} and sc.company_id = ${s.companyId}`,
    ...overlap('sc.active_from', 'sc.active_to', s),
  ];
  return queryJsonList<RawServiceContract>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', sc.ext_id, 'name', sc.name, 'status', sc.status,
        'activeFrom', ${sql.raw(isoText('sc.active_from'))}, 'activeTo', ${sql.raw(isoText('sc.active_to'))},
        'tags', (select coalesce(json_agg(json_build_object('id', tg.ext_id, 'name', tg.name)
            order by tg.name, tg.ext_id), '[]'::json)
          from service_contract_tags st join tags tg on tg.id = st.tag_id
          where st.service_contract_id = sc.id and tg.portal_id = sc.portal_id),
        'wikiElements', (select coalesce(json_agg(json_build_object('id', we.ext_id, 'name', we.name)
            order by we.name, we.ext_id), '[]'::json)
          from service_contract_wiki_elements sw join wiki_elements we on we.id = sw.wiki_element_id
          where sw.service_contract_id = sc.id and we.company_id = sc.company_id),
        'documents', (select coalesce(json_agg(json_build_object('id', d.ext_id,
            'documentName', d.document_name, 'fileId', f.id, 'fileName', f.name) order by d.ext_id), '[]'::json)
          from service_contract_documents d join files f on f.id = d.file_id
          where d.service_contract_id = sc.id),
        'packages', (select coalesce(json_agg(json_build_object('id', p.ext_id, 'name', p.name,
            'unitsText', p.units_text, 'residualText', p.residual_text,
            'activities', ${sql.raw(activitiesJson('x.package_id = p.id'))}
          ) order by p.position, p.ext_id), '[]'::json)
          from service_contract_packages p where p.service_contract_id = sc.id)
      ) order by sc.active_from desc, sc.ext_id desc), '[]'::json) as items
      from service_contracts sc
      where ${sql.join(conds, sql` and `)}`,
  );
}

/** The tags of a portal by key; undefined when there is no such portal. */
export async function listPortalTags(
  db: Queryable,
  portalKey: string,
): Promise<{ id: number; name: string; tagGroupName: string }[] | undefined> {
  const rows = await queryRows<{ items: { id: number; name: string; tagGroupName: string }[] | string }>(
    db,
    sql`select coalesce(json_agg(json_build_object('id', t.ext_id, 'name', t.name, 'tagGroupName', t.tag_group_name)
        order by t.tag_group_name, t.name, t.ext_id) filter (where t.id is not null), '[]'::json) as items
      from portals p left join tags t on t.portal_id = p.id
      where p.key = ${portalKey.toLowerCase()}
      group by p.id`,
  );
  const items = rows[0]?.items;
  if (items === undefined) return undefined;
  return typeof items === 'string' ? JSON.parse(items) : items;
}
