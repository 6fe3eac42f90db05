import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Overview } from '@sportello/contracts';
import { TenantContext, type Tenant } from '../../lib/tenant';
import { contact, user } from '../../test/fixtures';
import { renderWithProviders } from '../../ui/testing';
import OverviewPage from './overview-page';

const empty = { total: 0, items: [] };
const open = {
  total: 1,
  items: [
    {
      id: 7,
      title: 'Printer',
      ticketNumber: '2026/0007',
      internalAnnualProgressive: 7,
      stepName: 'New',
      lastActivityAt: '2026-11-20T10:00:00Z',
    },
  ],
};
const OVERVIEW = {
  waitingTickets: empty,
  openTickets: open,
  hourBanks: null,
  signatures: empty,
  appointments: empty,
  invoices: null,
} as unknown as Overview;

function renderFor(flags: Parameters<typeof contact>[0]) {
  const c = contact({ contactId: 11, ...flags });
  const tenant: Tenant = {
    company: 'demo',
    contactId: 11,
    contact: c,
    user: user([c]),
    basePath: '/demo/11',
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(OVERVIEW), { status: 200 })),
  );
  renderWithProviders(
    <MemoryRouter>
      <TenantContext.Provider value={tenant}>
        <OverviewPage />
      </TenantContext.Provider>
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the overview', { timeout: 20_000 }, () => {
  it("leads an administrator to all the company's tickets", async () => {
    renderFor({ manageTickets: true, administrator: true });
    const link = await screen.findByRole('link', { name: 'All tickets' });
    expect(link.getAttribute('href')).toBe('/demo/11/alltickets?sort=activity');
  });

  it('leads a contact without administration to their own tickets, and says so', async () => {
    renderFor({ manageTickets: true });
    const link = await screen.findByRole('link', { name: 'Your tickets' });
    expect(link.getAttribute('href')).toBe('/demo/11/tickets?sort=activity');
    expect(screen.queryByRole('link', { name: 'All tickets' })).toBeNull();
  });
});
