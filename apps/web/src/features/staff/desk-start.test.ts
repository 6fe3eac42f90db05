import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from '../../lib/storage';
import { startDeskRequests } from './desk-start';
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
    startDeskRequests(client, 'demo', '?view=mine');
    // The layout asking again (its own prefetch, its queries) finds them on their way.
    startDeskRequests(client, 'demo', '?view=mine');
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
