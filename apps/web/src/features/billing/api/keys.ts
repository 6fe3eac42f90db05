import type { BillingQuery } from '@sportello/contracts';

export const billingKeys = {
  all: (company: string, contactId: number) => ['billing', company.toLowerCase(), contactId] as const,
  invoices: (company: string, contactId: number, query: BillingQuery) =>
    [...billingKeys.all(company, contactId), 'invoices', query] as const,
  estimates: (company: string, contactId: number, query: BillingQuery) =>
    [...billingKeys.all(company, contactId), 'estimates', query] as const,
  recurring: (company: string, contactId: number) =>
    [...billingKeys.all(company, contactId), 'recurring'] as const,
};
