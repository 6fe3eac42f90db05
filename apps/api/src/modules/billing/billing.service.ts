import {
  invoicePayment,
  type BillingQuery,
  type Estimate,
  type Invoice,
  type RecurrenceTrigger,
  type RecurringAdvance,
} from '@sportello/contracts';
import type { AppContext } from '../../platform/context';
import { parseDateRange } from '../../platform/date-range';
import type { TenantContext } from '../../platform/tenancy';
import { listEstimates, listInvoices, listRecurringAdvances } from './billing.queries';

export async function invoices(ctx: AppContext, t: TenantContext, q: BillingQuery): Promise<Invoice[]> {
  const rows = await listInvoices(ctx.database.db, {
    portalId: t.portalId,
    companyId: t.companyId,
    ...parseDateRange(q, t.timeZone),
  });
  const now = ctx.clock.now();
  return rows.map((i) => ({
    id: i.id,
    documentNumber: i.documentNumber,
    total: Number(i.total),
    invoiceDate: i.invoiceDate,
    dueDate: i.dueDate,
    paidDate: i.paidDate,
    payment: invoicePayment(i, now, t.timeZone),
    invoiceDocumentUrl: ctx.signer.sign(i.fileId, i.fileName, now, { bind: t }),
  }));
}

export async function estimates(ctx: AppContext, t: TenantContext, q: BillingQuery): Promise<Estimate[]> {
  const rows = await listEstimates(ctx.database.db, {
    portalId: t.portalId,
    companyId: t.companyId,
    ...parseDateRange(q, t.timeZone),
  });
  const now = ctx.clock.now();
  return rows.map((e) => ({
    id: e.id,
    estimateName: e.estimateName,
    estimateNumber: e.estimateNumber,
    revisionNumber: e.revisionNumber,
    total: Number(e.total),
    estimateCreationDate: e.estimateCreationDate,
    estimateDocumentUrl: ctx.signer.sign(e.fileId, e.fileName, now, { bind: t }),
  }));
}

const intOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** The stored trigger with every field of A3 present (absent ones are null). */
export function normalizeTrigger(raw: Record<string, unknown> | null): RecurrenceTrigger {
  const r = raw ?? {};
  return {
    recurrenceType: intOrNull(r.recurrenceType) ?? 0,
    frequencyWeek: intOrNull(r.frequencyWeek),
    recurrenceDayOfWeek: intOrNull(r.recurrenceDayOfWeek),
    frequencyMonth: intOrNull(r.frequencyMonth),
    recurrenceDay: intOrNull(r.recurrenceDay),
    recurrenceMonth: intOrNull(r.recurrenceMonth),
  };
}

export async function recurringAdvances(ctx: AppContext, t: TenantContext): Promise<RecurringAdvance[]> {
  const rows = await listRecurringAdvances(ctx.database.db, { portalId: t.portalId, companyId: t.companyId });
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    description: r.description,
    quantity: Number(r.quantity),
    taxedTotal: Number(r.taxedTotal),
    advanceDate: r.advanceDate,
    trigger: normalizeTrigger(r.trigger),
  }));
}
