/** SQL of invoices, estimates and recurring advances: one statement per list, scoped by company. */
import { sql, type SQL } from 'drizzle-orm';
import { isoText, queryJsonList, tsParam, type Queryable } from '../../platform/sql-json';

export interface BillingScope {
  portalId: number;
  companyId: number;
  from: Date | null;
  toExclusive: Date | null;
}

function dateConds(col: string, s: BillingScope): SQL[] {
  const c: SQL[] = [];
  if (s.from) c.push(sql`${sql.raw(col)} >= ${tsParam(s.from)}`);
  if (s.toExclusive) c.push(sql`${sql.raw(col)} < ${tsParam(s.toExclusive)}`);
  return c;
}

export interface RawInvoice {
  id: number;
  documentNumber: string;
  total: number;
  invoiceDate: string;
  dueDate: string | null;
  paidDate: string | null;
  fileId: number;
  fileName: string;
}

export function listInvoices(db: Queryable, s: BillingScope): Promise<RawInvoice[]> {
  const conds = [
    sql`i.portal_id = ${s.portalId} and i.company_id = ${s.companyId}`,
    ...dateConds('i.invoice_date', s),
  ];
  return queryJsonList<RawInvoice>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', i.ext_id, 'documentNumber', i.document_number, 'total', i.total,
        'invoiceDate', ${sql.raw(isoText('i.invoice_date'))}, 'dueDate', ${sql.raw(isoText('i.due_date'))},
        'paidDate', ${sql.raw(isoText('i.paid_date'))}, 'fileId', f.id, 'fileName', f.name
      ) order by i.invoice_date desc, i.ext_id desc), '[]'::json) as items
      from invoices i join files f on f.id = i.file_id
      where ${sql.join(conds, sql` and `)}`,
  );
}

export interface RawEstimate {
  id: number;
  estimateName: string;
  estimateNumber: string;
  revisionNumber: number;
  total: number;
  estimateCreationDate: string;
  fileId: number;
  fileName: string;
}

export function listEstimates(db: Queryable, s: BillingScope): Promise<RawEstimate[]> {
  const conds = [
    sql`e.portal_id = ${s.portalId} and e.company_id = ${s.companyId}`,
    ...dateConds('e.estimate_creation_date', s),
  ];
  return queryJsonList<RawEstimate>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', e.ext_id, 'estimateName', e.estimate_name, 'estimateNumber', e.estimate_number,
        'revisionNumber', e.revision_number, 'total', e.total,
        'estimateCreationDate', ${sql.raw(isoText('e.estimate_creation_date'))}, 'fileId', f.id, 'fileName', f.name
      ) order by e.estimate_creation_date desc, e.ext_id desc), '[]'::json) as items
      from estimates e join files f on f.id = e.file_id
      where ${sql.join(conds, sql` and `)}`,
  );
}

export interface RawRecurringAdvance {
  id: number;
  code: string;
  description: string;
  quantity: number;
  taxedTotal: number;
  advanceDate: string;
  trigger: Record<string, unknown> | null;
}

export function listRecurringAdvances(
  db: Queryable,
  s: { portalId: number; companyId: number },
): Promise<RawRecurringAdvance[]> {
  return queryJsonList<RawRecurringAdvance>(
    db,
    sql`select coalesce(json_agg(json_build_object(
        'id', r.ext_id, 'code', r.code, 'description', r.description, 'quantity', r.quantity,
        'taxedTotal', r.taxed_total, 'advanceDate', ${sql.raw(isoText('r.advance_date'))}, 'trigger', r.trigger
      ) order by r.advance_date desc, r.ext_id desc), '[]'::json) as items
      from recurring_advances r
      where r.portal_id = ${s.portalId} and r.company_id = ${s.companyId}`,
  );
}
