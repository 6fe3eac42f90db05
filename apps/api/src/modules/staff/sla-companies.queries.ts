/** SQL of the companies' own service-level targets (issue 28 item 13; migration 0063). */
import { sql } from 'drizzle-orm';
import type { SlaCompanyTargets } from '@sportello/contracts';
import { queryRows, type Queryable } from '../../platform/sql-json';

export interface SlaCompanyRow {
  companyExtId: number;
  companyName: string;
  targets: SlaCompanyTargets;
  updatedAt: Date;
}

interface Raw {
  ext_id: string | number;
  company_name: string;
  targets: SlaCompanyTargets | string;
  updated_at: string;
}

const rowOf = (r: Raw): SlaCompanyRow => ({
  companyExtId: Number(r.ext_id),
  companyName: r.company_name,
  targets: typeof r.targets === 'string' ? (JSON.parse(r.targets) as SlaCompanyTargets) : r.targets,
  updatedAt: new Date(r.updated_at),
});

/**
 * The portal's companies with targets of their own, by name (at most SLA_COMPANIES_MAX rows); `extId`:
 * only that company's.
 */
export async function listSlaCompanies(
  db: Queryable,
  portalId: number,
  extId?: number,
): Promise<SlaCompanyRow[]> {
  const rows = await queryRows<Raw>(
    db,
    sql`select c.ext_id, c.company_name, s.targets, s.updated_at::text as updated_at
      from sla_company_targets s join companies c on c.id = s.company_id
      where s.portal_id = ${portalId}::int ${extId === undefined ? sql`` : sql`and c.ext_id = ${extId}::bigint`}
      order by lower(c.company_name), c.ext_id`,
  );
  return rows.map(rowOf);
}

/** A company of the portal by its back-office id (null: the portal has none). */
export async function companyOfPortal(
  db: Queryable,
  portalId: number,
  extId: number,
): Promise<{ id: number; name: string } | null> {
  const [r] = await queryRows<{ id: number; company_name: string }>(
    db,
    sql`select id, company_name from companies where portal_id = ${portalId}::int and ext_id = ${extId}::bigint`,
  );
  return r ? { id: Number(r.id), name: r.company_name } : null;
}

/**
 * The portal's row held until the transaction ends (`for no key update`: rows referencing the portal
 * are still written meanwhile), so two admins' changes count the companies one after the other.
 */
export async function lockPortalSla(db: Queryable, portalId: number): Promise<void> {
  await queryRows(db, sql`select 1 from portals where id = ${portalId}::int for no key update`);
}

export async function countSlaCompanies(db: Queryable, portalId: number): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from sla_company_targets where portal_id = ${portalId}::int`,
  );
  return Number(r?.n ?? 0);
}

/** The company's own targets (null: it has none). */
export async function readSlaCompany(db: Queryable, companyId: number): Promise<SlaCompanyTargets | null> {
  const [r] = await queryRows<{ targets: SlaCompanyTargets | string }>(
    db,
    sql`select targets from sla_company_targets where company_id = ${companyId}::int`,
  );
  if (!r) return null;
  return typeof r.targets === 'string' ? (JSON.parse(r.targets) as SlaCompanyTargets) : r.targets;
}

export async function writeSlaCompany(
  db: Queryable,
  portalId: number,
  companyId: number,
  targets: SlaCompanyTargets,
  now: Date,
): Promise<void> {
  await queryRows(
    db,
    sql`insert into sla_company_targets (company_id, portal_id, targets, updated_at)
      values (${companyId}::int, ${portalId}::int, ${JSON.stringify(targets)}::jsonb, ${now.toISOString()}::timestamptz)
      on conflict (company_id) do update set targets = excluded.targets, updated_at = excluded.updated_at`,
  );
}

/** Removes the company's own targets; answers whether it had some. */
export async function deleteSlaCompany(db: Queryable, companyId: number): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`delete from sla_company_targets where company_id = ${companyId}::int returning 1`,
  );
  return rows.length > 0;
}

/**
 * Queues the recompute of the company's open tickets' clocks (the breach sweep's cursor, from the
 * start): a change made while one runs starts it again.
 */
export async function queueCompanySlaRecompute(db: Queryable, companyId: number): Promise<void> {
  await queryRows(
    db,
    sql`insert into sla_company_recomputes (company_id, recompute_after)
      values (${companyId}::int, -9223372036854775808)
      on conflict (company_id) do update set recompute_after = excluded.recompute_after`,
  );
}
