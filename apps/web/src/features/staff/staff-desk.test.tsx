import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  InboxAnswer,
  InboxItem,
  StaffMeAnswer,
  StaffOptions,
  StaffTicketDetail,
} from '@sportello/contracts';
import { storage } from '../../lib/storage';
import { portalSettings } from '../../test/fixtures';
import { json, renderApp as renderDesk, staffMe, stubFetch, where } from './desk-test-kit';

const ME: StaffMeAnswer = staffMe('agent');
const OPTIONS: StaffOptions = {
  steps: [{ id: 1, name: 'New', taskStatus: 0, isDefault: true, isClosing: false }],
  types: [{ id: 1, name: 'Fault', color: '#e03131' }],
  groups: [{ id: 1, name: 'Helpdesk' }],
  agents: [{ id: 2, displayName: 'Sara Conti', staffUserId: 7 }],
  ticketTags: [],
  lowRatingThreshold: 2,
  me: { staffUserId: 7, agentId: 2, groupIds: [1] },
};
const item = (over: Partial<InboxItem>): InboxItem => ({
  id: 1,
  ticketNumber: '2026/0001',
  title: 'Printer jam',
  company: { id: 3, name: 'Rossi Srl' },
  contact: { id: 11, referentName: 'Marco Rossi' },
  type: { id: 1, name: 'Fault', color: '#e03131' },
  step: { id: 1, name: 'New', taskStatus: 0 },
  group: null,
  assignee: null,
  createdOn: '2026-11-18T09:30:00Z',
  lastActivityAt: '2026-11-18T09:30:00Z',
  waitingOnCustomer: false,
  closed: false,
  rating: null,
  priority: 'normal',
  dueAt: null,
  tags: [],
  sla: null,
  unread: false,
  ...over,
});
const COUNTS = { unassigned: 2, mine: 0, groups: 1, waiting: 0, breaching: 0, open: 2, closed: 12000 };
const inbox = (items: InboxItem[], nextCursor: string | null = null): InboxAnswer => ({
  items,
  counts: COUNTS,
  countCap: 10000,
  nextCursor,
});
const DETAIL: StaffTicketDetail = {
  ...item({ id: 5, title: 'Printer jam' }),
  description: '<p>E42 on the display</p>',
  nextPlannedActivityInfo: null,
  openedBy: null,
  attachments: [],
  // Opened by e-mail, from a sender that verified.
  openingEmail: { originalEmail: '/api/files/76/message-1.eml?e=1&s=x', senderUnverified: false },
  comments: [
    {
      id: 1,
      message: '<p>Toner checked</p>',
      creationDate: '2026-11-18T10:00:00Z',
      internal: true,
      author: { kind: 'agent', name: 'Marco Ferri' },
      attachments: [],
      channel: 'desk',
      originalEmail: null,
      senderUnverified: false,
    },
    {
      id: 2,
      message: '<p>Please restart it</p>',
      creationDate: '2026-11-18T11:00:00Z',
      internal: false,
      author: { kind: 'agent', name: 'Marco Ferri' },
      attachments: [],
      // Answered by replying to a staff notice: the message as received is one link away.
      channel: 'email',
      originalEmail: '/api/files/77/message-3.eml?e=1&s=x',
      // The receiving server said its SPF or DKIM failed.
      senderUnverified: true,
    },
  ],
  timeline: [
    {
      id: 9,
      at: '2026-11-18T09:45:00Z',
      kind: 'assignee',
      public: false,
      from: null,
      to: { id: 2, name: 'Sara Conti' },
      by: { kind: 'agent', name: 'Marco Ferri' },
    },
  ],
  presence: [
    { staffUserId: 8, displayName: 'Marco Ferri', state: 'replying', until: '2026-11-18T11:00:30Z' },
  ],
  rated: null,
};

/** The API of a signed-in agent of portal demo; `inboxFor` answers the inbox by its query. */
function deskApi(inboxFor: (q: URLSearchParams) => InboxAnswer = () => inbox([item({})])) {
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    if (u.pathname === '/api/staff/auth/login')
      return json({ token: 'staff-token', expiresAt: '2026-11-19T00:00:00Z' });
    if (u.pathname === '/api/staff/me') return json(ME);
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings());
    if (u.pathname === '/api/staff/portals/demo/options') return json(OPTIONS);
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: { ...COUNTS, unassigned: 1 }, counts: COUNTS, countCap: 10000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/tickets') return json(inboxFor(u.searchParams));
    if (u.pathname === '/api/staff/portals/demo/tickets/5' && (init?.method ?? 'GET') === 'GET')
      return json(DETAIL);
    if (u.pathname === '/api/staff/portals/demo/tickets/5/presence') return json({ others: DETAIL.presence });
    return undefined;
  });
}

// The desk's chunk, the lazy editor and several requests: more than the default second on a loaded machine.
configure({ asyncUtilTimeout: 8000 });

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('token', null);
  storage.set('staffToken', null);
});

// Typing with user-event and the lazy editor take a few seconds on a loaded machine.
describe('staff desk', { timeout: 30_000 }, () => {
  it('sends an agent without a staff session to the staff sign-in, even with a contact signed in', async () => {
    storage.set('token', 'contact-token');
    deskApi();
    renderDesk('/demo/staff?view=mine');
    await screen.findByRole('heading', { name: 'Staff sign-in' });
    expect(where()).toBe('/demo/staff/login');
  });

  it('signs in into the staff session only, and returns to the page asked for', async () => {
    storage.set('token', 'contact-token');
    const calls = deskApi();
    renderDesk('/demo/staff/login');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /E-mail/ }), 'sara@desk.example');
    await user.type(document.querySelector<HTMLInputElement>('input[name=password]')!, 'Secret-Password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Inbox' });
    const login = calls.find((c) => c.url === '/api/staff/auth/login')!;
    expect((login.init?.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(storage.get('staffToken')).toBe('staff-token');
    expect(storage.get('token')).toBe('contact-token');
  });

  it('shows the views with counts (capped), unread markers, and the filters of the URL', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi((q) =>
      inbox(q.get('type') === '1' ? [item({ id: 2, title: 'Only faults', unread: true })] : [item({})]),
    );
    renderDesk('/demo/staff?view=unassigned&type=1');
    const row = await screen.findByText('Only faults');
    expect(row.closest('[data-testid=inbox-row]')?.getAttribute('data-unread')).toBe('true');
    expect(screen.getByTestId('view-unassigned').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('count-closed').textContent).toContain('10,000+');
    const asked = calls.map((c) => new URL(c.url, 'http://x')).find((u) => u.pathname.endsWith('/tickets'))!;
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ view: 'unassigned', type: '1' });
    // The filter panel is open because a filter is set, and its chip count says so.
    expect(screen.getByTestId('filter-panel')).toBeTruthy();
    // The long-poll's unread count of a view shows beside its count, saying what it counts (two bare
    // numbers read as "4 (4)").
    expect((await screen.findByTestId('unread-unassigned')).textContent).toBe('1 unread');
  });

  it("draws the inbox before the agent is known, and its rows once the portal's time zone is", async () => {
    storage.set('staffToken', 'staff-token');
    const held = (body: unknown) => {
      let release = () => {};
      const answer = new Promise<Response>((resolve) => (release = () => resolve(json(body))));
      return { answer, release: () => release() };
    };
    const me = held(ME);
    const settings = held(portalSettings({ timeZone: 'America/New_York' }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = new URL(url, 'http://x').pathname;
        if (path === '/api/staff/me') return me.answer;
        if (path === '/api/Settings/portals/demo') return settings.answer;
        if (path === '/api/staff/portals/demo/tickets') return json(inbox([item({})]));
        return json({ code: 'not_found', message: 'no' }, 404);
      }),
    );
    renderDesk('/demo/staff');
    // The page's frame needs the portal only; its rows wait for the zone their dates show in.
    expect(await screen.findByTestId('new-ticket')).toBeTruthy();
    expect(screen.queryByText('Printer jam')).toBeNull();
    settings.release();
    const row = (await screen.findByText('Printer jam')).closest('[data-testid=inbox-row]')!;
    // 09:30 UTC is 04:30 in New York.
    expect(row.querySelector('time')?.textContent).toContain('04:30');
    expect(screen.queryByText('Sara Conti')).toBeNull();
    me.release();
    expect(await screen.findByText('Sara Conti')).toBeTruthy();
  });

  it('moves with j/k and opens with Enter', async () => {
    storage.set('staffToken', 'staff-token');
    deskApi(() => inbox([item({ id: 5, title: 'First' }), item({ id: 6, title: 'Second' })]));
    renderDesk('/demo/staff');
    await screen.findByText('Second');
    const user = userEvent.setup();
    await user.keyboard('j');
    expect(document.activeElement?.textContent).toContain('First');
    await user.keyboard('j');
    expect(document.activeElement?.textContent).toContain('Second');
    await user.keyboard('k');
    expect(document.activeElement?.textContent).toContain('First');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where()).toBe('/demo/staff/tickets/5'));
  });

  it('marks internal notes in words, shows the timeline and who else is replying', async () => {
    storage.set('staffToken', 'staff-token');
    deskApi();
    renderDesk('/demo/staff/tickets/5');
    const note = (await screen.findByText('Toner checked')).closest('[data-testid=note]') as HTMLElement;
    expect(within(note).getByTestId('internal-label').textContent).toBe(
      'Internal — the customer does not see this',
    );
    const reply = screen.getByText('Please restart it').closest('article') as HTMLElement;
    expect(reply.getAttribute('data-testid')).toBe('message');
    expect(within(reply).queryByTestId('internal-label')).toBeNull();
    // Came by e-mail: the icon says so in words, and the agent may open the e-mail as received.
    expect(within(reply).getByRole('img', { name: 'Received by e-mail' })).toBeTruthy();
    expect(within(reply).getByRole('link', { name: 'Show full e-mail' }).getAttribute('href')).toBe(
      '/api/files/77/message-3.eml?e=1&s=x',
    );
    expect(within(note).queryByTestId('via-email')).toBeNull();
    expect(within(note).queryByTestId('full-email')).toBeNull();
    // Its sender did not verify: the mark in words, with what it means for a screen reader too.
    const mark = within(reply).getByTestId('sender-unverified');
    expect(mark.textContent).toMatch(/^Sender not verified: The mail server that received this message/);
    expect(within(note).queryByTestId('sender-unverified')).toBeNull();
    // The opening message came by e-mail too, from a sender that verified.
    const opening = screen.getByText('E42 on the display').closest('article') as HTMLElement;
    expect(within(opening).getByRole('link', { name: 'Show full e-mail' }).getAttribute('href')).toBe(
      '/api/files/76/message-1.eml?e=1&s=x',
    );
    expect(within(opening).queryByTestId('sender-unverified')).toBeNull();
    expect(screen.getByTestId('timeline-entry').textContent).toContain(
      'changed the assignee: none → Sara Conti',
    );
    expect(screen.getByTestId('timeline-entry').textContent).toContain('staff only');
    expect((await screen.findByTestId('presence')).textContent).toContain('Marco Ferri is replying');
  });

  it('filters the rated tickets from the URL, and shows a low rating on the row, the ticket and its timeline', async () => {
    storage.set('staffToken', 'staff-token');
    const rated = item({ id: 5, title: 'Rated low', closed: true, rating: 2 });
    const calls = deskApi((q) => inbox(q.get('rating') === 'low' ? [rated] : []));
    vi.mocked(fetch).mockImplementation(
      ((base) => async (url: RequestInfo | URL, init?: RequestInit) =>
        String(url).endsWith('/tickets/5') && (init?.method ?? 'GET') === 'GET'
          ? json({
              ...DETAIL,
              ...rated,
              rated: {
                rating: 2,
                comment: 'Nobody called',
                ratedAt: '2026-11-19T08:00:00Z',
                by: 'Marco Rossi',
                low: true,
              },
              timeline: [
                {
                  id: 10,
                  at: '2026-11-19T08:00:00Z',
                  kind: 'rated',
                  public: false,
                  from: null,
                  to: { id: 2, name: 'Nobody called' },
                  by: { kind: 'contact', name: 'Marco Rossi' },
                },
              ],
            })
          : base(url, init))(vi.mocked(fetch).getMockImplementation()!),
    );
    renderDesk('/demo/staff?view=closed&rating=low');
    const row = (await screen.findByText('Rated low')).closest('[data-testid=inbox-row]') as HTMLElement;
    expect(within(row).getByTestId('row-rating').textContent).toBe('★ Rating 2/5');
    const asked = calls.map((c) => new URL(c.url, 'http://x')).find((u) => u.pathname.endsWith('/tickets'))!;
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({ view: 'closed', rating: 'low' });
    expect(screen.getByTestId('filter-panel')).toBeTruthy();

    await userEvent.setup().click(screen.getByText('Rated low'));
    const card = await screen.findByTestId('ticket-rating');
    expect(card.textContent).toContain('2 out of 5');
    expect(card.textContent).toContain('Low rating');
    expect(card.textContent).toContain('Nobody called');
    expect(card.textContent).toContain('by Marco Rossi');
    expect(screen.getByTestId('timeline-entry').textContent).toContain(
      'Marco Rossi rated the ticket 2/5: “Nobody called”',
    );
  });

  it('offers tickets, contacts and companies as one types, asking once the typing pauses', async () => {
    storage.set('staffToken', 'staff-token');
    deskApi();
    const asked: (string | null)[] = [];
    const base = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      const u = new URL(String(url), 'http://x');
      if (u.pathname === '/api/staff/portals/demo/search') {
        asked.push(u.searchParams.get('q'));
        return json({
          tickets: [item({ id: 5, ticketNumber: '2026/0118', title: 'Printer jam' })],
          contacts: [
            {
              id: 11,
              referentName: 'Giulia Bianchi',
              email: 'giulia@rossi.example',
              company: { id: 3, name: 'Rossi Srl' },
            },
          ],
          companies: [],
        });
      }
      return base(url, init);
    });
    renderDesk('/demo/staff');
    await screen.findByText('Printer jam');
    const user = userEvent.setup();
    const box = screen.getByRole('combobox', { name: 'Search tickets' });
    await user.click(box);
    await user.keyboard('0118');
    const list = await screen.findByRole('listbox', { name: 'Search results' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    expect(within(list).getByRole('group', { name: 'Tickets' }).textContent).toContain(
      '2026/0118 Printer jam',
    );
    expect(within(list).getByRole('group', { name: 'Contacts' }).textContent).toContain(
      'giulia@rossi.example',
    );
    // Typed in one go: one question, for the whole text.
    expect(asked).toEqual(['0118']);
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toMatch(/p11$/);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(where()).toBe('/demo/staff?view=open&contact=11'));
  });

  it('says in the merge dialog how many time entries will move, and after, how many did', async () => {
    storage.set('staffToken', 'staff-token');
    deskApi();
    const base = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      const p = new URL(String(url), 'http://x').pathname;
      const method = init?.method ?? 'GET';
      if (p === '/api/staff/portals/demo/tickets/5/merge' && method === 'GET')
        return json({ mergedInto: null, mergedFrom: [] });
      if (p === '/api/staff/portals/demo/tickets/5/time')
        return json({ totalMinutes: 95, billableMinutes: 60, entryCount: 3, entries: [], hourBanks: [] });
      if (p === '/api/staff/portals/demo/search')
        return json({
          tickets: [item({ id: 8, ticketNumber: '2026/0120', title: 'Printer jam again' })],
          contacts: [],
          companies: [],
        });
      if (p === '/api/staff/portals/demo/tickets/5/merge' && method === 'POST')
        return json({
          source: { id: 5, ticketNumber: '2026/0001', title: 'Printer jam' },
          target: { id: 8, ticketNumber: '2026/0120', title: 'Printer jam again' },
          moved: { comments: 2, attachments: 0, timeEntries: 3, followers: 1 },
          mergedAt: '2026-11-18T12:00:00Z',
          undoUntil: '2026-11-19T12:00:00Z',
          undoneAt: null,
        });
      return base(url, init);
    });
    renderDesk('/demo/staff/tickets/5');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('merge-open'));
    await user.type(await screen.findByTestId('merge-search'), '0120');
    await user.click(await screen.findByTestId('merge-option'));
    // Before: how many entries the ticket has in all (not the listed ones), and their time.
    expect((await screen.findByTestId('merge-time')).textContent).toBe(
      "3 time entries logged on it (1:35 h in all) move too, and count in the chosen ticket's time spent.",
    );
    await user.click(screen.getByTestId('merge-confirm-button'));
    // After: what the server says moved.
    await waitFor(() =>
      expect(screen.getByTestId('merge-notice').textContent).toBe(
        'Ticket merged into 2026/0120: 2 messages, 0 attachments and 3 time entries moved there.',
      ),
    );
  });

  it('refuses an empty note before sending it', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi();
    const sent: unknown[] = [];
    const base = vi.mocked(fetch).getMockImplementation()!;
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      if (String(url).endsWith('/tickets/5/comments')) {
        sent.push(JSON.parse(String(init?.body)));
        return json({ ...DETAIL.comments[1], id: 3 }, 201);
      }
      return base(url, init);
    });
    renderDesk('/demo/staff/tickets/5');
    await screen.findByText('Toner checked');
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: 'Internal note' }));
    await user.click(screen.getByRole('button', { name: 'Add internal note' }));
    // Nothing written: refused before sending.
    expect(await screen.findByText('Write something or attach a file first.')).toBeTruthy();
    expect(sent).toEqual([]);
    expect(calls.some((c) => c.url.endsWith('/presence'))).toBe(true);
  });
});
