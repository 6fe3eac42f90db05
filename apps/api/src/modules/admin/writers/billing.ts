/** Invoices, estimates and recurring advances of a company. */
import { estimates, invoices, recurringAdvances } from '../../../db/schema';
import { upsertByExtId, type CompanyItem, type Owned, type PortalScope } from './support';

export async function writeInvoices(s: PortalScope, rows: Owned<CompanyItem<'invoices'>>[]): Promise<void> {
  await upsertByExtId(
    s,
    invoices,
    ['companyId', 'documentNumber', 'total', 'invoiceDate', 'fileId', 'dueDate', 'paidDate'],
    rows.map(({ companyId, item: i }) => ({
      portalId: s.portalId,
      companyId,
      extId: i.id,
      documentNumber: i.documentNumber,
      total: i.total,
      invoiceDate: s.at(i.invoiceDate),
      fileId: s.fileId(i.document),
      dueDate: s.atOrNull(i.dueDate),
      paidDate: s.atOrNull(i.paidDate),
    })),
    undefined,
  );
}

export async function writeEstimates(s: PortalScope, rows: Owned<CompanyItem<'estimates'>>[]): Promise<void> {
  await upsertByExtId(
    s,
    estimates,
    [
      'companyId',
      'estimateName',
      'estimateNumber',
      'revisionNumber',
      'total',
      'estimateCreationDate',
      'fileId',
    ],
    rows.map(({ companyId, item: e }) => ({
      portalId: s.portalId,
      companyId,
      extId: e.id,
      estimateName: e.estimateName,
      estimateNumber: e.estimateNumber,
      revisionNumber: e.revisionNumber ?? 0,
      total: e.total,
      estimateCreationDate: s.at(e.estimateCreationDate),
      fileId: s.fileId(e.document),
    })),
    undefined,
  );
}

export async function writeRecurringAdvances(
  s: PortalScope,
  rows: Owned<CompanyItem<'recurringAdvances'>>[],
): Promise<void> {
  await upsertByExtId(
    s,
    recurringAdvances,
    ['companyId', 'code', 'description', 'quantity', 'taxedTotal', 'advanceDate', 'trigger'],
    rows.map(({ companyId, item: a }) => ({
      portalId: s.portalId,
      companyId,
      extId: a.id,
      code: a.code,
      description: a.description,
      quantity: a.quantity,
      taxedTotal: a.taxedTotal,
      advanceDate: s.at(a.advanceDate),
      trigger: {
        recurrenceType: a.trigger.recurrenceType,
        frequencyWeek: a.trigger.frequencyWeek ?? null,
        recurrenceDayOfWeek: a.trigger.recurrenceDayOfWeek ?? null,
        frequencyMonth: a.trigger.frequencyMonth ?? null,
        recurrenceDay: a.trigger.recurrenceDay ?? null,
        recurrenceMonth: a.trigger.recurrenceMonth ?? null,
      },
    })),
    undefined,
  );
}
