/**
 * The overview in one statement: each section is a subquery scoped by portal and company (tickets also
 * by creator or follower for non-administrators, signatures by contact, appointments by the user's
 * e-mail) and skipped when its flag is off. At most OVERVIEW_SECTION_LIMIT rows each, with a count.
 */
import { sql } from 'drizzle-orm';
import { OVERVIEW_SECTION_LIMIT, type Overview } from '@sportello/contracts';
import { isoText, queryRows, tsParam, type Queryable } from '../../platform/sql-json';

export interface OverviewScope {
  portalId: number;
  companyId: number;
  contactId: number;
  userId: number;
  /** Tickets: null (no ticket section), 'company' (administrators) or 'own' (created or followed). */
  tickets: 'company' | 'own' | null;
  hourBanks: boolean;
  invoices: boolean;
  now: Date;
}

type Raw = {
  [K in keyof Overview]: Overview[K] | string;
};

const LIMIT = OVERVIEW_SECTION_LIMIT;

/** A section: `{total, items}` of the first LIMIT rows of `rows` (a subquery with `item` and `ord`). */
const sectionJson = (rows: string, order: string) => `(select json_build_object(
    'total', count(*),
    'items', coalesce((array_agg(s.item order by ${order}))[1:${LIMIT}], '{}')) from (${rows}) s)`;

/** The newest public activity (internal notes never show on the customer side). */
const publicActivity = 't.public_activity_at';

const ticketRows = (where: string) => `
  select ${publicActivity} as ord, t.ext_id, json_build_object('id', t.ext_id, 'title', t.title,
    'ticketNumber', t.ticket_number, 'internalAnnualProgressive', t.internal_annual_progressive,
    'stepName', ss.name, 'stepNames', ss.names, 'lastActivityAt', ${isoText(publicActivity)}) as item
  from tickets t join status_steps ss on ss.id = t.status_step_id
  where t.portal_id = p.portal_id and t.company_id = p.company_id and not t.closed and (${where})
    and (p.tickets = 'company' or t.creator_contact_id = p.contact_id or exists (
      select 1 from ticket_followers tf where tf.ticket_id = t.id and tf.user_id = p.user_id))`;

export async function readOverview(db: Queryable, s: OverviewScope): Promise<Overview> {
  const rows = await queryRows<{ o: Raw }>(
    db,
    sql`with p as (select ${s.portalId}::int as portal_id, ${s.companyId}::int as company_id,
        ${s.contactId}::int as contact_id, ${s.userId}::int as user_id, ${s.tickets ?? ''}::text as tickets,
        ${s.hourBanks}::boolean as hour_banks, ${s.invoices}::boolean as invoices, ${tsParam(s.now)} as now)
      select json_build_object(
        'waitingTickets', case when p.tickets = '' then null else ${sql.raw(
          sectionJson(ticketRows('t.waiting_on_customer'), 's.ord desc, s.ext_id desc'),
        )} end,
        'openTickets', case when p.tickets = '' then null else ${sql.raw(
          sectionJson(ticketRows('true'), 's.ord desc, s.ext_id desc'),
        )} end,
        'hourBanks', case when not p.hour_banks then null else ${sql.raw(
          sectionJson(
            `select ac.name as ord, ac.ext_id, json_build_object('id', ac.ext_id, 'name', ac.name,
                'end', ${isoText('ac.end')}, 'hoursAmount', ac.hours_amount,
                'residualMinutes', round(ac.hours_amount * 60 - (select coalesce(sum(u.duration_minutes), 0)
                  from contract_activities u where u.activity_contract_id = ac.id))::int) as item
              from activity_contracts ac
              where ac.portal_id = p.portal_id and ac.company_id = p.company_id and ac.contract_type = 0
                and ac.hours_amount is not null and ac.start <= p.now and (ac.end is null or ac.end >= p.now)`,
            'lower(s.ord), s.ext_id',
          ),
        )} end,
        'signatures', ${sql.raw(
          sectionJson(
            `select r.id as ord, r.id as ext_id, json_build_object('documentKey', r.document_key,
                'documentName', r.document_name, 'expiresAt', ${isoText('r.expires_at')}) as item
              from signature_requests r
              where r.portal_id = p.portal_id and r.contact_id = p.contact_id and r.signed_at is null
                and r.cancelled_at is null and (r.expires_at is null or r.expires_at > p.now)`,
            's.ord desc',
          ),
        )},
        'appointments', ${sql.raw(
          sectionJson(
            `select a.starts_at as ord, a.id as ext_id, json_build_object('title', l.title,
                'startsAt', ${isoText('a.starts_at')}, 'endsAt', ${isoText('a.ends_at')},
                'agentName', ag.display_name) as item
              from users u
              join appointments a on a.portal_id = p.portal_id and lower(a.email) = lower(u.email)
              join appointment_links l on l.id = a.link_id
              join agents ag on ag.id = a.agent_id
              where u.id = p.user_id and u.email is not null and u.email <> ''
                and a.cancelled_at is null and a.starts_at >= p.now`,
            's.ord, s.ext_id',
          ),
        )},
        'invoices', case when not p.invoices then null else ${sql.raw(
          sectionJson(
            `select i.invoice_date as ord, i.ext_id, json_build_object('id', i.ext_id,
                'documentNumber', i.document_number, 'total', i.total,
                'invoiceDate', ${isoText('i.invoice_date')}) as item
              from invoices i where i.portal_id = p.portal_id and i.company_id = p.company_id`,
            's.ord desc, s.ext_id desc',
          ),
        )} end
      ) as o from p`,
  );
  const o = rows[0]!.o;
  const parsed = (typeof o === 'string' ? JSON.parse(o) : o) as Record<string, unknown>;
  for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') parsed[k] = JSON.parse(v);
  return parsed as Overview;
}
