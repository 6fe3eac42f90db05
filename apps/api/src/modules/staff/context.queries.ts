/**
 * The customer beside a ticket (issue 28 item 10) in one statement: each list a subquery on an index
 * (tickets_creator…, activity_contracts_company_idx, invoices_unpaid_idx,
 * signature_requests_contact_idx, appointments_email_idx), at most CONTEXT_LIST_MAX rows each, with
 * its count. `invoices` is left out (null) when the caller's role may not see them.
 */
import { sql, type SQL } from 'drizzle-orm';
import { CONTEXT_LIST_MAX, invoicePayment, type TicketContext } from '@sportello/contracts';
import { isoText, queryRows, tsParam, type Queryable } from '../../platform/sql-json';

const LIMIT = CONTEXT_LIST_MAX;

/** `{total, items}` of `rows` (a subquery with `item` and `ord`), the first LIMIT in `order`. */
const sectionJson = (rows: string, order: string) => `(select json_build_object(
    'total', count(*),
    'items', coalesce((array_agg(s.item order by ${order}))[1:${LIMIT}], '{}')) from (${rows}) s)`;

/** The statement of ticketContext (its plans are looked at in context.test.ts). */
export function ticketContextSql(s: {
  portalId: number;
  ticketExtId: number;
  invoices: boolean;
  now: Date;
}): SQL {
  return sql`with p as (
      select t.id as ticket_id, t.portal_id, t.company_id, t.creator_contact_id as contact_id,
        ${s.invoices}::boolean as invoices, ${tsParam(s.now)} as now
      from tickets t where t.portal_id = ${s.portalId}::int and t.ext_id = ${s.ticketExtId}::bigint)
    select json_build_object(
      'contact', (select json_build_object('id', c.ext_id, 'name', c.referent_name, 'email', nullif(c.email, ''),
          'phone', nullif(c.phone, '')) from contacts c where c.id = p.contact_id),
      'company', (select json_build_object('id', co.ext_id, 'name', co.company_name)
          from companies co where co.id = p.company_id),
      'openTickets', ${sql.raw(
        sectionJson(
          `select o.last_activity_at as ord, o.ext_id, json_build_object('id', o.ext_id,
              'ticketNumber', o.ticket_number, 'title', o.title, 'stepName', ss.name,
              'lastActivityAt', ${isoText('o.last_activity_at')}) as item
            from tickets o join status_steps ss on ss.id = o.status_step_id
            where o.portal_id = p.portal_id and o.creator_contact_id = p.contact_id and not o.closed
              and o.id <> p.ticket_id`,
          's.ord desc, s.ext_id desc',
        ),
      )},
      'contracts', ${sql.raw(
        sectionJson(
          `select ac.name as ord, ac.ext_id, json_build_object('id', ac.ext_id, 'name', ac.name,
              'end', ${isoText('ac.end')}, 'hoursAmount', ac.hours_amount,
              'residualMinutes', case when ac.contract_type = 0 and ac.hours_amount is not null then
                round(ac.hours_amount * 60 - (select coalesce(sum(u.duration_minutes), 0)
                  from contract_activities u where u.activity_contract_id = ac.id))::int end) as item
            from activity_contracts ac
            where ac.company_id = p.company_id and ac.start <= p.now and (ac.end is null or ac.end >= p.now)`,
          'lower(s.ord), s.ext_id',
        ),
      )},
      'invoices', case when p.invoices then ${sql.raw(
        sectionJson(
          `select i.due_date as ord, i.ext_id, json_build_object('id', i.ext_id,
              'documentNumber', i.document_number, 'total', i.total,
              'invoiceDate', ${isoText('i.invoice_date')}, 'dueDate', ${isoText('i.due_date')}) as item
            from invoices i
            where i.company_id = p.company_id and i.paid_date is null and i.due_date is not null`,
          's.ord, s.ext_id',
        ),
      )} end,
      'signatures', ${sql.raw(
        sectionJson(
          `select r.id as ord, r.id as ext_id, json_build_object('documentKey', r.document_key,
              'documentName', r.document_name, 'contactName', c.referent_name,
              'expiresAt', ${isoText('r.expires_at')}) as item
            from contacts c join signature_requests r on r.contact_id = c.id and r.signed_at is null
            where c.company_id = p.company_id and r.portal_id = p.portal_id and r.cancelled_at is null
              and (r.expires_at is null or r.expires_at > p.now)`,
          's.ord desc',
        ),
      )},
      'appointments', ${sql.raw(
        sectionJson(
          `select a.starts_at as ord, a.id as ext_id, json_build_object('id', a.id, 'title', l.title,
              'startsAt', ${isoText('a.starts_at')}, 'agentName', ag.display_name) as item
            from contacts c
            join appointments a on a.portal_id = p.portal_id and lower(a.email) = lower(c.email)
            join appointment_links l on l.id = a.link_id
            join agents ag on ag.id = a.agent_id
            where c.id = p.contact_id and c.email is not null and c.email <> ''
              and a.cancelled_at is null and a.starts_at >= p.now`,
          's.ord, s.ext_id',
        ),
      )}
    ) as o from p`;
}

export async function ticketContext(
  db: Queryable,
  s: { portalId: number; ticketExtId: number; invoices: boolean; now: Date; timeZone: string },
): Promise<TicketContext | undefined> {
  const rows = await queryRows<{ o: TicketContext | string }>(db, ticketContextSql(s));
  if (!rows[0]) return undefined;
  const o = rows[0].o;
  const parsed = (typeof o === 'string' ? JSON.parse(o) : o) as Record<string, unknown>;
  for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') parsed[k] = JSON.parse(v);
  const context = parsed as TicketContext;
  // Overdue by the one rule the customer's invoice list follows (today in the portal's zone).
  for (const i of context.invoices?.items ?? [])
    i.overdue = invoicePayment({ dueDate: i.dueDate, paidDate: null }, s.now, s.timeZone) === 'overdue';
  return context;
}
