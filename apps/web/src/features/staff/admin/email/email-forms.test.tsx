import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from '../../../../lib/storage';
import { portalSettings } from '../../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

function api() {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url) => {
    const u = new URL(url, 'http://x');
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/admin/email/mailbox') return json({ mailbox: null });
    if (u.pathname === '/api/staff/portals/demo/email/inbound') return json({ items: [], nextBefore: null });
    if (u.pathname === '/api/staff/portals/demo/email/bounces') return json({ items: [] });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('the support mailbox form', { timeout: 30_000 }, () => {
  it('checks the address with the save route’s schema before sending', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/email');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Support mailbox' }, { timeout: 20_000 });
    await user.type(within(form).getByLabelText(/^Support address/), 'support-at-example');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Please enter a valid e-mail address')).toBeTruthy();
    expect(calls.some((c) => c.init?.method === 'PUT')).toBe(false);
  });
});
