import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminPortalSettings, SlaPolicy } from '@sportello/contracts';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../desk-test-kit';

configure({ asyncUtilTimeout: 8000 });

const SETTINGS: AdminPortalSettings = {
  key: 'demo',
  name: 'Portale Demo',
  baseColor: '#1c7ed6',
  customCss: '',
  footerHtml: '',
  privacyHtml: '',
  timeZone: 'Europe/Rome',
  defaultLanguage: 'it-IT',
  enableServiceContracts: true,
  disableHtmlEditor: false,
  overviewLanding: false,
  lowRatingThreshold: 0,
  logo: null,
  updatedAt: '2026-11-01T10:00:00.000Z',
};

const NINE_TO_SIX: [string, string][] = [['09:00', '18:00']];
const SLA: SlaPolicy = {
  enabled: true,
  hours: [[], NINE_TO_SIX, NINE_TO_SIX, NINE_TO_SIX, NINE_TO_SIX, NINE_TO_SIX, []],
  holidays: [],
  targets: {
    low: { firstResponse: null, resolution: null },
    normal: { firstResponse: 480, resolution: null },
    high: { firstResponse: 120, resolution: null },
    urgent: { firstResponse: 60, resolution: null },
  },
  timeZone: 'Europe/Rome',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

function api() {
  storage.set('staffToken', 'staff-token');
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const m = init?.method ?? 'GET';
    const admin = '/api/staff/portals/demo/admin';
    if (u.pathname === '/api/staff/me') return json(staffMe('admin'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: {}, counts: {}, countCap: 10000, version: 'v1' });
    if (u.pathname === `${admin}/settings` && m === 'GET') return json(SETTINGS);
    if (u.pathname === `${admin}/sla` && m === 'GET') return json(SLA);
    if (u.pathname === `${admin}/sla/companies`) return json({ items: [] });
    if (u.pathname === `${admin}/sla` && m === 'PUT')
      return json({ ...SLA, ...JSON.parse(String(init!.body)), updatedAt: '2026-11-02T10:00:00.000Z' });
    if (u.pathname === `${admin}/settings` && m === 'PATCH')
      return json({ ...SETTINGS, ...JSON.parse(String(init!.body)), updatedAt: '2026-11-02T10:00:00.000Z' });
    return undefined;
  });
}

// jsdom has no document.fonts, which Mantine's growing textareas (CSS, HTML, holidays) listen on.
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

const writes = (calls: { init?: RequestInit }[]) =>
  calls.filter((c) => c.init?.method && c.init.method !== 'GET');

describe(
  'desk administration: the settings forms check their bodies with the contracts',
  { timeout: 60_000 },
  () => {
    it('branding: a blank name is said at its field and not sent; then only what changed is sent', async () => {
      const calls = api();
      renderApp('/demo/staff/admin/branding');
      const user = userEvent.setup();
      const name = await screen.findByRole('textbox', { name: /Portal name/ });
      await user.clear(name);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Required field')).toBeTruthy();
      expect(name.getAttribute('aria-invalid')).toBe('true');
      expect(writes(calls)).toHaveLength(0);

      await user.type(name, 'Portale Nuovo');
      await user.clear(screen.getByRole('textbox', { name: 'Base colour' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(writes(calls)).toHaveLength(1));
      // Only what changed; no colour: the default one.
      expect(JSON.parse(String(writes(calls)[0]!.init!.body))).toEqual({
        name: 'Portale Nuovo',
        baseColor: null,
      });
    });

    it('service levels: hours that end before they start and a holiday that is no day are said where typed', async () => {
      const calls = api();
      renderApp('/demo/staff/admin/sla');
      const user = userEvent.setup();
      const monday = await screen.findByRole('textbox', { name: 'Monday' });
      await user.clear(monday);
      await user.type(monday, '18:00-09:00');
      const holidays = screen.getByRole('textbox', { name: 'Holidays' });
      await user.type(holidays, '2026-13-40');
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findAllByText('Check the fields: something is not valid.')).toHaveLength(2);
      expect(monday.getAttribute('aria-invalid')).toBe('true');
      expect(holidays.getAttribute('aria-invalid')).toBe('true');
      expect(writes(calls)).toHaveLength(0);

      await user.clear(monday);
      await user.type(monday, '09:00-13:00, 14:00-18:00');
      await user.clear(holidays);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(writes(calls)).toHaveLength(1));
      expect(JSON.parse(String(writes(calls)[0]!.init!.body)).hours[1]).toEqual([
        ['09:00', '13:00'],
        ['14:00', '18:00'],
      ]);
    });
  },
);
