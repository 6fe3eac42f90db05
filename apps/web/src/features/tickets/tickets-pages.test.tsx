import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketComment, TicketDetail, TicketListItem } from '@sportello/contracts';
import { TenantContext, type Tenant } from '../../lib/tenant';
import { ALL_FLAGS, contact, portalSettings, user } from '../../test/fixtures';
import { renderWithProviders } from '../../ui/testing';
import AllTicketsPage from './all-tickets-page';
import NewTicketPage from './new-ticket-page';
import TicketDetailPage, {
  commentAuthor,
  conversation,
  descriptionAuthor,
  NARROW_DETAIL_QUERY,
} from './ticket-detail-page';
import TicketsPage from './tickets-page';
import { PHONE_FILTERS_QUERY } from './components/ticket-filters-bar';

const item = (over: Partial<TicketListItem>): TicketListItem => ({
  id: 1,
  title: 'A ticket',
  ticketNumber: '2026/0001',
  internalAnnualProgressive: 1,
  createdOn: '2026-11-18T09:30:00Z',
  taskType: { id: 1, name: 'Fault', color: '#e03131' },
  taskStatus: { step: { id: 1, name: 'New', taskStatus: 0 } },
  nextPlannedActivityInfo: null,
  creatorContactWebUser: { contactId: 11, referentName: 'Marco Rossi', companyName: 'Rossi Srl' },
  activityReport: null,
  wikiElement: null,
  waitingOnCustomer: false,
  lastActivityAt: '2026-11-18T09:30:00Z',
  ...over,
});

const LIST: TicketListItem[] = [
  item({
    id: 1,
    title: 'Open one',
    nextPlannedActivityInfo: 'Visit on Monday',
    activityReport: {
      id: 9,
      name: 'R9',
      dateTime: '2026-11-19T10:00:00Z',
      documentUrl: '/api/files/9/r.pdf?e=1&s=x',
    },
  }),
  item({ id: 2, title: 'Closed one', taskStatus: { step: { id: 4, name: 'Closed', taskStatus: 2 } } }),
  item({
    id: 3,
    title: 'No number',
    internalAnnualProgressive: 0,
    ticketNumber: '',
    creatorContactWebUser: null,
  }),
];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
type Call = { url: string; init?: RequestInit };

function stubFetch(route: (url: string, init?: RequestInit) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return route(url, init) ?? json({ code: 'not_found', message: 'no' }, 404);
    }),
  );
  return calls;
}

function tenantWith(over: Parameters<typeof contact>[0] = {}): Tenant {
  const c = contact({ ...ALL_FLAGS, contactId: 11, ...over });
  return { company: 'demo', contactId: 11, contact: c, user: user([c], { id: 1 }), basePath: '/demo/11' };
}

function renderAt(path: string | { pathname: string; state: unknown }, tenant: Tenant) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[path]}>
      <TenantContext.Provider value={tenant}>
        <Routes>
          <Route path="/demo/11/tickets" element={<TicketsPage />} />
          <Route path="/demo/11/alltickets" element={<AllTicketsPage />} />
          <Route path="/demo/11/tickets/new" element={<NewTicketPage />} />
          <Route path="/demo/11/tickets/:ticketid" element={<TicketDetailPage />} />
        </Routes>
      </TenantContext.Provider>
    </MemoryRouter>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('my tickets', { timeout: 20_000 }, () => {
  beforeEach(() => {
    stubFetch((u) => (u.startsWith('/api/demo/11/tickets') ? json(LIST) : undefined));
  });

  it('hides closed tickets by default and shows them under "All"', async () => {
    renderAt('/demo/11/tickets', tenantWith());
    await screen.findByText('Open one');
    expect(screen.queryByText('Closed one')).toBeNull();
    expect(screen.getAllByTestId('ticket-row')).toHaveLength(2);
    await userEvent.click(await screen.findByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'All' }));
    await screen.findByText('Closed one');
    expect(screen.getAllByTestId('ticket-row')).toHaveLength(3);
  });

  it('shows number, type, date, next activity, step and report link; the row links to the detail', async () => {
    renderAt('/demo/11/tickets', tenantWith());
    const row = (await screen.findByText('Open one')).closest('li')!;
    expect(within(row).getByTestId('ticket-number').textContent).toBe('Ticket number 2026/0001');
    expect(within(row).getByRole('link', { name: 'Open one' }).getAttribute('href')).toBe(
      '/demo/11/tickets/1',
    );
    expect(within(row).getByTestId('ticket-type').textContent).toBe('Fault');
    expect(within(row).getByText('18/11/2026 at 10:30')).toBeTruthy();
    expect(within(row).getByText('Next planned activity: Visit on Monday')).toBeTruthy();
    expect(within(row).getByTestId('ticket-step').textContent).toBe('New');
    expect(within(row).getByRole('link', { name: 'Open the activity report R9' }).getAttribute('href')).toBe(
      '/api/files/9/r.pdf?e=1&s=x',
    );
    const noNumber = screen.getByText('No number').closest('li')!;
    expect(within(noNumber).queryByTestId('ticket-number')).toBeNull();
    // Not on my tickets: who created the ticket.
    expect(screen.queryByTestId('ticket-creator')).toBeNull();
  });

  it('a ticket that waits for the customer says so once, not also by its step', async () => {
    stubFetch((u) =>
      u.startsWith('/api/demo/11/tickets')
        ? json([
            item({
              id: 5,
              title: 'Your turn',
              waitingOnCustomer: true,
              taskStatus: { step: { id: 3, name: 'Waiting for the customer', taskStatus: 3 } },
            }),
          ])
        : undefined,
    );
    renderAt('/demo/11/tickets', tenantWith());
    const row = (await screen.findByText('Your turn')).closest('li')!;
    expect(within(row).getByTestId('ticket-waiting').textContent).toBe('Waiting for you');
    expect(within(row).queryByTestId('ticket-step')).toBeNull();
    expect(within(row).queryByText('Waiting for the customer')).toBeNull();
  });

  it('shows a type and step the back office named per language in the screen’s language', async () => {
    stubFetch((u) =>
      u.startsWith('/api/demo/11/tickets')
        ? json([
            item({
              id: 6,
              title: 'Named',
              taskType: {
                id: 1,
                name: 'Guasto',
                names: { 'it-IT': 'Guasto', 'en-EN': 'Fault' },
                color: null,
              },
              taskStatus: { step: { id: 4, name: 'Chiuso', names: { 'en-EN': 'Closed' }, taskStatus: 2 } },
            }),
          ])
        : undefined,
    );
    renderAt('/demo/11/tickets?status=all', tenantWith());
    const row = (await screen.findByText('Named')).closest('li')!;
    expect(within(row).getByTestId('ticket-type').textContent).toBe('Fault');
    expect(within(row).getByTestId('ticket-step').textContent).toBe('Closed');
  });

  it('hides the report link and the wiki search without the permissions', async () => {
    renderAt('/demo/11/tickets', tenantWith({ viewContactActivityReports: false, viewContactWiki: false }));
    const row = (await screen.findByText('Open one')).closest('li')!;
    expect(within(row).queryByRole('link', { name: /activity report/ })).toBeNull();
    expect(screen.queryByText('Wiki item')).toBeNull();
  });
});

describe('all tickets', { timeout: 20_000 }, () => {
  it('says who created each ticket and filters by colleague', async () => {
    const calls = stubFetch((u) => {
      if (u.startsWith('/api/users/11/colleagues'))
        return json([{ webUserId: 7, referentName: 'Giulia Bianchi' }]);
      if (u.startsWith('/api/demo/11/tickets/all')) return json(LIST);
      return undefined;
    });
    renderAt('/demo/11/alltickets', tenantWith());
    await screen.findByText('Open one');
    const creators = screen.getAllByTestId('ticket-creator').map((e) => e.textContent);
    expect(creators).toEqual(['Created by Marco Rossi', 'Created by agent']);
    expect(calls.some((c) => c.url === '/api/users/11/colleagues?company=demo')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: /Colleagues/ }));
    await userEvent.click(await screen.findByRole('option', { name: /Giulia Bianchi/ }));
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/demo/11/tickets/all?webUserIds=7')).toBe(true),
    );
  });
});

describe('the filters on a phone', { timeout: 20_000 }, () => {
  it('fold behind one button that says how many are set, and open with it', async () => {
    stubFetch((u) => {
      if (u.startsWith('/api/users/11/colleagues'))
        return json([{ webUserId: 7, referentName: 'Giulia Bianchi' }]);
      if (u.startsWith('/api/demo/11/tickets/all')) return json(LIST);
      return undefined;
    });
    const wide = window.matchMedia;
    window.matchMedia = ((q: string) => ({
      ...wide(q),
      matches: q === PHONE_FILTERS_QUERY,
    })) as typeof window.matchMedia;
    try {
      renderAt('/demo/11/alltickets?status=all&users=7', tenantWith());
      await screen.findByText('Open one');
      // The first ticket comes right after one button; status and colleagues are set: 2.
      const button = screen.getByRole('button', { name: 'Filters (2)' });
      expect(button.getAttribute('aria-expanded')).toBe('false');
      expect(screen.queryByRole('combobox', { name: 'Status' })).toBeNull();
      expect(screen.queryAllByTestId('filter-face')).toHaveLength(0);
      await userEvent.click(button);
      expect(button.getAttribute('aria-expanded')).toBe('true');
      // The controls' chunk comes now (alone, this file's first to ask for it).
      await screen.findByRole('combobox', { name: 'Status' }, { timeout: 15_000 });
      expect(screen.getByRole('button', { name: /Colleagues/ })).toBeTruthy();
    } finally {
      window.matchMedia = wide;
    }
  });
});

describe('a ticket on a phone', { timeout: 20_000 }, () => {
  it('starts with the conversation: the details and followers fold into one line with the step', async () => {
    const detail: TicketDetail = {
      ...item({ id: 42, title: 'Broken printer', nextPlannedActivityInfo: 'Visit on Monday' }),
      description: '<p>It jams</p>',
      attachments: [],
      assignedGroup: { name: 'Helpdesk' },
      assignedUser: null,
      isClosed: false,
      comments: [],
      rating: null,
    };
    const calls = stubFetch((u) => (u === '/api/demo/11/tickets/42' ? json(detail) : undefined));
    const wide = window.matchMedia;
    window.matchMedia = ((q: string) => ({
      ...wide(q),
      matches: q === NARROW_DETAIL_QUERY,
    })) as typeof window.matchMedia;
    try {
      renderAt('/demo/11/tickets/42', tenantWith());
      await screen.findByRole('heading', { level: 1, name: 'Broken printer' });
      const fold = screen.getByTestId('details-fold');
      // Before the conversation in the page, one line: the step shows, the rest waits.
      expect(
        fold.compareDocumentPosition(screen.getByTestId('conversation')) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      expect(within(fold).getByTestId('fold-step').textContent).toBe('New');
      expect(screen.queryByTestId('side-group')).toBeNull();
      expect(screen.queryByTestId('followers')).toBeNull();
      expect(calls.some((c) => c.url.includes('/followers'))).toBe(false);
      const button = within(fold).getByRole('button', { name: /Ticket details/ });
      await userEvent.click(button);
      expect(button.getAttribute('aria-expanded')).toBe('true');
      expect(screen.getByTestId('side-group').textContent).toContain('Helpdesk');
      expect(screen.getByTestId('side-next-activity').textContent).toContain('Visit on Monday');
    } finally {
      window.matchMedia = wide;
    }
  });
});

describe('new ticket', { timeout: 30_000 }, () => {
  const types = [
    { id: 1, name: 'Fault', color: '#e03131' },
    { id: 2, name: 'Request', color: null },
  ];

  it('shows the A8 alert and sends nothing while a required field is missing (plain editor)', async () => {
    const calls = stubFetch((u, init) => {
      if (u === '/api/settings/demo/tickets/types') return json(types);
      if (u.startsWith('/api/demo/11/wikielements')) return json([]);
      if (u === '/api/demo/11/tickets' && init?.method === 'POST') return json(item({ id: 50 }), 201);
      if (u.startsWith('/api/demo/11/tickets')) return json([]);
      return undefined;
    });
    const tenant = tenantWith({ portalSettings: portalSettings({ disableHtmlEditor: true }) });
    renderAt('/demo/11/tickets/new', tenant);
    // The form draws once the wiki's answer says whether its picker is in it.
    const send = await screen.findByRole('button', { name: 'Send' });
    await userEvent.click(send);
    expect((await screen.findByTestId('form-alert')).textContent).toBe('Please fill in all required fields');
    const posts = () => calls.filter((c) => c.init?.method === 'POST');
    expect(posts()).toHaveLength(0);
    // No wiki elements: no picker.
    expect(screen.queryByText('Related wiki item (optional)')).toBeNull();

    await userEvent.click(screen.getByRole('combobox', { name: /Type/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Request' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Subject/ }), { target: { value: 'Printer' } });
    await userEvent.click(send);
    expect(posts()).toHaveLength(0);

    const description = screen.getByRole('textbox', { name: /Description/ });
    expect(description.tagName).toBe('TEXTAREA');
    fireEvent.change(description, { target: { value: 'It jams.' } });
    await userEvent.click(send);
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(JSON.parse(String(posts()[0]!.init!.body))).toEqual({
      title: 'Printer',
      taskTypeId: 2,
      description: 'It jams.',
      wikiElementId: null,
      attachments: [],
    });
    // Back to the list afterwards.
    await screen.findByRole('heading', { level: 1, name: 'My tickets' });
  });

  it('offers the wiki picker when the company has wiki elements', async () => {
    stubFetch((u) => {
      if (u === '/api/settings/demo/tickets/types') return json(types);
      if (u.startsWith('/api/demo/11/wikielements'))
        return json([
          { id: 5, name: 'SRV-01', wikiFolderId: 1, folderName: 'Servers', properties: [], contracts: [] },
        ]);
      return undefined;
    });
    renderAt('/demo/11/tickets/new', tenantWith());
    // The form draws once, with the picker in it: nothing below the picker moves when its answer comes.
    await screen.findByRole('button', { name: 'Send' });
    expect(screen.getByText('Related wiki item (optional)')).toBeTruthy();
    // A form's field, not a filter: nothing chosen reads "None", not "No filter".
    expect(screen.getByText('None')).toBeTruthy();
    expect(screen.queryByText('No filter')).toBeNull();
  });
});

const comment = (over: Partial<TicketComment>): TicketComment => ({
  id: 1,
  message: '<p>Hi</p>',
  creationDate: '2026-11-18T10:00:00Z',
  senderContactWebUser: null,
  senderUser: null,
  attachments: [],
  ...over,
});

describe('ticket detail', { timeout: 30_000 }, () => {
  // The English texts, with i18next's {{name}} placeholders filled.
  const t = (k: string, o: Record<string, string> = {}) =>
    (
      ({
        'tickets.detail.you': 'You',
        'tickets.detail.agent': 'Agent',
        'tickets.detail.openedForYou': 'Opened for you by {{agent}}',
        'tickets.detail.openedFor': 'Opened by {{agent}} for {{contact}}',
      })[k] ?? k
    ).replace(/\{\{(\w+)\}\}/g, (_, name: string) => o[name] ?? '');

  it('names comment authors: you, a colleague, or an agent with image or initial', () => {
    const me = comment({
      senderContactWebUser: { webUser: { id: 1, userName: 'demo' }, referentName: 'Marco' },
    });
    const colleague = comment({
      senderContactWebUser: { webUser: { id: 2, userName: 'g' }, referentName: 'Giulia' },
    });
    const agent = comment({
      senderUser: { displayName: 'Sara', hasProfileImage: true, profileImage: '/api/files/3/s.png' },
    });
    const plainAgent = comment({
      senderUser: { displayName: 'Davide', hasProfileImage: false, profileImage: null },
    });
    // "You", with one's own initial on the avatar (not the Y of "You").
    expect(commentAuthor(me, 1, t)).toEqual({
      name: 'You',
      isSelf: true,
      isAgent: false,
      initialOf: 'Marco',
    });
    expect(commentAuthor(colleague, 1, t)).toEqual({ name: 'Giulia', isSelf: false, isAgent: false });
    expect(commentAuthor(agent, 1, t)).toMatchObject({
      name: 'Sara',
      isAgent: true,
      imageUrl: '/api/files/3/s.png',
    });
    expect(commentAuthor(plainAgent, 1, t)).toMatchObject({ name: 'Davide', isAgent: true, imageUrl: null });
  });

  it("shows the description as from 'you' on one's own ticket, else from its creator or an agent", () => {
    const own = {
      creatorContactWebUser: { contactId: 11, referentName: 'Marco', companyName: 'R' },
    } as TicketDetail;
    const other = {
      creatorContactWebUser: { contactId: 12, referentName: 'Giulia', companyName: 'R' },
    } as TicketDetail;
    const byAgent = { creatorContactWebUser: null } as TicketDetail;
    expect(descriptionAuthor(own, { contactId: 11 }, t)).toMatchObject({ name: 'You', initialOf: 'Marco' });
    expect(descriptionAuthor(other, { contactId: 11 }, t).name).toBe('Giulia');
    expect(descriptionAuthor(byAgent, { contactId: 11 }, t).name).toBe('Agent');
    const phoned = { ...own, openedBy: 'Sara Conti' } as TicketDetail;
    expect(descriptionAuthor(phoned, { contactId: 11 }, t)).toMatchObject({
      name: 'Opened for you by Sara Conti',
      isSelf: true,
    });
    expect(descriptionAuthor({ ...other, openedBy: 'Sara Conti' }, { contactId: 11 }, t).name).toBe(
      'Opened by Sara Conti for Giulia',
    );
  });

  it('renders the conversation sanitised, the side panel, and refuses an empty reply', async () => {
    const detail: TicketDetail = {
      ...item({ id: 42, title: 'Broken printer' }),
      description: '<p>It <b>jams</b></p><img src=x onerror="window.__xss=1"><script>window.__xss=1</script>',
      attachments: [{ id: 1, name: 'photo.JPG', url: '/api/files/1/photo.JPG?e=1&s=x' }],
      assignedGroup: { name: 'Helpdesk' },
      assignedUser: { firstName: 'Sara', lastName: 'Conti' },
      isClosed: false,
      comments: [
        comment({
          id: 2,
          message: '<p>On it</p>',
          senderUser: { displayName: 'Sara Conti', hasProfileImage: false, profileImage: null },
          // Sara answered by replying to the notice e-mail.
          channel: 'email',
        }),
      ],
      rating: null,
    };
    const calls = stubFetch((u, init) => {
      if (u === '/api/demo/11/tickets/42') return json(detail);
      if (u.toLowerCase() === '/api/demo/11/comments' && init?.method === 'POST')
        return json(comment({ id: 3 }), 201);
      return undefined;
    });
    renderAt(
      '/demo/11/tickets/42',
      tenantWith({ portalSettings: portalSettings({ disableHtmlEditor: true }) }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Broken printer' });
    const description = screen.getByTestId('ticket-description');
    expect(within(description).getByText('You')).toBeTruthy();
    expect(description.querySelector('script, [onerror]')).toBeNull();
    expect(within(description).getByRole('img', { name: 'photo.JPG' })).toBeTruthy();
    expect(within(screen.getByTestId('ticket-comment')).getByText('Sara Conti')).toBeTruthy();
    // Came by e-mail: a mail icon that says so in words; the customer gets no link to the raw message.
    const byMail = screen.getByTestId('ticket-comment');
    expect(within(byMail).getByRole('img', { name: 'Sent by e-mail' })).toBeTruthy();
    expect(within(byMail).queryByTestId('full-email')).toBeNull();
    expect(within(description).queryByTestId('via-email')).toBeNull();
    expect(screen.getByTestId('side-group').textContent).toContain('Helpdesk');
    expect(screen.getByTestId('side-assignee').textContent).toContain('Sara Conti');
    expect(screen.getByTestId('side-step').textContent).toContain('New');

    expect(document.title).toBe('Broken printer · Sportello');
    // The ticket's status box comes before the conversation (on a phone it shows first).
    const side = screen.getByTestId('side-step');
    expect(side.compareDocumentPosition(description) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByText('This ticket is closed: sending a reply reopens it.')).toBeNull();

    // Nothing to send: spaces only (the server refuses it too).
    await userEvent.type(screen.getByRole('textbox', { name: 'Reply' }), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Write a message or attach a file.');
    const replies = () => calls.filter((c) => c.init?.method === 'POST' && /\/comments$/i.test(c.url));
    expect(replies()).toHaveLength(0);

    await userEvent.type(screen.getByRole('textbox', { name: 'Reply' }), 'Thanks');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(replies()).toHaveLength(1));
    const body = JSON.parse(String(replies()[0]!.init!.body));
    expect(body).toMatchObject({ taskId: 42, message: '   Thanks', commentType: 0, attachments: [] });
  });

  it('says before sending that a reply reopens a closed ticket, and translates a failure', async () => {
    const detail: TicketDetail = {
      ...item({ id: 43, title: 'Done' }),
      description: '<p>x</p>',
      attachments: [],
      assignedGroup: null,
      assignedUser: null,
      isClosed: true,
      comments: [],
      rating: null,
    };
    stubFetch((u, init) => {
      if (u === '/api/demo/11/tickets/43') return json(detail);
      if (u.toLowerCase() === '/api/demo/11/comments' && init?.method === 'POST')
        return new Response('Internal Server Error', { status: 500, statusText: 'Internal Server Error' });
      return undefined;
    });
    renderAt(
      '/demo/11/tickets/43',
      tenantWith({ portalSettings: portalSettings({ disableHtmlEditor: true }) }),
    );
    await screen.findByText('This ticket is closed: sending a reply reopens it.');
    await userEvent.type(screen.getByRole('textbox', { name: 'Reply' }), 'Again');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const problem = await screen.findByText(/^The reply could not be sent/);
    expect(problem.textContent).toBe(
      'The reply could not be sent: Something went wrong on the server. Please try again in a few minutes.',
    );
  });

  it('a merged ticket reads only: no reply, reopen, rating or followers to change; the banner leads on', async () => {
    const detail: TicketDetail = {
      ...item({ id: 45, title: 'Duplicate' }),
      description: '<p>x</p>',
      attachments: [],
      assignedGroup: null,
      assignedUser: null,
      isClosed: true,
      comments: [],
      rating: null,
      mergedInto: { id: 46, ticketNumber: '2026/0046', reachable: true },
    };
    stubFetch((u) => (u === '/api/demo/11/tickets/45' ? json(detail) : undefined));
    renderAt('/demo/11/tickets/45', tenantWith());
    const go = await screen.findByRole('link', { name: '2026/0046' });
    expect(go.getAttribute('href')).toBe('/demo/11/tickets/46');
    expect(screen.queryByRole('textbox', { name: 'Reply' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Reopen/ })).toBeNull();
    expect(screen.queryByTestId('rating-box')).toBeNull();
  });

  it('leads back to all tickets when opened from there', async () => {
    const detail = {
      ...item({ id: 44, title: 'A colleague’s' }),
      description: '',
      attachments: [],
      comments: [],
    };
    stubFetch((u) => (u === '/api/demo/11/tickets/44' ? json(detail) : undefined));
    renderAt({ pathname: '/demo/11/tickets/44', state: { from: 'alltickets' } }, tenantWith());
    const back = await screen.findByRole('link', { name: 'Back to all tickets' });
    expect(back.getAttribute('href')).toBe('/demo/11/alltickets');
  });

  it('says when a ticket does not exist or may not be opened', async () => {
    stubFetch((u) =>
      u === '/api/demo/11/tickets/99' ? json({ code: 'ticket_not_found', message: 'x' }, 404) : undefined,
    );
    renderAt('/demo/11/tickets/99', tenantWith());
    await screen.findByRole('heading', { level: 1, name: 'Ticket not found' });
  });
});

describe('conversation with its timeline (issue 16)', () => {
  it('puts the public changes among the comments by time, a change before a comment of the same instant', () => {
    const c = (id: number, at: string) => ({ ...comment({ id }), creationDate: at });
    const change = (id: number, at: string) => ({
      id,
      at,
      kind: 'step' as const,
      fromStep: null,
      toStep: { id: 1, name: 'In progress' },
      by: { kind: 'agent' as const, name: 'Sara' },
    });
    const items = conversation({
      comments: [c(1, '2026-11-18T10:00:00Z'), c(2, '2026-11-18T12:00:00Z')],
      timeline: [change(7, '2026-11-18T11:00:00Z'), change(8, '2026-11-18T12:00:00Z')],
    });
    expect(items.map((i) => (i.kind === 'comment' ? `c${i.comment.id}` : `s${i.entry.id}`))).toEqual([
      'c1',
      's7',
      's8',
      'c2',
    ]);
    expect(conversation({ comments: [c(1, '2026-11-18T10:00:00Z')] })).toHaveLength(1);
  });
});
