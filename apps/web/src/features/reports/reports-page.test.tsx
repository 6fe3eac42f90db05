import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityReport } from '@sportello/contracts';
import { TenantContext, type Tenant } from '../../lib/tenant';
import { ALL_FLAGS, contact, user } from '../../test/fixtures';
import { renderWithProviders } from '../../ui/testing';
import ReportsPage from './reports-page';
import { fetchVisibleTicketIds } from './api/visible-tickets';

const reports: ActivityReport[] = [
  {
    id: 1,
    name: 'Report one',
    dateTime: '2026-11-18T09:00:00Z',
    documentUrl: '/api/files/1/r1.pdf?e=1&s=a',
    taskId: 10,
    taskName: 'Printer',
  },
  {
    id: 2,
    name: 'Report two',
    dateTime: '2026-11-10T09:00:00Z',
    documentUrl: '/api/files/2/r2.pdf?e=1&s=b',
    taskId: 20,
    taskName: 'Hidden',
  },
];

type Route = (url: string) => Response | undefined;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function stubFetch(route: Route) {
  const fn = vi.fn(async (url: string) => route(url) ?? json({ code: 'not_found', message: 'no' }, 404));
  vi.stubGlobal('fetch', fn);
  return fn;
}

describe('fetchVisibleTicketIds', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('uses tickets/all, else falls back to the own tickets, else nothing', async () => {
    stubFetch((u) => (u.endsWith('/tickets/all') ? json([{ id: 1 }, { id: 2 }]) : json([{ id: 1 }])));
    expect(await fetchVisibleTicketIds('demo', 11)).toEqual([1, 2]);
    stubFetch((u) =>
      u.endsWith('/tickets/all') ? json({ code: 'forbidden', message: 'x' }, 403) : json([{ id: 1 }]),
    );
    expect(await fetchVisibleTicketIds('demo', 11)).toEqual([1]);
    stubFetch(() => json({ code: 'forbidden', message: 'x' }, 403));
    expect(await fetchVisibleTicketIds('demo', 11)).toEqual([]);
  });
});

describe('ReportsPage', { timeout: 20_000 }, () => {
  const c = contact({ ...ALL_FLAGS, contactId: 11, administrator: false });
  const tenant: Tenant = {
    company: 'demo',
    contactId: 11,
    contact: c,
    user: user([c]),
    basePath: '/demo/11',
  };
  let fetchMock: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    fetchMock = stubFetch((u) => {
      if (u.includes('/activities/activityreports')) return json(reports);
      if (u.endsWith('/tickets/all')) return json({ code: 'forbidden', message: 'x' }, 403);
      if (u.endsWith('/tickets')) return json([{ id: 10 }]);
      if (u.includes('/wikielements')) return json([]);
      return undefined;
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const renderPage = () =>
    renderWithProviders(
      <MemoryRouter>
        <TenantContext.Provider value={tenant}>
          <ReportsPage />
        </TenantContext.Provider>
      </MemoryRouter>,
    );

  it('lists reports, links only visible tickets, filters by name and toggles the document', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toBeTruthy();
    await screen.findByText('Report one');
    const rows = screen.getAllByTestId('report-row');
    expect(rows).toHaveLength(2);
    await waitFor(() =>
      expect(within(rows[0]!).queryByRole('link', { name: 'Ticket: Printer' })).toBeTruthy(),
    );
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe('/demo/11/tickets/10');
    expect(within(rows[1]!).queryByRole('link')).toBeNull();
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual(
      expect.arrayContaining(['/api/demo/11/tickets/all', '/api/demo/11/tickets']),
    );

    const row = within(rows[1]!).getByRole('button', { name: /Report two/ });
    await userEvent.click(row);
    expect(row.getAttribute('aria-pressed')).toBe('true');
    const frame = document.querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe(reports[1]!.documentUrl);
    expect(frame.style.height).toBe('900px');
    await userEvent.click(within(rows[0]!).getByRole('button', { name: /Report one/ }));
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect(document.querySelector('iframe')!.getAttribute('src')).toBe(reports[0]!.documentUrl);
    await userEvent.click(within(rows[0]!).getByRole('button', { name: /Report one/ }));
    expect(document.querySelector('iframe')).toBeNull();

    await userEvent.type(screen.getByLabelText('Search by name'), 'two');
    expect(screen.getAllByTestId('report-row')).toHaveLength(1);
    await userEvent.clear(screen.getByLabelText('Search by name'));
    await userEvent.type(screen.getByLabelText('Search by name'), 'zzz');
    expect(screen.getByText('No items found')).toBeTruthy();
  });

  it('shows an error with Retry when the list fails', async () => {
    let fail = true;
    stubFetch((u) => {
      if (u.includes('/activities/activityreports'))
        return fail ? json({ code: 'x', message: 'boom' }, 500) : json(reports);
      return json([]);
    });
    renderPage();
    const retry = await screen.findByRole('button', { name: 'Retry' });
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByText('Report one')).toBeTruthy();
  });
});
