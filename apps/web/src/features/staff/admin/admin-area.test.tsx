import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditPage } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch, where } from '../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const PAGE: AuditPage = {
  items: [
    {
      id: 2,
      occurredAt: '2026-11-20T10:00:00Z',
      actor: { type: 'staff', id: 7, name: 'sara@desk.example' },
      entity: 'contact',
      entityId: '150',
      action: 'updated',
      before: { referentName: 'Old name' },
      after: { referentName: 'New name' },
    },
  ],
  nextCursor: null,
};

function adminApi(role: 'agent' | 'admin') {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url) => {
    const u = new URL(url, 'http://x');
    if (u.pathname === '/api/staff/me') return json(staffMe(role));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/admin/audit-log') return json(PAGE);
    if (u.pathname === '/api/staff/portals/demo/admin/audit-log.csv')
      return new Response('id,occurredAt\n2,2026-11-20T10:00:00Z\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv' },
      });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('desk administration', { timeout: 30_000 }, () => {
  it('tells an agent that only admins administer, and shows them no link to it', async () => {
    adminApi('agent');
    renderApp('/demo/staff/admin/audit');
    await screen.findByText(/Only the portal's administrators/);
    expect(screen.queryByRole('link', { name: 'Administration' })).toBeNull();
  });

  it("names the open section in the phone's section menu, also one whose key is not its path", async () => {
    adminApi('admin');
    renderApp('/demo/staff/admin/ticket-setup');
    const menu = await screen.findByRole('combobox', { name: 'Administration sections' });
    await waitFor(() => expect((menu as HTMLSelectElement).value).toBe('ticket-setup'));
  });

  it('lists the audit log for an admin, filters it through the address, shows before and after', async () => {
    const calls = adminApi('admin');
    renderApp('/demo/staff/admin');
    const user = userEvent.setup();
    expect(await screen.findByRole('link', { name: 'Administration' })).toBeTruthy();
    const menu = await screen.findByRole('navigation', { name: 'Administration sections' });
    await user.click(within(menu).getByRole('link', { name: 'Audit log' }));
    expect(within(menu).getByRole('link', { name: 'Audit log' }).getAttribute('aria-current')).toBe('page');
    const row = await screen.findByRole('row', { name: /sara@desk\.example/ });
    expect(within(row).getByText('Contact')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Entity'), 'contact');
    await waitFor(() => expect(where()).toBe('/demo/staff/admin/audit?entity=contact'));
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('/admin/audit-log?entity=contact'))).toBe(true),
    );
    const auditCall = calls.find((c) => c.url.includes('/admin/audit-log?'))!;
    expect(new Headers(auditCall.init?.headers).get('Authorization')).toBe('Bearer staff-token');
    await user.click(screen.getByRole('button', { name: /2026|20\/11|11\/20/ }));
    expect(await screen.findByText(/New name/)).toBeTruthy();
  });

  it('exports the filtered log as CSV with the staff token', async () => {
    const calls = adminApi('admin');
    const created = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    renderApp('/demo/staff/admin/audit?action=updated');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    const csv = calls.find((c) => c.url.includes('/audit-log.csv'))!;
    expect(csv.url).toContain('action=updated');
    const headers = new Headers(csv.init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer staff-token');
    expect(headers.get('Accept')).toBe('text/csv');
  });
});
