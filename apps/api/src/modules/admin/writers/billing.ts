/** Invoices, estimates and recurring advances of a company. */
import { estimates, invoices, recurringAdvances } from '../../../db/schema';
import { onlyChanged, upsertByExtId, type CompanyItem, type Owned, type PortalScope } from './support';

export async function writeInvoices(s: PortalScope, rows: Owned<CompanyItem<'invoices'>>[]): Promise<void> {
  await upsertByExtId(
    rows.map(({ companyId, item: i }) => ({
      portalId: s.portalId,
      companyId,
      extId: i.id,
      documentNumber: i.documentNumber,
      total: i.total,
      invoiceDate: s.at(i.invoiceDate),
      fileId: s.fileId(i.document),
    })),
    undefined,
    (part) =>
      s.tx
        .insert(invoices)
        .values(part)
        .onConflictDoUpdate({
          target: [invoices.portalId, invoices.extId],
          ...onlyChanged(invoices, ['companyId', 'documentNumber', 'total', 'invoiceDate', 'fileId']),
        })
        .returning({ id: invoices.id, extId: invoices.extId }),
  );
}

export async function writeEstimates(s: PortalScope, rows: Owned<CompanyItem<'estimates'>>[]): Promise<void> {
  await upsertByExtId(
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
    (part) =>
      s.tx
        .insert(estimates)
        .values(part)
        .onConflictDoUpdate({
          target: [estimates.portalId, estimates.extId],
          ...onlyChanged(estimates, [
            'companyId',
            'estimateName',
            'estimateNumber',
            'revisionNumber',
            'total',
            'estimateCreationDate',
            'fileId',
          ]),
        })
        .returning({ id: estimates.id, extId: estimates.extId }),
  );
}

export async function writeRecurringAdvances(
  s: PortalScope,
  rows: Owned<CompanyItem<'recurringAdvances'>>[],
): Promise<void> {
  await upsertByExtId(
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
    (part) =>
      s.tx
        .insert(recurringAdvances)
        .values(part)
        .onConflictDoUpdate({
          target: [recurringAdvances.portalId, recurringAdvances.extId],
          ...onlyChanged(recurringAdvances, [
            'companyId',
            'code',
            'description',
            'quantity',
            'taxedTotal',
            'advanceDate',
            'trigger',
          ]),
        })
        .returning({ id: recurringAdvances.id, extId: recurringAdvances.extId }),
  );
}
