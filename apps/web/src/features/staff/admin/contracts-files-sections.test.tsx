import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicFileEntity, ServiceContractEntity } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const CONTRACT: ServiceContractEntity = {
  id: 5,
  companyId: 1,
  name: 'Manutenzione server',
  status: 1,
  activeFrom: '2026-01-01T00:00:00.000Z',
  activeTo: null,
  tagIds: [],
  wikiElementIds: [],
  documents: [{ id: 1, documentName: 'Condizioni', fileId: 44 }],
  packages: [
    {
      id: 1,
      name: 'Interventi on-site',
      unitsText: '10 interventi',
      residualText: '8 rimasti',
      activities: [
        {
          id: 1,
          activityTypeName: 'Intervento',
          start: '2026-02-01T09:00:00.000Z',
          durationMinutes: 60,
          units: 1,
          assignedUser: 'Marco',
          addressType: 0,
          activityLocation_Address: null,
          reportFileId: 90,
        },
      ],
    },
  ],
};
const FILE: PublicFileEntity = {
  id: 3,
  fileName: 'Listino 2027',
  file: { id: 70, name: 'listino.pdf', contentType: 'application/pdf', size: 2048 },
};

function api(serviceSwitch: boolean) {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const m = init?.method ?? 'GET';
    const admin = '/api/staff/portals/demo/admin';
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/options')
      return json({ steps: [], types: [], groups: [], agents: [] });
    if (u.pathname === `${admin}/settings`) return json({ enableServiceContracts: serviceSwitch });
    if (u.pathname === `${admin}/company-picker`)
      return json({ items: [{ id: 1, companyName: 'Rossi Impianti Srl' }] });
    if (u.pathname === `${admin}/activity-contracts` || u.pathname === `${admin}/subscriptions`)
      return json({ items: [] });
    if (u.pathname === `${admin}/service-contracts`) return json({ items: [CONTRACT] });
    if (u.pathname === `${admin}/service-contracts/5` && m === 'PATCH')
      return json({ ...CONTRACT, ...JSON.parse(String(init!.body)) });
    if (u.pathname === `${admin}/service-contracts/5` && m === 'DELETE')
      return new Response(null, { status: 204 });
    if (u.pathname === '/api/settings/demo/tags')
      return json([{ id: 2, name: 'Server', tagGroupName: 'Asset' }]);
    if (u.pathname === `${admin}/wiki`) return json({ folders: [], elements: [] });
    if (u.pathname === `${admin}/content/companies`) return json([]);
    if (u.pathname === `${admin}/content/public-files`) return json({ items: [FILE] });
    if (u.pathname === `${admin}/public-files/3` && m === 'PATCH')
      return json({ ...FILE, ...JSON.parse(String(init!.body)) });
    if (u.pathname === `${admin}/public-files/3` && m === 'DELETE')
      return new Response(null, { status: 204 });
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

const bodyOf = (calls: { url: string; init?: RequestInit }[], method: string, path: string) =>
  JSON.parse(String(calls.find((c) => c.init?.method === method && c.url.includes(path))!.init!.body));

describe('desk administration: contracts and public files', { timeout: 30_000 }, () => {
  it('edits a service contract: packages with their activities, documents kept by id, reports left out', async () => {
    const calls = api(true);
    renderApp('/demo/staff/admin/contracts?company=1');
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Manutenzione server/ });
    expect(within(row).getByText('Interventi on-site')).toBeTruthy();
    expect(screen.queryByText(/service contracts switch is off/)).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Edit Manutenzione server' }));
    const residual = await screen.findByLabelText('Remaining');
    await user.clear(residual);
    await user.type(residual, '7 rimasti');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PATCH')).toBe(true));
    const body = bodyOf(calls, 'PATCH', '/admin/service-contracts/5');
    expect(body).toMatchObject({
      name: 'Manutenzione server',
      status: 1,
      activeFrom: '2026-01-01',
      activeTo: null,
      documents: [{ id: 1, documentName: 'Condizioni' }],
      packages: [{ id: 1, residualText: '7 rimasti', activities: [{ id: 1, start: '2026-02-01' }] }],
    });
    // The stored file ids stay on the server: the body names none.
    expect(JSON.stringify(body)).not.toMatch(/fileId|reportFileId/);
  });

  it('checks contracts, subscriptions and service contracts with their schemas before sending', async () => {
    const calls = api(true);
    renderApp('/demo/staff/admin/contracts?company=1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New contract' }));
    await user.click(screen.getByRole('button', { name: 'Add activity' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The name and the activity's type are required: said at the fields, nothing sent.
    expect(await screen.findAllByText('Required field')).toHaveLength(2);
    expect(screen.getByRole('textbox', { name: /^Name/ }).getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await user.click(await screen.findByRole('button', { name: 'New subscription' }));
    await user.clear(screen.getByRole('textbox', { name: 'Every (months)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // A monthly recurrence needs its months (the trigger's rule).
    expect(await screen.findByText('Required field')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    const row = await screen.findByRole('row', { name: /Manutenzione server/ });
    await user.click(within(row).getByRole('button', { name: 'Edit Manutenzione server' }));
    await user.clear(await screen.findByLabelText(/Package name/));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // A package needs its name (the package's rule inside the service contract's body).
    expect(await screen.findByText('Required field')).toBeTruthy();
    expect(calls.some((c) => c.init?.method === 'POST' || c.init?.method === 'PATCH')).toBe(false);
  });

  it('says customers do not see service contracts while the switch is off; deletes after a confirmation', async () => {
    const calls = api(false);
    renderApp('/demo/staff/admin/contracts?company=1');
    const user = userEvent.setup();
    expect(await screen.findByText(/service contracts switch is off/)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Delete Manutenzione server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Manutenzione server' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.some((c) => c.init?.method === 'DELETE' && c.url.endsWith('/service-contracts/5'))).toBe(
        true,
      ),
    );
  });

  it('lists the public files, renames one and removes one after a confirmation', async () => {
    const calls = api(true);
    renderApp('/demo/staff/admin/documents');
    const user = userEvent.setup();
    const row = await screen.findByRole('row', { name: /Listino 2027/ });
    expect(within(row).getByText('listino.pdf')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Rename Listino 2027' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Listino 2027' });
    const name = within(dialog).getByLabelText(/Name shown to customers/);
    await user.clear(name);
    await user.type(name, 'Listino prezzi');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PATCH')).toBe(true));
    expect(bodyOf(calls, 'PATCH', '/admin/public-files/3')).toEqual({ fileName: 'Listino prezzi' });

    await user.click(within(row).getByRole('button', { name: 'Remove Listino 2027' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Listino 2027' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.some((c) => c.init?.method === 'DELETE' && c.url.endsWith('/public-files/3'))).toBe(true),
    );
  });
});
