import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { permissionFlags, type ContactEntity } from '@sportello/contracts';
import { storage } from '../../../../lib/storage';
import { portalSettings } from '../../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const CONTACT: ContactEntity = {
  contactId: 9,
  companyId: 3,
  referentName: 'Anna Bianchi',
  email: null,
  phone: null,
  permissions: Object.fromEntries(permissionFlags.map((f) => [f, false])) as ContactEntity['permissions'],
};

function api() {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url) => {
    const u = new URL(url, 'http://x');
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/admin/people/companies')
      return json({ items: [{ id: 3, companyName: 'Rossi Srl', contacts: 2, users: 1 }], nextCursor: null });
    if (u.pathname === '/api/staff/portals/demo/admin/contacts/9') return json(CONTACT);
    if (u.pathname === '/api/staff/portals/demo/admin/people/contacts/9/users')
      return json({ items: [], nextCursor: null });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

const posts = (calls: { init?: RequestInit }[]) => calls.filter((c) => c.init?.method === 'POST');

describe('companies and contacts: forms checked by the routes’ contracts', { timeout: 30_000 }, () => {
  it('lists the companies, and asks for a new one’s name instead of sending a blank one', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/companies');
    const user = userEvent.setup();
    const link = await screen.findByRole('link', { name: 'Rossi Srl' }, { timeout: 20_000 });
    expect(link.getAttribute('href')).toBe('/demo/staff/admin/companies/3');
    await user.click(screen.getByRole('button', { name: 'New company' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(screen.getByLabelText(/^Company name/), '   ');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(dialog.textContent).toMatch(/Required field/);
    expect(posts(calls)).toEqual([]);
  });

  it('says a user name has no spaces before inviting', async () => {
    const calls = api();
    renderApp('/demo/staff/admin/companies/3/contacts/9');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite' }, { timeout: 20_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.type(
      screen.getByLabelText(/^E-mail/, { selector: '[role=dialog] input' }),
      'anna@example.com',
    );
    await user.type(screen.getByLabelText(/^User name/), 'anna bianchi');
    await user.click(screen.getAllByRole('button', { name: 'Invite' }).at(-1)!);
    expect(await screen.findByText(/A user name has no spaces/)).toBeTruthy();
    expect(dialog.textContent).not.toMatch(/valid e-mail/);
    expect(posts(calls)).toEqual([]);
  });
});
