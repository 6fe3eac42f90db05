import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from '../../lib/storage';
import { startDeskRequests, startDeskTicketRequests } from './desk-start';
import { json, staffMe, stubFetch } from './desk-test-kit';

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('startDeskRequests', () => {
  it("asks for the agent, the portal's settings and the view of the address at once, and once", async () => {
    storage.set('staffToken', 'tok');
    const calls = stubFetch((url) => (url === '/api/staff/me' ? json(staffMe()) : json({})));
    const client = new QueryClient();
    window.history.replaceState(null, '', '/demo/staff?view=mine');
    startDeskRequests(client, 'demo');
    // The layout asking again (its own prefetch, its queries) finds them on their way.
    startDeskRequests(client, 'demo');
    await vi.waitFor(() => expect(client.getQueryData(['staff', 'me'])).toEqual(staffMe()));
    const paths = calls.map((c) => new URL(c.url, 'http://x').pathname);
    // The rows' needs first: a server answering one request at a time answers them first.
    expect(paths.slice(0, 3)).toEqual([
      '/api/Settings/portals/demo',
      '/api/staff/portals/demo/tickets',
      '/api/staff/me',
    ]);
    expect(paths.sort()).toEqual(
      [
        '/api/Settings/portals/demo',
        '/api/staff/me',
        '/api/staff/portals/demo/options',
        '/api/staff/portals/demo/tickets',
        '/api/staff/portals/demo/unread',
      ].sort(),
    );
    expect(calls.find((c) => c.url.includes('/tickets'))?.url).toContain('view=mine');
  });
});

describe('startDeskTicketRequests', () => {
  it("asks for the portal's settings, the ticket, whether it is merged and the agent at once, and once", async () => {
    storage.set('staffToken', 'tok');
    const calls = stubFetch((url) => (url === '/api/staff/me' ? json(staffMe()) : json({})));
    const client = new QueryClient();
    startDeskTicketRequests(client, 'demo', 5);
    // The page asking again (its own queries, under the server's spelling of the portal) finds them.
    startDeskTicketRequests(client, 'Demo', 5);
    await vi.waitFor(() => expect(client.getQueryData(['staff', 'me'])).toEqual(staffMe()));
    const paths = calls.map((c) => new URL(c.url, 'http://x').pathname);
    expect(paths).toEqual([
      '/api/Settings/portals/demo',
      '/api/staff/portals/demo/tickets/5',
      '/api/staff/portals/demo/tickets/5/merge',
      '/api/staff/me',
    ]);
  });
});
