import type { QueryClient } from '@tanstack/react-query';
import { afterContent } from '../../lib/first-content';
import { portalSettingsQuery } from '../../lib/tenant';
import { inboxQuery } from './api/inbox';
import { staffMeQuery } from './api/me';
import { deskOptionsQuery } from './api/options';
import { unreadQuery } from './api/unread';
import { filtersFromSearch, inboxQueryOf } from './inbox-url';

/**
 * What the inbox's first screen needs — the portal's settings (its time zone dates the rows), the view's
 * first page, and who the agent is (the header) — asked for as soon as the desk's code is here
 * (app/early-data.ts), not after the layout's first render: under a slow phone's CPU those three answers
 * were waited for, one round trip after the header was drawn, with the main thread idle. The layout's
 * queries find them in the cache or on their way (a query already asked for is not asked for again).
 */
export function startDeskRequests(client: QueryClient, company: string, search: string): void {
  // In the order the inbox uses them: its rows need the portal's time zone and themselves, not who the
  // agent is (the header's name and menu), and a server answering one at a time (PGlite) answers in this
  // order. As the layout asks for them: no retry (a portal that does not exist says so at once).
  void client.prefetchQuery({ ...portalSettingsQuery(company), retry: false });
  prefetchInbox(client, company, search);
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
