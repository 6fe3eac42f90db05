import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppointmentLink, AppointmentSlots, AppointmentSummary } from '@sportello/contracts';
import { renderWithProviders } from '../../ui/testing';
import BookingPage from './booking-page';
import CancellationPage from './cancellation-page';
import { slotLabels } from './components/slot-picker';

const LINK_PATH = '/api/appointments/acme/acme-sopralluogo-5e6f7a8b';
const CANCEL_PATH = '/api/appointments/acme/cancellation/KEY123';

const link: AppointmentLink = {
  title: 'ACME Sopralluogo',
  agentName: 'ACME Agent Luca',
  timeZone: 'Europe/Rome',
  defaultDurationMinutes: 60,
  slotMinutes: 30,
  daysAhead: 30,
  firstDay: '2026-11-20',
  lastDay: '2026-12-19',
};

const slotsFor = (taken: string[] = []): AppointmentSlots => ({
  timeZone: 'Europe/Rome',
  durationMinutes: 60,
  days: [
    {
      date: '2026-11-23',
      slots: [
        { start: '2026-11-23T08:00:00.000Z', end: '2026-11-23T09:00:00.000Z' },
        { start: '2026-11-23T08:30:00.000Z', end: '2026-11-23T09:30:00.000Z' },
      ].filter((s) => !taken.includes(s.start)),
    },
  ],
});

type Answer = { status: number; body?: unknown };
let calls: { method: string; url: string; body?: unknown }[] = [];

function serve(handler: (method: string, url: string, body: unknown) => Answer | undefined) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, url, body });
      const a = handler(method, url, body) ?? { status: 404, body: { code: 'not_found', message: url } };
      return new Response(a.body === undefined ? null : JSON.stringify(a.body), {
        status: a.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/appointments/:company?/cancellation/:eventkey?', element: <CancellationPage /> },
      { path: '/appointments/:company?/:eventkey?', element: <BookingPage /> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

async function fillDetails(user: ReturnType<typeof userEvent.setup>) {
  const fill = async (label: RegExp, text: string) => {
    await user.click(screen.getByLabelText(label));
    await user.paste(text);
  };
  await fill(/^First name/, 'Mario');
  await fill(/^Last name/, 'Rossi');
  await fill(/^Phone number/, '+39 333 1234567');
  await fill(/^E-mail/, 'mario@example.com');
  await fill(/^Company name/, 'Rossi Srl');
}

async function chooseMonday(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByLabelText('Monday 23 November 2026'));
}

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

// Mantine's calendar and form render slowly under jsdom on a busy machine.
describe('the booking page', { timeout: 60_000 }, () => {
  it('walks from day and time through the details and a summary to Appointment Confirmed', async () => {
    serve((method, url) => {
      if (method === 'GET' && url === LINK_PATH) return { status: 200, body: link };
      if (method === 'GET' && url.startsWith(`${LINK_PATH}/slots`)) return { status: 200, body: slotsFor() };
      if (method === 'POST' && url === LINK_PATH)
        return {
          status: 201,
          body: {
            start: '2026-11-23T08:30:00.000Z',
            end: '2026-11-23T09:30:00.000Z',
            timeZone: 'Europe/Rome',
            cancellationUrl: 'http://portal.example/appointments/acme/cancellation/KEY123',
          },
        };
    });
    const user = userEvent.setup();
    renderAt('/appointments/acme/acme-sopralluogo-5e6f7a8b');
    expect(await screen.findByRole('heading', { level: 1, name: 'ACME Sopralluogo' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Times in Europe/Rome' })).toBeTruthy();
    // The slots asked for are the shown month clamped to the window, with the link's default duration.
    await waitFor(() =>
      expect(
        calls.some((c) => c.url === `${LINK_PATH}/slots?from=2026-11-20&to=2026-11-30&duration=60`),
      ).toBe(true),
    );
    // A day without slots cannot be chosen.
    expect((screen.getByLabelText('Tuesday 24 November 2026') as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByText('Continue'));
    expect((await screen.findByRole('alert')).textContent).toContain('Please fill in the required fields');

    await chooseMonday(user);
    const times = screen.getByRole('group', { name: /Times in Europe\/Rome/ });
    expect(
      within(times)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['09:00', '09:30']);
    await user.click(within(times).getByRole('button', { name: '09:30' }));
    expect(within(times).getByRole('button', { name: '09:30' }).getAttribute('aria-pressed')).toBe('true');
    await fillDetails(user);
    await user.click(screen.getByText('Continue'));

    expect(await screen.findByText('Check and confirm')).toBeTruthy();
    expect(screen.getByText('23/11/2026, 09:30–10:30')).toBeTruthy();
    expect(screen.getByText('1 h 0 min')).toBeTruthy();
    await user.click(screen.getByText('Confirm'));

    expect(await screen.findByText('Appointment Confirmed')).toBeTruthy();
    expect(screen.getByText(/mario@example\.com/, { selector: 'p' })).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      start: '2026-11-23T08:30:00.000Z',
      durationMinutes: 60,
      firstName: 'Mario',
      lastName: 'Rossi',
      phone: '+39 333 1234567',
      email: 'mario@example.com',
      companyName: 'Rossi Srl',
      notes: '',
      // The page's language, for the confirmation e-mail.
      language: 'en-EN',
    });
    expect(screen.getByRole('link', { name: 'Cancel this appointment' }).getAttribute('href')).toBe(
      '/appointments/acme/cancellation/KEY123',
    );
  });

  it('on 409 says the time was just taken and shows the refreshed slots', async () => {
    let taken: string[] = [];
    serve((method, url) => {
      if (method === 'GET' && url === LINK_PATH) return { status: 200, body: link };
      if (method === 'GET' && url.startsWith(`${LINK_PATH}/slots`))
        return { status: 200, body: slotsFor(taken) };
      if (method === 'POST') {
        taken = ['2026-11-23T08:00:00.000Z'];
        return { status: 409, body: { code: 'slot_taken', message: 'taken' } };
      }
    });
    const user = userEvent.setup();
    renderAt('/appointments/acme/acme-sopralluogo-5e6f7a8b');
    await chooseMonday(user);
    await user.click(screen.getByText('09:00'));
    await fillDetails(user);
    await user.click(screen.getByText('Continue'));
    await user.click(await screen.findByText('Confirm'));
    expect((await screen.findByRole('alert')).textContent).toContain('This time has just been taken');
    await waitFor(() => expect(screen.queryByRole('button', { name: '09:00' })).toBeNull());
    expect(screen.getByRole('button', { name: '09:30' })).toBeTruthy();
    // The details stay filled in.
    expect((screen.getByLabelText(/^First name/) as HTMLInputElement).value).toBe('Mario');
  });

  it('says Error creating appointment when the server fails', async () => {
    serve((method, url) => {
      if (method === 'GET' && url === LINK_PATH) return { status: 200, body: link };
      if (method === 'GET' && url.startsWith(`${LINK_PATH}/slots`)) return { status: 200, body: slotsFor() };
      if (method === 'POST') return { status: 500, body: { code: 'internal_error', message: 'x' } };
    });
    const user = userEvent.setup();
    renderAt('/appointments/acme/acme-sopralluogo-5e6f7a8b');
    await chooseMonday(user);
    await user.click(screen.getByText('09:00'));
    await fillDetails(user);
    await user.click(screen.getByText('Continue'));
    await user.click(await screen.findByText('Confirm'));
    expect((await screen.findByRole('alert')).textContent).toBe('Error creating appointment');
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
  });

  it('says what is wrong when the server refuses a name', async () => {
    serve((method, url) => {
      if (method === 'GET' && url === LINK_PATH) return { status: 200, body: link };
      if (method === 'GET' && url.startsWith(`${LINK_PATH}/slots`)) return { status: 200, body: slotsFor() };
      if (method === 'POST') return { status: 400, body: { code: 'invalid_name', message: 'x' } };
    });
    const user = userEvent.setup();
    renderAt('/appointments/acme/acme-sopralluogo-5e6f7a8b');
    await chooseMonday(user);
    await user.click(screen.getByText('09:00'));
    await fillDetails(user);
    await user.click(screen.getByText('Continue'));
    await user.click(await screen.findByText('Confirm'));
    expect((await screen.findByRole('alert')).textContent).toContain('Names may not contain web addresses');
  });

  it('asks for slots again when the duration changes', async () => {
    serve((method, url) => {
      if (method === 'GET' && url === LINK_PATH) return { status: 200, body: link };
      if (method === 'GET' && url.startsWith(`${LINK_PATH}/slots`)) return { status: 200, body: slotsFor() };
    });
    const user = userEvent.setup();
    renderAt('/appointments/acme/acme-sopralluogo-5e6f7a8b');
    await screen.findByRole('heading', { level: 1 });
    await user.selectOptions(screen.getByLabelText('Minutes'), '30');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('&duration=90'))).toBe(true));
  });

  it('shows a not-found page for an unknown link, in Italian by default', async () => {
    serve(() => undefined);
    renderWithProviders(
      <RouterProvider
        router={createMemoryRouter(
          [{ path: '/appointments/:company?/:eventkey?', element: <BookingPage /> }],
          {
            initialEntries: ['/appointments/acme/nope'],
          },
        )}
      />,
      { language: 'it-IT' },
    );
    expect(await screen.findByRole('heading', { name: 'Link di prenotazione non trovato' })).toBeTruthy();
  });
});

describe('slot labels', () => {
  it('add the UTC offset only where one wall-clock time names two slots (fall back)', () => {
    const slots = [
      '2026-10-25T00:00:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:00:00Z',
      '2026-10-25T01:30:00Z',
      '2026-10-25T02:00:00Z',
    ].map((start) => ({ start, end: start }));
    expect(slotLabels(slots, 'Europe/Rome')).toEqual([
      '02:00 (UTC+02:00)',
      '02:30 (UTC+02:00)',
      '02:00 (UTC+01:00)',
      '02:30 (UTC+01:00)',
      '03:00',
    ]);
  });
});

describe('the cancellation page', () => {
  const booked: AppointmentSummary = {
    title: 'ACME Sopralluogo',
    agentName: 'ACME Agent Luca',
    start: '2099-11-25T09:00:00.000Z',
    end: '2099-11-25T10:00:00.000Z',
    timeZone: 'Europe/Rome',
    firstName: 'Anna',
    lastName: 'Rossi',
    companyName: '',
    status: 'booked',
    cancelledAt: null,
  };

  it('shows the appointment, asks for confirmation, then says Appointment cancelled', async () => {
    let state = booked;
    serve((method, url) => {
      if (url !== CANCEL_PATH) return undefined;
      if (method === 'POST')
        state = { ...booked, status: 'cancelled', cancelledAt: '2099-11-21T08:00:00.000Z' };
      return { status: 200, body: state };
    });
    const user = userEvent.setup();
    renderAt('/appointments/acme/cancellation/KEY123');
    expect(await screen.findByRole('heading', { level: 1, name: 'ACME Sopralluogo' })).toBeTruthy();
    expect(screen.getByText('25/11/2099, 10:00–11:00')).toBeTruthy();
    expect(screen.getByText('Booked')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel appointment' }));
    expect(screen.getByText(/Do you really want to cancel/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No, keep it' }));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Cancel appointment' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel it' }));
    expect(await screen.findByText('Appointment cancelled')).toBeTruthy();
    expect(screen.getByText('Cancelled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel appointment' })).toBeNull();
  });

  it('says when an appointment was already cancelled, and offers no button', async () => {
    serve((_m, url) =>
      url === CANCEL_PATH
        ? { status: 200, body: { ...booked, status: 'cancelled', cancelledAt: '2099-11-21T08:00:00.000Z' } }
        : undefined,
    );
    renderAt('/appointments/acme/cancellation/KEY123');
    expect(await screen.findByText('This appointment was cancelled on 21/11/2099 09:00.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel appointment' })).toBeNull();
  });

  it('shows a not-found page for an unknown key', async () => {
    serve(() => undefined);
    renderAt('/appointments/acme/cancellation/nope');
    expect(await screen.findByRole('heading', { name: 'Appointment not found' })).toBeTruthy();
  });
});
