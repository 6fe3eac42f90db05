/**
 * SQL of the catalogue's entities one by one: each read as the API shows it (the import's fields, the
 * back office's ids) and the staff admin's lists of them.
 */
import { sql } from 'drizzle-orm';
import {
  CATALOG_LIST_MAX,
  COMPANY_PICK_MAX,
  type ActivityContractEntity,
  type AppointmentLinkEntity,
  type ServiceContractEntity,
  type SubscriptionEntity,
  type TagEntity,
  type TaskLinkEntity,
  type WikiElementEntity,
  type WikiFolderEntity,
} from '@sportello/contracts';
import { queryRows, type Queryable } from '../../../platform/sql-json';
import { iso, num, numOrNull, type Stored } from './entities.queries';

const lockOf = (lock: boolean, alias: string) => (lock ? sql`for update of ${sql.raw(alias)}` : sql``);

// ---- hour and unit contracts ---------------------------------------------------------------------

/** The activities of one parent (an hour contract or a service package) as JSON, in their order. */
const activitiesJson = (parent: 'activity_contract_id' | 'package_id', id: string) =>
  sql.raw(`coalesce((select json_agg(json_build_object('id', a.ext_id, 'activityTypeName', a.activity_type_name,
        'start', a.start, 'durationMinutes', a.duration_minutes, 'units', a.units,
        'assignedUser', a.assigned_user, 'addressType', a.address_type, 'address', a.address,
        'reportFileId', a.report_file_id) order by a.id)
      from contract_activities a where a.${parent} = ${id}), '[]'::json)`);

const activityContractSelect = sql`select ac.id as row_id, ac.ext_id, co.ext_id as company_ext, ac.name,
    ac.start, ac."end", ac.contract_type, ac.hours_amount, ac.unit_amount,
    ${activitiesJson('activity_contract_id', 'ac.id')} as activities
  from activity_contracts ac join companies co on co.id = ac.company_id`;

/** A JSON value as the driver hands it (PGlite: parsed; node-postgres: parsed, or text for `json`). */
const jsonOf = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/** The activities of a contract or package as the API shows them. */
const activitiesOf = (list: Record<string, unknown>[]): ActivityContractEntity['activities'] =>
  list.map((a) => ({
    id: num(a.id),
    activityTypeName: String(a.activityTypeName),
    start: iso(a.start),
    durationMinutes: num(a.durationMinutes),
    units: numOrNull(a.units),
    assignedUser: String(a.assignedUser),
    addressType: num(a.addressType),
    activityLocation_Address: (a.address as string | null) ?? null,
    reportFileId: numOrNull(a.reportFileId),
  }));

function activityContractOf(r: Record<string, unknown>): Stored<ActivityContractEntity> {
  return {
    rowId: num(r.row_id),
    id: num(r.ext_id),
    companyId: num(r.company_ext),
    name: String(r.name),
    start: iso(r.start),
    end: r.end === null ? null : iso(r.end),
    activityContractType: num(r.contract_type) === 1 ? 1 : 0,
    hoursAmount: numOrNull(r.hours_amount),
    unitAmount: numOrNull(r.unit_amount),
    activities: activitiesOf(jsonOf(r.activities)),
  };
}

export async function readActivityContract(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<ActivityContractEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${activityContractSelect}
      where ac.portal_id = ${portalId}::int and ac.ext_id = ${extId}::bigint ${lockOf(lock, 'ac')}`,
  );
  return rows[0] && activityContractOf(rows[0]);
}

/** A company's contracts (index activity_contracts_company_idx), newest start first. */
export async function listActivityContracts(
  db: Queryable,
  portalId: number,
  companyExtId: number,
): Promise<ActivityContractEntity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${activityContractSelect}
      where co.portal_id = ${portalId}::int and co.ext_id = ${companyExtId}::bigint
      order by ac.start desc, ac.id desc limit ${CATALOG_LIST_MAX}`,
  );
  return rows.map((r) => withoutRowId(activityContractOf(r)));
}

// ---- service contracts ---------------------------------------------------------------------------

const serviceContractSelect = sql`select sc.id as row_id, sc.ext_id, co.ext_id as company_ext, sc.name,
    sc.status, sc.active_from, sc.active_to,
    coalesce((select json_agg(tg.ext_id order by tg.ext_id)
      from service_contract_tags st join tags tg on tg.id = st.tag_id
      where st.service_contract_id = sc.id), '[]'::json) as tags,
    coalesce((select json_agg(we.ext_id order by we.ext_id)
      from service_contract_wiki_elements sw join wiki_elements we on we.id = sw.wiki_element_id
      where sw.service_contract_id = sc.id), '[]'::json) as wiki,
    coalesce((select json_agg(json_build_object('id', d.ext_id, 'documentName', d.document_name,
        'fileId', d.file_id) order by d.ext_id, d.id)
      from service_contract_documents d where d.service_contract_id = sc.id), '[]'::json) as documents,
    coalesce((select json_agg(json_build_object('id', p.ext_id, 'name', p.name, 'unitsText', p.units_text,
        'residualText', p.residual_text, 'activities', ${activitiesJson('package_id', 'p.id')})
        order by p.position, p.id)
      from service_contract_packages p where p.service_contract_id = sc.id), '[]'::json) as packages
  from service_contracts sc join companies co on co.id = sc.company_id`;

function serviceContractOf(r: Record<string, unknown>): Stored<ServiceContractEntity> {
  const documents = jsonOf<Record<string, unknown>[]>(r.documents);
  const packages = jsonOf<Record<string, unknown>[]>(r.packages);
  return {
    rowId: num(r.row_id),
    id: num(r.ext_id),
    companyId: num(r.company_ext),
    name: String(r.name),
    status: num(r.status) === 4 ? 4 : 1,
    activeFrom: iso(r.active_from),
    activeTo: r.active_to === null ? null : iso(r.active_to),
    tagIds: jsonOf<unknown[]>(r.tags).map(num),
    wikiElementIds: jsonOf<unknown[]>(r.wiki).map(num),
    documents: documents.map((d) => ({
      id: num(d.id),
      documentName: String(d.documentName),
      fileId: num(d.fileId),
    })),
    packages: packages.map((p) => ({
      id: num(p.id),
      name: String(p.name),
      unitsText: String(p.unitsText),
      residualText: String(p.residualText),
      activities: activitiesOf(p.activities as Record<string, unknown>[]),
    })),
  };
}

export async function readServiceContract(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<ServiceContractEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${serviceContractSelect}
      where sc.portal_id = ${portalId}::int and sc.ext_id = ${extId}::bigint ${lockOf(lock, 'sc')}`,
  );
  return rows[0] && serviceContractOf(rows[0]);
}

/** A company's service contracts (index service_contracts_company_idx), newest start first. */
export async function listServiceContracts(
  db: Queryable,
  portalId: number,
  companyExtId: number,
): Promise<ServiceContractEntity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${serviceContractSelect}
      where co.portal_id = ${portalId}::int and co.ext_id = ${companyExtId}::bigint
      order by sc.active_from desc, sc.id desc limit ${CATALOG_LIST_MAX}`,
  );
  return rows.map((r) => withoutRowId(serviceContractOf(r)));
}

/**
 * The first of `tagIds` the portal lacks, or of `wikiElementIds` the company lacks (the service
 * contract's references), in one statement; null when every one is there.
 */
export async function missingServiceRefs(
  db: Queryable,
  portalId: number,
  companyRowId: number,
  tagIds: number[],
  wikiElementIds: number[],
): Promise<{ field: 'tagIds' | 'wikiElementIds'; id: number } | null> {
  const list = (ids: number[]) => `{${ids.map(Number).join(',')}}`;
  const rows = await queryRows<{ field: 'tagIds' | 'wikiElementIds'; id: unknown }>(
    db,
    sql`(select 'tagIds' as field, x.id from unnest(${list(tagIds)}::bigint[]) as x(id)
        where not exists (select 1 from tags t where t.portal_id = ${portalId}::int and t.ext_id = x.id)
        limit 1)
      union all
      (select 'wikiElementIds', x.id from unnest(${list(wikiElementIds)}::bigint[]) as x(id)
        where not exists (select 1 from wiki_elements we where we.portal_id = ${portalId}::int
          and we.ext_id = x.id and we.company_id = ${companyRowId}::int)
        limit 1)`,
  );
  const r = rows[0];
  return r ? { field: r.field, id: num(r.id) } : null;
}

// ---- subscriptions -------------------------------------------------------------------------------

const subscriptionSelect = sql`select ra.id as row_id, ra.ext_id, co.ext_id as company_ext, ra.code,
    ra.description, ra.quantity, ra.taxed_total, ra.advance_date, ra.trigger
  from recurring_advances ra join companies co on co.id = ra.company_id`;

function subscriptionOf(r: Record<string, unknown>): Stored<SubscriptionEntity> {
  const t = (typeof r.trigger === 'string' ? JSON.parse(r.trigger) : r.trigger) as Record<string, unknown>;
  return {
    rowId: num(r.row_id),
    id: num(r.ext_id),
    companyId: num(r.company_ext),
    code: String(r.code),
    description: String(r.description),
    quantity: num(r.quantity),
    taxedTotal: num(r.taxed_total),
    advanceDate: iso(r.advance_date),
    trigger: {
      recurrenceType: num(t.recurrenceType) as 10 | 20 | 30,
      frequencyWeek: numOrNull(t.frequencyWeek),
      recurrenceDayOfWeek: numOrNull(t.recurrenceDayOfWeek),
      frequencyMonth: numOrNull(t.frequencyMonth),
      recurrenceDay: numOrNull(t.recurrenceDay),
      recurrenceMonth: numOrNull(t.recurrenceMonth),
    },
  };
}

export async function readSubscription(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<SubscriptionEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${subscriptionSelect}
      where ra.portal_id = ${portalId}::int and ra.ext_id = ${extId}::bigint ${lockOf(lock, 'ra')}`,
  );
  return rows[0] && subscriptionOf(rows[0]);
}

/** A company's subscriptions (index recurring_advances_company_idx), by next date. */
export async function listSubscriptions(
  db: Queryable,
  portalId: number,
  companyExtId: number,
): Promise<SubscriptionEntity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${subscriptionSelect}
      where co.portal_id = ${portalId}::int and co.ext_id = ${companyExtId}::bigint
      order by ra.advance_date, ra.id limit ${CATALOG_LIST_MAX}`,
  );
  return rows.map((r) => withoutRowId(subscriptionOf(r)));
}

// ---- appointment links and task links ------------------------------------------------------------

const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

const appointmentLinkSelect = sql`select l.id as row_id, l.event_key, l.title, ag.ext_id as agent_ext,
    l.default_duration_minutes, l.slot_minutes, l.days_ahead, l.weekly_hours
  from appointment_links l join agents ag on ag.id = l.agent_id`;

function appointmentLinkOf(r: Record<string, unknown>): Stored<AppointmentLinkEntity> {
  const hours = (typeof r.weekly_hours === 'string' ? JSON.parse(r.weekly_hours) : r.weekly_hours) as Record<
    string,
    [string, string][] | undefined
  >;
  return {
    rowId: num(r.row_id),
    eventKey: String(r.event_key),
    title: String(r.title),
    agentId: num(r.agent_ext),
    defaultDurationMinutes: num(r.default_duration_minutes),
    slotMinutes: num(r.slot_minutes),
    daysAhead: num(r.days_ahead),
    weeklyHours: Object.fromEntries(WEEK_DAYS.map((d) => [d, hours[d] ?? []])) as Record<
      (typeof WEEK_DAYS)[number],
      [string, string][]
    >,
  };
}

export async function readAppointmentLink(
  db: Queryable,
  portalId: number,
  eventKey: string,
  lock = false,
): Promise<Stored<AppointmentLinkEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${appointmentLinkSelect}
      where l.portal_id = ${portalId}::int and l.event_key = ${eventKey} ${lockOf(lock, 'l')}`,
  );
  return rows[0] && appointmentLinkOf(rows[0]);
}

export async function listAppointmentLinks(
  db: Queryable,
  portalId: number,
): Promise<AppointmentLinkEntity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${appointmentLinkSelect} where l.portal_id = ${portalId}::int
      order by l.title, l.id limit ${CATALOG_LIST_MAX}`,
  );
  return rows.map((r) => withoutRowId(appointmentLinkOf(r)));
}

/** The link's bookings not cancelled that have not ended yet (a delete would drop them unannounced). */
export async function upcomingBookings(db: Queryable, linkRowId: number, now: Date): Promise<number> {
  const rows = await queryRows<{ n: unknown }>(
    db,
    sql`select count(*) as n from appointments
      where link_id = ${linkRowId}::int and cancelled_at is null and ends_at > ${now.toISOString()}::timestamptz`,
  );
  return num(rows[0]?.n ?? 0);
}

const taskLinkSelect = sql`select l.id as row_id, l.event_key, t.ext_id as ticket_ext
  from task_links l join tickets t on t.id = l.ticket_id`;
const taskLinkOf = (r: Record<string, unknown>): Stored<TaskLinkEntity> => ({
  rowId: num(r.row_id),
  eventKey: String(r.event_key),
  ticketId: num(r.ticket_ext),
});

export async function readTaskLink(
  db: Queryable,
  portalId: number,
  eventKey: string,
  lock = false,
): Promise<Stored<TaskLinkEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${taskLinkSelect} where l.portal_id = ${portalId}::int and l.event_key = ${eventKey} ${lockOf(lock, 'l')}`,
  );
  return rows[0] && taskLinkOf(rows[0]);
}

export async function listTaskLinks(db: Queryable, portalId: number): Promise<TaskLinkEntity[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${taskLinkSelect} where l.portal_id = ${portalId}::int order by l.event_key limit ${CATALOG_LIST_MAX}`,
  );
  return rows.map((r) => withoutRowId(taskLinkOf(r)));
}

/**
 * The task links of one ticket, oldest first (index task_links_ticket_idx, migration 0032); null when
 * the portal has no such ticket.
 */
export async function listTicketTaskLinks(
  db: Queryable,
  portalId: number,
  ticketExtId: number,
): Promise<TaskLinkEntity[] | null> {
  const rows = await queryRows<{ ticket_ext: unknown; links: unknown }>(
    db,
    sql`select t.ext_id as ticket_ext, coalesce((select json_agg(l.event_key order by l.id)
        from task_links l where l.ticket_id = t.id), '[]'::json) as links
      from tickets t where t.portal_id = ${portalId}::int and t.ext_id = ${ticketExtId}::bigint`,
  );
  const r = rows[0];
  if (!r) return null;
  return jsonOf<string[]>(r.links).map((eventKey) => ({ eventKey, ticketId: num(r.ticket_ext) }));
}

// ---- tags of the portal --------------------------------------------------------------------------

export async function readTag(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<TagEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select g.id as row_id, g.ext_id, g.name, g.tag_group_name from tags g
      where g.portal_id = ${portalId}::int and g.ext_id = ${extId}::bigint ${lockOf(lock, 'g')}`,
  );
  const r = rows[0];
  return (
    r && {
      rowId: num(r.row_id),
      id: num(r.ext_id),
      name: String(r.name),
      tagGroupName: String(r.tag_group_name),
    }
  );
}

/** How many service contracts name the tag (index service_contract_tags_tag_idx, migration 0032). */
export async function tagInUse(db: Queryable, rowId: number): Promise<number> {
  const rows = await queryRows<{ n: unknown }>(
    db,
    sql`select count(*) as n from service_contract_tags where tag_id = ${rowId}::int`,
  );
  return num(rows[0]?.n ?? 0);
}

// ---- wiki folders and elements ------------------------------------------------------------------

export async function readWikiFolder(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<WikiFolderEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select f.id as row_id, f.ext_id, co.ext_id as company_ext, f.name
      from wiki_folders f join companies co on co.id = f.company_id
      where f.portal_id = ${portalId}::int and f.ext_id = ${extId}::bigint ${lockOf(lock, 'f')}`,
  );
  const r = rows[0];
  return (
    r && { rowId: num(r.row_id), id: num(r.ext_id), companyId: num(r.company_ext), name: String(r.name) }
  );
}

const wikiElementSelect = sql`select e.id as row_id, e.ext_id, co.ext_id as company_ext, f.ext_id as folder_ext,
    e.name, coalesce((select json_agg(json_build_object('id', p.ext_id, 'typologyName', p.typology_name,
        'dataType', p.data_type, 'value', p.value, 'fileId', p.file_id) order by p.position, p.id)
      from wiki_properties p where p.element_id = e.id), '[]'::json) as properties
  from wiki_elements e join companies co on co.id = e.company_id join wiki_folders f on f.id = e.folder_id`;

function wikiElementOf(r: Record<string, unknown>): Stored<WikiElementEntity> {
  const props = (typeof r.properties === 'string' ? JSON.parse(r.properties) : r.properties) as Record<
    string,
    unknown
  >[];
  return {
    rowId: num(r.row_id),
    id: num(r.ext_id),
    companyId: num(r.company_ext),
    folderId: num(r.folder_ext),
    name: String(r.name),
    properties: props.map((p) => ({
      id: num(p.id),
      typologyName: String(p.typologyName),
      dataType: p.dataType as WikiElementEntity['properties'][number]['dataType'],
      value: (p.value as string | null) ?? null,
      fileId: numOrNull(p.fileId),
    })),
  };
}

export async function readWikiElement(
  db: Queryable,
  portalId: number,
  extId: number,
  lock = false,
): Promise<Stored<WikiElementEntity> | undefined> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`${wikiElementSelect}
      where e.portal_id = ${portalId}::int and e.ext_id = ${extId}::bigint ${lockOf(lock, 'e')}`,
  );
  return rows[0] && wikiElementOf(rows[0]);
}

/** A company's wiki: folders and elements by name (indexes wiki_folders_company_idx, wiki_elements_company_idx). */
export async function listWiki(db: Queryable, portalId: number, companyExtId: number) {
  const folders = await queryRows<Record<string, unknown>>(
    db,
    sql`select f.ext_id, co.ext_id as company_ext, f.name
      from wiki_folders f join companies co on co.id = f.company_id
      where co.portal_id = ${portalId}::int and co.ext_id = ${companyExtId}::bigint
      order by f.name, f.id limit ${CATALOG_LIST_MAX}`,
  );
  const elements = await queryRows<Record<string, unknown>>(
    db,
    sql`${wikiElementSelect}
      where co.portal_id = ${portalId}::int and co.ext_id = ${companyExtId}::bigint
      order by e.name, e.id limit ${CATALOG_LIST_MAX}`,
  );
  return {
    folders: folders.map((f) => ({ id: num(f.ext_id), companyId: num(f.company_ext), name: String(f.name) })),
    elements: elements.map((r) => withoutRowId(wikiElementOf(r))),
  };
}

/** What a wiki folder or element still holds that a delete would drop or change (null: nothing). */
export async function wikiInUse(db: Queryable, table: 'wiki_folders' | 'wiki_elements', rowId: number) {
  const rows = await queryRows<{ n: unknown }>(
    db,
    table === 'wiki_folders'
      ? sql`select count(*) as n from wiki_elements where folder_id = ${rowId}::int`
      : sql`select count(*) as n from tickets where wiki_element_id = ${rowId}::int`,
  );
  return num(rows[0]?.n ?? 0);
}

/**
 * Companies whose name starts with `prefix` (any case), by name in byte order: the index
 * companies_portal_name_idx (migration 0018) serves both the filter and the order.
 */
export async function pickCompanies(
  db: Queryable,
  portalId: number,
  prefix: string,
): Promise<{ id: number; companyName: string }[]> {
  const like = prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
  const rows = await queryRows<{ ext_id: unknown; company_name: string }>(
    db,
    sql`select ext_id, company_name from companies
      where portal_id = ${portalId}::int and (lower(company_name) collate "C") like ${like}
      order by (lower(company_name) collate "C") limit ${COMPANY_PICK_MAX}`,
  );
  return rows.map((r) => ({ id: num(r.ext_id), companyName: r.company_name }));
}

/** The internal id of a row the portal holds by its back-office id (null: none). */
export async function rowIdOf(
  db: Queryable,
  table: 'agents' | 'tickets',
  portalId: number,
  extId: number,
): Promise<number | null> {
  const rows = await queryRows<{ id: unknown }>(
    db,
    sql`select id from ${sql.raw(table)} where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  return rows[0] ? num(rows[0].id) : null;
}

function withoutRowId<T>(s: Stored<T>): T {
  const { rowId: _r, ...rest } = s;
  return rest as T;
}
