import { screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskPage as TaskPageData } from '@sportello/contracts';
import { renderWithProviders } from '../../ui/testing';
import TaskPage from './task-page';

const task: TaskPageData = {
  portalName: 'ACME',
  timeZone: 'Europe/Rome',
  ticketNumber: '2026/0012',
  internalAnnualProgressive: 12,
  title: 'Stampante non funziona',
  type: { name: 'Guasto', color: '#d32f2f' },
  status: { name: 'In lavorazione', isClosed: false },
  assignee: 'Luca Bianchi',
  group: 'Helpdesk',
  nextPlannedActivityInfo: null,
  createdOn: '2026-10-12T07:30:00.000Z',
  comments: [
    {
      author: 'Agent Luca',
      authorKind: 'agent',
      date: '2026-10-13T08:00:00.000Z',
      message: '<p>Preso in carico.</p>',
    },
    {
      author: 'Mario Rossi',
      authorKind: 'contact',
      date: '2026-10-14T09:15:00.000Z',
      message: '<p onclick="x()">Grazie<script>alert(1)</script></p>',
    },
  ],
};

function serve(answer: { status: number; body: unknown }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const ok = String(input) === '/api/tasks/acme/acme-task-3c4d5e6f7a8b9c0d';
      const a = ok ? answer : { status: 404, body: { code: 'not_found', message: 'x' } };
      return new Response(JSON.stringify(a.body), {
        status: a.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
}

function renderAt(path: string) {
  renderWithProviders(
    <RouterProvider
      router={createMemoryRouter([{ path: '/tasks/:company?/:eventkey?', element: <TaskPage /> }], {
        initialEntries: [path],
      })}
    />,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the task page', { timeout: 20_000 }, () => {
  it('shows the read-only summary and the comments in the portal time zone', async () => {
    serve({ status: 200, body: task });
    renderAt('/tasks/acme/acme-task-3c4d5e6f7a8b9c0d');
    expect(await screen.findByRole('heading', { level: 1, name: 'Stampante non funziona' })).toBeTruthy();
    expect(screen.getByText('Ticket 2026/0012')).toBeTruthy();
    expect(screen.getByText('Guasto')).toBeTruthy();
    expect(screen.getByText('In lavorazione')).toBeTruthy();
    expect(screen.getByText('12/10/2026')).toBeTruthy();
    expect(screen.getByText('Luca Bianchi')).toBeTruthy();
    expect(screen.getByText('Helpdesk')).toBeTruthy();
    expect(screen.getByText('None')).toBeTruthy();
    const updates = screen.getByRole('list');
    const items = within(updates).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('13/10/2026 10:00')).toBeTruthy();
    expect(within(items[0]!).getByText('Staff')).toBeTruthy();
    expect(within(items[1]!).getByText('Customer')).toBeTruthy();
    expect(items[1]!.innerHTML).not.toContain('script');
    expect(items[1]!.innerHTML).not.toContain('onclick');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('shows a not-found page for an unknown key', async () => {
    serve({ status: 200, body: task });
    renderAt('/tasks/acme/nope');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket not found' })).toBeTruthy();
  });
});
