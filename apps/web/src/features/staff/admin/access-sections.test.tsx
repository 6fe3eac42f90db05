import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccessMember, ApiKey, WebhookEndpoint } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const MEMBER: AccessMember = {
  id: 7,
  email: 'sara@desk.example',
  displayName: 'Sara Conti',
  role: 'agent',
  status: 'invited',
  groupIds: [],
  memberSince: '2026-11-20T10:00:00Z',
  lastSignInAt: null,
};
const KEY: ApiKey = {
  id: 3,
  name: 'ERP',
  prefix: 'sk_abc',
  scopes: ['read'],
  createdAt: '2026-11-20T10:00:00Z',
  rotatedAt: null,
  previousValidUntil: null,
  lastUsedAt: null,
  revokedAt: null,
  createdBy: { type: 'staff', name: 'Sara Conti' },
};

const HOOK: WebhookEndpoint = {
  id: 5,
  url: 'https://hooks.example/in',
  description: '',
  eventTypes: [],
  notifyEmail: null,
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: '2026-11-20T10:00:00Z',
  rotatedAt: null,
  previousValidUntil: null,
  createdBy: { type: 'api_key', name: 'ERP' },
};

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
      return json({ steps: [], types: [], groups: [{ id: 4, name: 'Billing' }], agents: [] });
    if (u.pathname === '/api/staff/portals/demo/admin/staff' && m === 'GET') return json([MEMBER]);
    if (u.pathname === '/api/staff/portals/demo/admin/staff' && m === 'POST')
      return json({ member: { ...MEMBER, id: 8, email: 'new@desk.example' } }, 201);
    if (u.pathname === '/api/staff/portals/demo/admin/staff/7/made')
      return json({ apiKeys: [KEY], webhookEndpoints: [HOOK] });
    if (u.pathname === '/api/staff/portals/demo/admin/staff/7' && m === 'DELETE')
      return new Response(null, { status: 204 });
    if (u.pathname === '/api/staff/portals/demo/admin/staff/7/role')
      return json({ code: 'last_admin', message: 'The portal would be left without an admin' }, 409);
    if (u.pathname === '/api/staff/portals/demo/admin/keys' && m === 'GET') return json([KEY]);
    if (u.pathname === '/api/staff/portals/demo/admin/keys/3/revoke')
      return json({ ...KEY, revokedAt: '2026-11-21T10:00:00Z' });
    if (u.pathname === '/api/staff/portals/demo/admin/keys' && m === 'POST')
      return json({ ...KEY, id: 4, name: 'CRM', secret: 'sk_secret_shown_once_1234567890' }, 201);
    if (u.pathname === '/api/staff/portals/demo/admin/webhooks') return json([HOOK]);
    if (u.pathname === '/api/staff/portals/demo/admin/webhooks/5' && m === 'PATCH')
      return json({ ...HOOK, ...(JSON.parse(String(init!.body)) as object) });
    if (u.pathname === '/api/staff/portals/demo/admin/webhooks/5/rotate')
      return json({
        ...HOOK,
        rotatedAt: '2026-11-20T10:00:00Z',
        previousValidUntil: '2026-11-21T10:00:00Z',
        secret: 'whsec_rotated_shown_once_0123456789',
      });
    if (u.pathname === '/api/staff/portals/demo/admin/webhooks/5/replay') return json({ queued: 3 });
    if (u.pathname === '/api/staff/me/preferences')
      return json(
        m === 'PUT'
          ? { emailNewTicket: true, emailCustomerReply: false }
          : { emailNewTicket: true, emailCustomerReply: true },
      );
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('desk administration: staff and integrations', { timeout: 30_000 }, () => {
  it('lists the staff, invites with role and groups, and shows a refused role change', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/staff');
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Sara Conti/ });
    expect(within(row).getByText('Invited')).toBeTruthy();
    await user.type(screen.getByLabelText(/^E-mail/), 'new@desk.example');
    await user.type(screen.getByLabelText(/^Display name/), 'Nuova Agente');
    await user.selectOptions(screen.getAllByLabelText('Role')[0]!, 'admin');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Invitation sent to new@desk.example.')).toBeTruthy();
    const post = calls.find((c) => c.init?.method === 'POST' && c.url.endsWith('/admin/staff'))!;
    expect(JSON.parse(String(post.init!.body))).toEqual({
      email: 'new@desk.example',
      displayName: 'Nuova Agente',
      role: 'admin',
      groupIds: [],
    });
    await user.selectOptions(screen.getByLabelText('Role of Sara Conti'), 'admin');
    expect(await screen.findByRole('alert')).toBeTruthy();
  });

  it('removing a member lists what they made and revokes it in the same step when asked', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/staff');
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Sara Conti/ });
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByTestId('lose-access');
    expect(await within(dialog).findByText('https://hooks.example/in')).toBeTruthy();
    expect(within(dialog).getByText('sk_abc…')).toBeTruthy();
    const box = within(dialog).getByRole('checkbox', {
      name: 'Also revoke these keys and disable these endpoints',
    });
    expect((box as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('sara@desk.example removed from this portal.')).toBeTruthy();
    const del = calls.find((c) => c.init?.method === 'DELETE')!;
    expect(JSON.parse(String(del.init!.body))).toEqual({ revokeMade: true });
  });

  it('shows who made each key and endpoint', async () => {
    api();
    renderApp('/demo/staff/admin/integrations');
    expect(await screen.findByRole('cell', { name: 'Sara Conti' })).toBeTruthy();
    expect(await screen.findByText('Made by key ERP')).toBeTruthy();
  });

  it('shows a new key’s secret once, with a copy button and the warning', async () => {
    api();
    renderApp('/demo/staff/admin/integrations');
    const user = userEvent.setup();
    expect(await screen.findByText('sk_abc…')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Name/), 'CRM');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('sk_secret_shown_once_1234567890')).toBeTruthy();
    expect(screen.getByText(/shown only this once/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('sk_secret_shown_once_1234567890')).toBeNull());
  });

  it('revokes a key after a confirmation that says what stops working', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/integrations');
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /ERP/ });
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/Revoke the key ERP\? Programs using it stop working at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/admin/keys/3/revoke'))).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('checks a new endpoint’s address with the contract’s rule before sending it', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/integrations');
    const user = userEvent.setup();
    const address = await screen.findByLabelText(/^Address/);
    await user.type(address, 'ftp://hooks.example/in');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText(/Not a web address/)).toBeTruthy();
    expect(calls.some((c) => c.init?.method === 'POST' && c.url.endsWith('/admin/webhooks'))).toBe(false);
  });

  it('edits a webhook endpoint, rotates its secret with the overlap explained, and replays from a cursor', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/integrations');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit https://hooks.example/in' }));
    const card = screen.getByTestId('webhook-5');
    const save = within(card).getByRole('button', { name: 'Save changes' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    const address = within(card).getByLabelText(/^Address/);
    await user.clear(address);
    await user.type(address, 'https://hooks.example/v2');
    await user.click(within(card).getByRole('switch', { name: 'Enabled' }));
    await user.click(save);
    expect(await within(card).findByText('Changes saved.')).toBeTruthy();
    const patch = calls.find((c) => c.init?.method === 'PATCH')!;
    expect(JSON.parse(String(patch.init!.body))).toEqual({ url: 'https://hooks.example/v2', enabled: false });

    await user.click(within(card).getByRole('button', { name: 'New signing secret' }));
    expect(await within(card).findByText('whsec_rotated_shown_once_0123456789')).toBeTruthy();
    expect(within(card).getByTestId('rotation-overlap').textContent).toMatch(
      /old secret also signs every delivery until/,
    );

    const cursor = within(card).getByLabelText(/feed cursor/);
    await user.type(cursor, 'yesterday');
    expect(within(card).getByText(/Not a feed cursor/)).toBeTruthy();
    const send = within(card).getByRole('button', { name: 'Send kept events again' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    await user.clear(cursor);
    await user.type(cursor, '120-45');
    await user.click(send);
    expect(await within(card).findByText('3 events queued again.')).toBeTruthy();
    const replay = calls.find((c) => c.url.endsWith('/webhooks/5/replay'))!;
    expect(JSON.parse(String(replay.init!.body))).toEqual({ after: '120-45' });
  });

  it('opens the agent’s preferences from the user menu and saves a switch at once', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/staff');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Account of/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Preferences' }));
    const reply = await screen.findByRole('switch', { name: /replies/ });
    expect((reply as HTMLInputElement).checked).toBe(true);
    await user.click(reply);
    await waitFor(() => expect((reply as HTMLInputElement).checked).toBe(false));
    const put = calls.find((c) => c.init?.method === 'PUT' && c.url.endsWith('/api/staff/me/preferences'))!;
    expect(JSON.parse(String(put.init!.body))).toEqual({ emailCustomerReply: false });
  });
});
