import type { InboxApiQuery } from '../inbox-url';

/** Query keys of the desk, under one root so signing out drops them all. */
export const staffKeys = {
  all: ['staff'] as const,
  me: () => ['staff', 'me'] as const,
  portal: (company: string) => ['staff', 'portal', company.toLowerCase()] as const,
  inbox: (company: string, query: InboxApiQuery) => [...staffKeys.portal(company), 'inbox', query] as const,
  inboxes: (company: string) => [...staffKeys.portal(company), 'inbox'] as const,
  ticket: (company: string, ticketId: number) => [...staffKeys.portal(company), 'ticket', ticketId] as const,
  unread: (company: string) => [...staffKeys.portal(company), 'unread'] as const,
  link: (token: string) => ['staff', 'link', token] as const,
};
