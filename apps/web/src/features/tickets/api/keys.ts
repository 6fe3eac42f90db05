import type { AllTicketsQuery, TicketListQuery } from '@sportello/contracts';

/**
 * Query keys of the tickets area. Every key of one contact starts with `tickets.all(company, contactId)`,
 * so a mutation invalidates the lists and the details of that contact with one call.
 */
export const ticketKeys = {
  all: (company: string, contactId: number) => ['tickets', company.toLowerCase(), contactId] as const,
  mine: (company: string, contactId: number, query: TicketListQuery) =>
    [...ticketKeys.all(company, contactId), 'mine', query] as const,
  company: (company: string, contactId: number, query: AllTicketsQuery) =>
    [...ticketKeys.all(company, contactId), 'company', query] as const,
  detail: (company: string, contactId: number, ticketId: number) =>
    [...ticketKeys.all(company, contactId), 'detail', ticketId] as const,
  types: (company: string) => ['ticketTypes', company.toLowerCase()] as const,
  colleagues: (company: string, contactId: number) =>
    ['colleagues', company.toLowerCase(), contactId] as const,
  wikiElements: (company: string, contactId: number) =>
    ['ticketWikiElements', company.toLowerCase(), contactId] as const,
};
