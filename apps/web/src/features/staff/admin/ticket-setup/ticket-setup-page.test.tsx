import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccessMember } from '@sportello/contracts';
import { storage } from '../../../../lib/storage';
import { portalSettings } from '../../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const member = (id: number, displayName: string, groupIds: number[]): AccessMember => ({
  id,
  email: `${displayName.split(' ')[0]!.toLowerCase()}@desk.example`,
  displayName,
  role: 'agent',
  status: 'active',
  groupIds,
  memberSince: '2026-11-20T10:00:00Z',
  lastSignInAt: null,
});

function api() {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const m = init?.method ?? 'GET';
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/options')
      return json({
        steps: [],
        types: [{ id: 1, name: 'Fault', color: null }],
        groups: [{ id: 4, name: 'Billing' }],
        agents: [],
        me: { staffUserId: 7, agentId: null, groupIds: [] },
      });
    if (u.pathname === '/api/staff/portals/demo/admin/staff')
      return json([member(7, 'Sara Conti', [4]), member(8, 'Marco Ferri', [])]);
    if (u.pathname === '/api/staff/portals/demo/admin/ticket-setup/groups/4/members' && m === 'PUT')
      return json({ id: 4, name: 'Billing', staffIds: [7, 8] });
    if (u.pathname === '/api/staff/portals/demo/admin/triage' && m === 'GET') return json({ group: null });
    if (u.pathname === '/api/staff/portals/demo/admin/triage' && m === 'PUT')
      return json({ group: { id: 4, name: 'Billing' } });
    if (u.pathname === '/api/staff/portals/demo/admin/ticket-setup/types' && m === 'POST')
      return json({ code: 'name_taken', message: 'Another ticket type is named "fault"' }, 409);
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('ticket setup: group members and names', { timeout: 30_000 }, () => {
  it("shows a group's members and saves a member added from the group", async () => {
    const calls = api();
    renderApp('/demo/staff/admin/ticket-setup');
    const user = userEvent.setup();
    const [members] = (await screen.findAllByLabelText('Members of Billing')).filter(
      (e) => e instanceof HTMLInputElement && e.type !== 'hidden',
    );
    await waitFor(() => expect(screen.getByText('Sara Conti')).toBeTruthy());
    await user.click(members!);
    await user.click(await screen.findByRole('option', { name: 'Marco Ferri' }));
    await waitFor(() =>
      expect(calls.some((c) => c.init?.method === 'PUT' && c.url.endsWith('/groups/4/members'))).toBe(true),
    );
    const put = calls.find((c) => c.init?.method === 'PUT' && c.url.endsWith('/groups/4/members'))!;
    expect(JSON.parse(String(put.init!.body))).toEqual({ staffIds: [7, 8] });
  });

  it('says in words that a name is taken', async () => {
    api();
    renderApp('/demo/staff/admin/ticket-setup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New ticket type'), 'fault');
    await user.click(screen.getAllByRole('button', { name: 'Add' })[1]!);
    expect((await screen.findByRole('alert')).textContent).toMatch(/already has this name/);
  });

  it('asks for a name before adding, by the create route’s rule', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/ticket-setup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New ticket type'), '   ');
    await user.click(screen.getAllByRole('button', { name: 'Add' })[1]!);
    expect(await screen.findByText('Required field')).toBeTruthy();
    expect(calls.some((c) => c.init?.method === 'POST')).toBe(false);
  });

  it('chooses the group told of unrouted tickets, the admins until then', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/ticket-setup');
    const user = userEvent.setup();
    const select = (await screen.findAllByLabelText('Notify')).find(
      (e) => e instanceof HTMLInputElement && e.type !== 'hidden',
    ) as HTMLInputElement;
    await waitFor(() => expect(select.value).toBe("The portal's admins"));
    const save = () => screen.getAllByRole('button', { name: 'Save' }).at(-1)!;
    expect(save().hasAttribute('disabled')).toBe(true);
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'Billing' }));
    await user.click(save());
    expect((await screen.findByRole('status')).textContent).toMatch(/unrouted tickets now go/);
    const put = calls.find((c) => c.init?.method === 'PUT' && c.url.endsWith('/admin/triage'))!;
    expect(JSON.parse(String(put.init!.body))).toEqual({ groupId: 4 });
    // The form shows what the server kept.
    const kept = screen
      .getAllByLabelText('Notify')
      .find((e) => e instanceof HTMLInputElement && e.type !== 'hidden') as HTMLInputElement;
    expect(kept.value).toBe('Billing');
  });
});
