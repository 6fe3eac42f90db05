import type { ActivityReportsQuery } from '@sportello/contracts';

export const reportKeys = {
  all: (company: string, contactId: number) => ['reports', company.toLowerCase(), contactId] as const,
  list: (company: string, contactId: number, query: ActivityReportsQuery) =>
    [...reportKeys.all(company, contactId), 'list', query] as const,
  visibleTickets: (company: string, contactId: number) =>
    [...reportKeys.all(company, contactId), 'visibleTickets'] as const,
};
