import type { QueryClient } from '@tanstack/react-query';
import { loadRestTextsAtStart } from '../../i18n';
import { afterContent } from '../../lib/first-content';
import { portalSettingsQuery } from '../../lib/tenant';
import { loadRestStyles } from '../../styles/load-rest-styles';
import { inboxQuery } from './api/inbox';
import { mergeStateQuery } from './api/merge';
import { staffMeQuery } from './api/me';
import { staffTicketQuery } from './api/ticket';
import { deskOptionsQuery } from './api/options';
import { unreadQuery } from './api/unread';
import { loadStaffTexts } from './i18n';
import { filtersFromSearch, inboxQueryOf } from './inbox-url';

/** A ticket's address on the desk, `/:company/staff/tickets/:ticketid` (its number). */
const TICKET_ADDRESS = /^\/[^/]+\/staff\/tickets\/(\d+)\/?$/i;

/**
 * On a first load of the inbox or of a ticket (app/early-data.ts), what its first screen needs, asked for
 * as soon as the desk's code is here: before the first render, so the address is still the one loaded.
 */
export function startDeskRequests(client: QueryClient, company: string): void {
  const ticket = TICKET_ADDRESS.exec(window.location.pathname);
  if (ticket) {
    // The page's code (announced by desk-ticket.html, so mostly here already), styles and texts too.
    void import('./staff-ticket-page').catch(() => {});
    void loadRestStyles().catch(() => {});
    void loadRestTextsAtStart().catch(() => {});
    void loadStaffTexts().catch(() => {});
    startDeskTicketRequests(client, company, Number(ticket[1]));
  } else startInboxRequests(client, company, window.location.search);
}

/**
 * What the inbox's first screen needs — the portal's settings (its time zone dates the rows), the view's
 * first page, and who the agent is (the header) — asked for as soon as the desk's code is here
 * (app/early-data.ts), not after the layout's first render: under a slow phone's CPU those three answers
 * were waited for, one round trip after the header was drawn, with the main thread idle. The layout's
 * queries find them in the cache or on their way (a query already asked for is not asked for again).
 */
function startInboxRequests(client: QueryClient, company: string, search: string): void {
  // In the order the inbox uses them: its rows need the portal's time zone and themselves, not who the
  // agent is (the header's name and menu), and a server answering one at a time (PGlite) answers in this
  // order. As the layout asks for them: no retry (a portal that does not exist says so at once).
  void client.prefetchQuery({ ...portalSettingsQuery(company), retry: false });
  prefetchInbox(client, company, search);
  void client.prefetchQuery(staffMeQuery());
}

/**
 * What a desk ticket's first screen needs, asked for as the desk's code comes (app/early-data.ts), as the
 * inbox's: the portal's settings (the header, the dates' zone), the ticket with its conversation, whether
 * it is merged (the page draws that line above the conversation with it, so nothing moves), and who the
 * agent is (the desk's pages but the inbox wait for it). In the order the page uses them, as the layout
 * and the page ask for them.
 */
export function startDeskTicketRequests(client: QueryClient, company: string, ticketId: number): void {
  // A number the page refuses (not found) is not asked for.
  if (!Number.isSafeInteger(ticketId) || ticketId < 1) return;
  void client.prefetchQuery({ ...portalSettingsQuery(company), retry: false });
  void client.prefetchQuery(staffTicketQuery(company, ticketId));
  void client.prefetchQuery(mergeStateQuery(company, ticketId));
  void client.prefetchQuery(staffMeQuery());
}

/**
 * The inbox's opening page, and the counts and pickers' options it shows next: asked for together (the
 * layout does on the inbox, startDeskRequests earlier), not each after its component has rendered. The
 * counts and options once the rows are shown (lib/first-content, as their hooks): their requests and
 * answers took a slow phone's main thread before the rows, which need neither.
 */
export function prefetchInbox(client: QueryClient, company: string, search: string): void {
  const filters = filtersFromSearch(new URLSearchParams(search));
  void client.prefetchInfiniteQuery(inboxQuery(company, inboxQueryOf(filters)));
  void afterContent().then(() => {
    void client.prefetchQuery(unreadQuery(company));
    void client.prefetchQuery(deskOptionsQuery(company));
  });
}
