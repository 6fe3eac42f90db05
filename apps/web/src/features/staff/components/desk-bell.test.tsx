// The desk's bell (issue 28): the unread count in the header, the list, mark read, the ticket's link;
// and the inbox's saved views beside the fixed ones.
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InboxAnswer, SavedViewList, StaffNotificationList, StaffOptions } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch, where, type Call } from '../desk-test-kit';
import { bellCountText } from './desk-bell';

const OPTIONS: StaffOptions = {
  steps: [{ id: 1, name: 'New', taskStatus: 0, isDefault: true, isClosing: false }],
  types: [{ id: 1, name: 'Fault', color: '#e03131' }],
  groups: [],
  agents: [{ id: 2, displayName: 'Sara Conti', staffUserId: 7 }],
  ticketTags: [],
  lowRatingThreshold: 2,
  me: { staffUserId: 7, agentId: 2, groupIds: [] },
};
const COUNTS = { unassigned: 0, mine: 0, groups: 0, waiting: 0, breaching: 0, open: 0, closed: 0 };
const EMPTY_INBOX: InboxAnswer = { items: [], counts: COUNTS, countCap: 1000, nextCursor: null };
const NOTICES: StaffNotificationList = {
  unread: 2,
  nextCursor: null,
  items: [
    {
      id: '00000000-0000-4000-8000-000000000001',
      kind: 'assigned',
      ticketId: 7001,
      ticketNumber: '2026/0042',
      title: 'Printer jam',
      actor: 'Marco Bianchi',
      rating: null,
      sla: null,
      createdAt: '2026-11-18T09:30:00Z',
      read: false,
    },
    {
      id: '00000000-0000-4000-8000-000000000002',
      kind: 'low_rating',
      ticketId: 7002,
      ticketNumber: '2026/0043',
      title: 'Slow answer',
      actor: 'Anna Verdi',
      rating: 1,
      sla: null,
      createdAt: '2026-11-18T08:30:00Z',
      read: false,
    },
    {
      id: '00000000-0000-4000-8000-000000000003',
      kind: 'sla_breach',
      ticketId: 7003,
      ticketNumber: '2026/0044',
      title: 'VPN down',
      actor: '',
      rating: null,
      sla: { target: 'first_response', dueAt: '2026-11-18T07:00:00Z' },
      createdAt: '2026-11-18T07:00:30Z',
      read: true,
    },
  ],
};
const VIEWS: SavedViewList = {
  countCap: 1000,
  items: [
    {
      id: 5,
      name: 'Urgent open',
      query: { view: 'open', priority: 'urgent', sort: 'activity' },
      shared: false,
      mine: true,
      owner: 'Sara Conti',
      count: 4,
    },
  ],
};

const SHARED = {
  id: 7,
  name: 'Team: waiting',
  query: { view: 'waiting' as const, sort: 'activity' as const },
  shared: true,
  mine: false,
  owner: 'Marco Ferri',
  count: 12,
};

function deskApi(state: { unread: number }, role: 'agent' | 'admin' = 'agent') {
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const method = init?.method ?? 'GET';
    const p = u.pathname;
    if (p === '/api/staff/me') return json(staffMe(role));
    if (p === '/api/staff/portals/demo/views/7/shared' && method === 'PUT')
      return json({ ...SHARED, shared: false });
    if (p === '/api/Settings/portals/demo') return json(portalSettings({ disableHtmlEditor: true }));
    if (p === '/api/staff/portals/demo/options') return json(OPTIONS);
    if (p === '/api/staff/portals/demo/unread')
      return json({ unread: COUNTS, counts: COUNTS, countCap: 1000, version: 'v1' });
    if (p === '/api/staff/portals/demo/tickets' && method === 'GET') return json(EMPTY_INBOX);
    if (p === '/api/staff/portals/demo/notifications/count') return json({ unread: state.unread });
    if (p === '/api/staff/portals/demo/notifications') return json({ ...NOTICES, unread: state.unread });
    if (p === '/api/staff/portals/demo/notifications/read' && method === 'POST') {
      const body = JSON.parse(String(init?.body)) as { all?: true; ids?: string[] };
      state.unread = body.all ? 0 : state.unread - (body.ids?.length ?? 0);
      return json({ unread: state.unread });
    }
    if (p === '/api/staff/portals/demo/views' && method === 'GET')
      return json({ ...VIEWS, items: [...VIEWS.items, SHARED] });
    if (p === '/api/staff/portals/demo/views' && method === 'POST')
      return json({ ...VIEWS.items[0], id: 6, name: 'Mine', count: 0 }, 201);
    return undefined;
  });
}

const sent = (calls: Call[], method: string, path: string) =>
  calls.filter((c) => c.init?.method === method && new URL(c.url, 'http://x').pathname === path);

configure({ asyncUtilTimeout: 8000 });

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('the bell', { timeout: 60_000 }, () => {
  it('caps the count it shows', () => {
    expect(bellCountText(0)).toBe('0');
    expect(bellCountText(99)).toBe('99');
    expect(bellCountText(100)).toBe('99+');
  });

  it('shows the unread count, lists the notices, marks all read', async () => {
    storage.set('staffToken', 'staff-token');
    const state = { unread: 2 };
    const calls = deskApi(state);
    renderApp('/demo/staff');
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(within(screen.getByTestId('bell-count')).getByText('2')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(bell);
    const panel = await screen.findByTestId('bell-panel');
    expect(await within(panel).findByText('Marco Bianchi assigned you 2026/0042')).toBeTruthy();
    expect(within(panel).getByText('Anna Verdi rated 2026/0043 1/5')).toBeTruthy();
    // A service-level notice names its target and that target's due time (the portal's clock).
    const breach = within(panel).getByTestId('bell-item-sla_breach');
    expect(within(breach).getByText('2026/0044 breached its service level')).toBeTruthy();
    expect(within(breach).getByTestId('bell-item-sla').textContent).toBe(
      'First response: was due 18/11/2026 08:00',
    );
    expect(within(panel).getAllByTestId('bell-item-sla')).toHaveLength(1);
    await user.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() =>
      expect(sent(calls, 'POST', '/api/staff/portals/demo/notifications/read')).toHaveLength(1),
    );
    expect(
      JSON.parse(String(sent(calls, 'POST', '/api/staff/portals/demo/notifications/read')[0]!.init!.body)),
    ).toEqual({
      all: true,
    });
    await screen.findByRole('button', { name: 'Notifications' });
  });

  it("opens a notice's ticket and marks it read", async () => {
    storage.set('staffToken', 'staff-token');
    const state = { unread: 2 };
    const calls = deskApi(state);
    renderApp('/demo/staff');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByText('Marco Bianchi assigned you 2026/0042'));
    await waitFor(() => expect(where()).toBe('/demo/staff/tickets/7001'));
    const marked = sent(calls, 'POST', '/api/staff/portals/demo/notifications/read');
    expect(JSON.parse(String(marked[0]!.init!.body))).toEqual({ ids: [NOTICES.items[0]!.id] });
  });
});

describe('saved views', { timeout: 60_000 }, () => {
  it('shows each with its count, and saves the current filters without the search words', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi({ unread: 0 });
    renderApp('/demo/staff?view=mine&priority=high&sort=due&q=printer');
    const link = await screen.findByTestId('saved-view-5');
    expect(link.textContent).toContain('Urgent open');
    expect(within(link).getByText('4')).toBeTruthy();
    expect(link.getAttribute('href')).toBe('/demo/staff?priority=urgent');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('save-view'));
    await user.click(await screen.findByTestId('saved-view-name'));
    await user.paste('Mine');
    await user.click(screen.getByTestId('saved-view-submit'));
    await waitFor(() => expect(sent(calls, 'POST', '/api/staff/portals/demo/views')).toHaveLength(1));
    expect(JSON.parse(String(sent(calls, 'POST', '/api/staff/portals/demo/views')[0]!.init!.body))).toEqual({
      name: 'Mine',
      query: { view: 'mine', priority: 'high', sort: 'due' },
    });
  });
});

describe('shared views in the administration', { timeout: 60_000 }, () => {
  it('lists the shared views only, with who made them and their counts, and stops sharing one', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi({ unread: 0 }, 'admin');
    renderApp('/demo/staff/admin/shared-views');
    const list = await screen.findByTestId('shared-views');
    const link = await within(list).findByRole('link', { name: 'Team: waiting' });
    expect(link.getAttribute('href')).toBe('/demo/staff?view=waiting');
    expect(within(list).getByText('Marco Ferri')).toBeTruthy();
    expect(within(list).getByText('12')).toBeTruthy();
    expect(within(list).queryByText('Urgent open')).toBeNull();
    await userEvent.setup().click(within(list).getByRole('button', { name: 'Stop sharing' }));
    await waitFor(() => expect(sent(calls, 'PUT', '/api/staff/portals/demo/views/7/shared')).toHaveLength(1));
    expect(
      JSON.parse(String(sent(calls, 'PUT', '/api/staff/portals/demo/views/7/shared')[0]!.init!.body)),
    ).toEqual({
      shared: false,
    });
  });
  it('asks for a name before renaming a shared view', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi({ unread: 0 }, 'admin');
    renderApp('/demo/staff/admin/shared-views');
    const list = await screen.findByTestId('shared-views');
    const user = userEvent.setup();
    await user.click(await within(list).findByRole('button', { name: 'Rename' }));
    await user.clear(within(list).getByLabelText(/^Name/));
    await user.type(within(list).getByLabelText(/^Name/), '  ');
    await user.click(within(list).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('Required field')).toBeTruthy();
    expect(sent(calls, 'PATCH', '/api/staff/portals/demo/views/7')).toHaveLength(0);
  });
});
