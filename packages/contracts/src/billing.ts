// Schemas of the billing area: requests and answers, shared by the API and the web app.
import { z } from 'zod';
import { dayOrMinuteString, dayString, isoDateTime } from './common';
import { localDay, todayIn } from './time-zone';
import { tenantParams } from './common';
import { defineRoute } from './route';

/** Invoices by invoiceDate, estimates by estimateCreationDate, within [from, to] (portal time zone). */
export const billingQuerySchema = z.object({
  from: dayString.optional(),
  to: dayOrMinuteString.optional(),
});
export type BillingQuery = z.infer<typeof billingQuerySchema>;

/**
 * An invoice's payment as the back office tracks it: paid; due (by its due date, not yet passed); or
 * overdue (its due date is a day before today in the portal's time zone). null when the back office
 * sent neither a due date nor a payment.
 */
export const invoicePaymentSchema = z.enum(['paid', 'due', 'overdue']);
export type InvoicePayment = z.infer<typeof invoicePaymentSchema>;

export function invoicePayment(
  i: { dueDate: string | null; paidDate: string | null },
  now: Date,
  timeZone: string,
): InvoicePayment | null {
  if (i.paidDate !== null) return 'paid';
  if (i.dueDate === null) return null;
  return localDay(i.dueDate, timeZone) < todayIn(timeZone, now) ? 'overdue' : 'due';
}

export const invoiceSchema = z.object({
  id: z.number().int(),
  documentNumber: z.string(),
  /** Euro. */
  total: z.number(),
  invoiceDate: isoDateTime,
  dueDate: isoDateTime.nullable(),
  paidDate: isoDateTime.nullable(),
  payment: invoicePaymentSchema.nullable(),
  /** Signed, expiring URL. */
  invoiceDocumentUrl: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export const invoiceListSchema = z.array(invoiceSchema);

export const estimateSchema = z.object({
  id: z.number().int(),
  estimateName: z.string(),
  estimateNumber: z.string(),
  /** Shown when above 0. */
  revisionNumber: z.number().int(),
  /** Euro, shown with 2 decimals. */
  total: z.number(),
  estimateCreationDate: isoDateTime,
  estimateDocumentUrl: z.string(),
});
export type Estimate = z.infer<typeof estimateSchema>;
export const estimateListSchema = z.array(estimateSchema);

export const RECURRENCE_WEEKLY = 10;
export const RECURRENCE_MONTHLY = 20;
export const RECURRENCE_YEARLY = 30;

/** 10: every frequencyWeek weeks on recurrenceDayOfWeek (1 Monday … 7 Sunday); 20: every frequencyMonth months on recurrenceDay; 30: yearly on recurrenceDay/recurrenceMonth. */
export const recurrenceTriggerSchema = z.object({
  recurrenceType: z.number().int(),
  frequencyWeek: z.number().int().nullable(),
  recurrenceDayOfWeek: z.number().int().nullable(),
  frequencyMonth: z.number().int().nullable(),
  recurrenceDay: z.number().int().nullable(),
  recurrenceMonth: z.number().int().nullable(),
});
export type RecurrenceTrigger = z.infer<typeof recurrenceTriggerSchema>;

export const recurringAdvanceSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  description: z.string(),
  quantity: z.number(),
  taxedTotal: z.number(),
  /** Next billing date. */
  advanceDate: isoDateTime,
  trigger: recurrenceTriggerSchema,
});
export type RecurringAdvance = z.infer<typeof recurringAdvanceSchema>;
export const recurringAdvanceListSchema = z.array(recurringAdvanceSchema);

// --- Routes (see route.ts) ---

export const billingRoutes = {
  invoices: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/invoices',
    params: tenantParams,
    query: billingQuerySchema,
    responses: { 200: invoiceListSchema },
    access: { guard: 'tenant', flag: 'viewContactInvoices' },
    tags: ['billing'],
    summary: "The company's invoices, newest first (filter on invoiceDate)",
  }),
  estimates: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/estimates',
    params: tenantParams,
    query: billingQuerySchema,
    responses: { 200: estimateListSchema },
    access: { guard: 'tenant', flag: 'viewEstimates' },
    tags: ['billing'],
    summary: "The company's estimates, newest first (filter on estimateCreationDate)",
  }),
  recurring: defineRoute({
    method: 'GET',
    path: '/api/:company/:contactid/jobadvances/recurring',
    params: tenantParams,
    responses: { 200: recurringAdvanceListSchema },
    access: { guard: 'tenant', flag: 'viewRecurringAdvances' },
    tags: ['billing'],
    summary: "The company's recurring advances (active subscriptions)",
  }),
};
