import type { ContractsQuery } from '@sportello/contracts';

export const contractKeys = {
  all: (company: string, contactId: number) => ['contracts', company.toLowerCase(), contactId] as const,
  activity: (company: string, contactId: number, query: ContractsQuery) =>
    [...contractKeys.all(company, contactId), 'activity', query] as const,
  service: (company: string, contactId: number, query: ContractsQuery) =>
    [...contractKeys.all(company, contactId), 'service', query] as const,
  tags: (company: string) => ['tags', company.toLowerCase()] as const,
};
