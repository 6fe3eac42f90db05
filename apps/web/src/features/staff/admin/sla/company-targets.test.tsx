import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SlaCompanyList, SlaPolicy } from '@sportello/contracts';
import { storage } from '../../../../lib/storage';
import { portalSettings } from '../../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const ALWAYS: [string, string][] = [['00:00', '24:00']];
const SLA: SlaPolicy = {
  enabled: true,
  hours: Array.from({ length: 7 }, () => ALWAYS),
  holidays: [],
  targets: {
    low: { firstResponse: null, resolution: null },
    normal: { firstResponse: 480, resolution: 1440 },
    high: { firstResponse: 120, resolution: 960 },
    urgent: { firstResponse: 60, resolution: 480 },
  },
  timeZone: 'Europe/Rome',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const ROSSI: SlaCompanyList = {
  items: [
    {
      company: { id: 1, name: 'Rossi Impianti Srl' },
      targets: { normal: { firstResponse: 1200 } },
      updatedAt: '2026-11-02T10:00:00.000Z',
    },
  ],
};

function api(role: 'admin') {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const m = init?.method ?? 'GET';
    const sla = '/api/staff/portals/demo/admin/sla';
    if (u.pathname === '/api/staff/me') return json(staffMe(role));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === sla && m === 'GET') return json(SLA);
    if (u.pathname === `${sla}/companies` && m === 'GET') return json(ROSSI);
    if (u.pathname === `${sla}/companies/1` && m === 'PUT')
      return json({ ...ROSSI.items[0], ...JSON.parse(String(init!.body)) });
    return undefined;
  });
}

beforeAll(() => {
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
});

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

const writes = (calls: { url: string; init?: RequestInit }[]) =>
  calls.filter((c) => c.init?.method && c.init.method !== 'GET');

describe('service levels: targets per company', { timeout: 60_000 }, () => {
  it("lists a company's own targets; its editor shows the portal's in empty fields and sends minutes", async () => {
    const calls = api('admin');
    renderApp('/demo/staff/admin/sla');
    const user = userEvent.setup();
    expect(await screen.findByText('Normal: First response 20 h')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Targets of Rossi Impianti Srl' }));
    const normal = await screen.findByRole('textbox', { name: 'Normal: First response, own target' });
    expect((normal as HTMLInputElement).value).toBe('20');
    const urgent = screen.getByRole('textbox', { name: 'Urgent: First response, own target' });
    expect(urgent.getAttribute('placeholder')).toBe('1 h');
    expect(
      screen.getByRole('textbox', { name: 'Low: Resolution, own target' }).getAttribute('placeholder'),
    ).toBe('—');

    // A negative target is said at its field; no target at all, above the save.
    await user.type(urgent, '-1');
    await user.click(within(screen.getByTestId('sla-companies')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Check the fields: something is not valid.')).toBeTruthy();
    expect(urgent.getAttribute('aria-invalid')).toBe('true');
    await user.clear(urgent);
    await user.clear(normal);
    await user.click(within(screen.getByTestId('sla-companies')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Enter at least one target/)).toBeTruthy();
    expect(writes(calls)).toHaveLength(0);

    await user.type(urgent, '0,5');
    await user.click(within(screen.getByTestId('sla-companies')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes(calls)).toHaveLength(1));
    expect(writes(calls)[0]!.url).toMatch(/\/admin\/sla\/companies\/1$/);
    expect(JSON.parse(String(writes(calls)[0]!.init!.body))).toEqual({
      targets: { urgent: { firstResponse: 30 } },
    });
  });

  it('asks for the company of a new one before sending anything', async () => {
    const calls = api('admin');
    renderApp('/demo/staff/admin/sla');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add a company' }));
    await user.type(screen.getByRole('textbox', { name: 'High: Resolution, own target' }), '4');
    await user.click(within(screen.getByTestId('sla-companies')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose a company.')).toBeTruthy();
    expect(writes(calls)).toHaveLength(0);
  });
});
