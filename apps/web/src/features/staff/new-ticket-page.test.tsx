// The desk's new ticket on behalf of a contact and a ticket's task page links (issue 14).
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InboxAnswer, StaffOptions, StaffTicketDetail } from '@sportello/contracts';
import { storage } from '../../lib/storage';
import { portalSettings } from '../../test/fixtures';
import { json, renderApp, staffMe, stubFetch, where, type Call } from './desk-test-kit';

const OPTIONS: StaffOptions = {
  steps: [
    { id: 1, name: 'New', taskStatus: 0, isDefault: true, isClosing: false },
    { id: 2, name: 'In progress', taskStatus: 1, isDefault: false, isClosing: false },
  ],
  types: [{ id: 1, name: 'Fault', color: '#e03131' }],
  groups: [{ id: 4, name: 'Helpdesk' }],
  agents: [{ id: 2, displayName: 'Sara Conti', staffUserId: 7 }],
  ticketTags: [],
  lowRatingThreshold: 2,
  me: { staffUserId: 7, agentId: 2, groupIds: [4] },
};
const EMPTY_INBOX: InboxAnswer = {
  items: [],
  counts: { unassigned: 0, mine: 0, groups: 0, waiting: 0, breaching: 0, open: 0, closed: 0 },
  countCap: 1000,
  nextCursor: null,
};
const DETAIL: StaffTicketDetail = {
  id: 7001,
  ticketNumber: '2026/0042',
  title: 'Printer jam (phone)',
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
  sla: null,
  tags: [],
  unread: false,
  description: '<p>E42</p>',
  nextPlannedActivityInfo: null,
  openedBy: null,
  attachments: [],
  openingEmail: null,
  comments: [],
  timeline: [],
  presence: [],
  rated: null,
};

/** The API of a signed-in agent of portal demo; `extra` answers what a test adds. */
function deskApi(extra: (u: URL, method: string, init?: RequestInit) => Response | undefined) {
  return stubFetch((url, init) => {
    const u = new URL(url, 'http://x');
    const method = init?.method ?? 'GET';
    const answer = extra(u, method, init);
    if (answer) return answer;
    if (u.pathname === '/api/staff/me') return json(staffMe('agent'));
    if (u.pathname === '/api/Settings/portals/demo') return json(portalSettings({ disableHtmlEditor: true }));
    if (u.pathname === '/api/staff/portals/demo/options') return json(OPTIONS);
    if (u.pathname === '/api/staff/portals/demo/unread')
      return json({ unread: EMPTY_INBOX.counts, counts: EMPTY_INBOX.counts, countCap: 1000, version: 'v1' });
    if (u.pathname === '/api/staff/portals/demo/tickets' && method === 'GET') return json(EMPTY_INBOX);
    if (u.pathname === '/api/staff/portals/demo/companies')
      return json({ items: [{ id: 3, companyName: 'Rossi Srl' }] });
    if (u.pathname === '/api/staff/portals/demo/companies/3/contacts')
      return json({
        items: [
          { contactId: 11, companyId: 3, referentName: 'Marco Rossi', email: 'm@rossi.example', phone: null },
        ],
        nextCursor: null,
      });
    if (u.pathname === '/api/staff/portals/demo/tickets/7001' && method === 'GET') return json(DETAIL);
    if (u.pathname === '/api/staff/portals/demo/tickets/7001/presence') return json({ others: [] });
    return undefined;
  });
}

const sent = (calls: Call[], method: string, path: string) =>
  calls.filter((c) => c.init?.method === method && new URL(c.url, 'http://x').pathname === path);

/** The visible input of a Mantine Select (its hidden twin carries the value). */
const selectInput = (name: string | RegExp) =>
  screen
    .getAllByLabelText(name)
    .find((e): e is HTMLInputElement => e instanceof HTMLInputElement && e.type !== 'hidden')!;

/** Types by pasting (user-event's key by key takes seconds on a loaded machine). */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

// The desk's chunk and several requests: more than the default second on a loaded machine.
configure({ asyncUtilTimeout: 8000 });

afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('a new ticket from the desk', { timeout: 60_000 }, () => {
  it('opens from the inbox with c (listed in the ? help) and from its button', async () => {
    storage.set('staffToken', 'staff-token');
    deskApi(() => undefined);
    renderApp('/demo/staff?view=open');
    await screen.findByText('No tickets in this view.');
    const user = userEvent.setup();
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('New ticket for a customer')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.keyboard('c');
    await screen.findByRole('heading', { level: 1, name: 'New ticket for a customer' });
    expect(where()).toBe('/demo/staff/tickets/new');
    await user.click(screen.getByRole('link', { name: 'Inbox' }));
    await user.click(await screen.findByTestId('new-ticket'));
    await screen.findByRole('heading', { level: 1, name: 'New ticket for a customer' });
  });

  it('says which fields are missing and sends nothing', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi(() => undefined);
    renderApp('/demo/staff/tickets/new');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'New ticket for a customer' });
    await waitFor(() => expect(selectInput('Status').value).toBe('New'));
    await user.click(screen.getByTestId('new-ticket-submit'));
    expect((await screen.findAllByText('Required.')).length).toBe(4);
    expect(sent(calls, 'POST', '/api/staff/portals/demo/tickets')).toEqual([]);
  });

  it('sends the contact, type, title, description, step, group, assignee and next activity; opens the ticket', async () => {
    storage.set('staffToken', 'staff-token');
    const calls = deskApi((u, method) =>
      u.pathname === '/api/staff/portals/demo/tickets' && method === 'POST'
        ? json({ id: 7001, ticketNumber: '2026/0042' }, 201)
        : undefined,
    );
    renderApp('/demo/staff/tickets/new');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'New ticket for a customer' });
    await user.click(selectInput(/^Company/));
    await user.click(await screen.findByRole('option', { name: 'Rossi Srl' }));
    await user.click(selectInput(/^Contact/));
    await user.click(await screen.findByRole('option', { name: 'Marco Rossi (m@rossi.example)' }));
    await user.click(selectInput(/^Type/));
    await user.click(await screen.findByRole('option', { name: 'Fault' }));
    await user.click(selectInput('Status'));
    await user.click(await screen.findByRole('option', { name: 'In progress' }));
    await user.click(selectInput('Group'));
    await user.click(await screen.findByRole('option', { name: 'Helpdesk' }));
    await user.click(selectInput('Assignee'));
    await user.click(await screen.findByRole('option', { name: 'Sara Conti' }));
    await fill(user, screen.getByRole('textbox', { name: /^Title/ }), 'Printer jam (phone)');
    await fill(user, screen.getByRole('textbox', { name: 'Description' }), 'E42 on the display');
    await fill(user, screen.getByRole('textbox', { name: 'Next planned activity' }), 'Call back tomorrow');
    await user.click(screen.getByTestId('new-ticket-submit'));

    await screen.findByTestId('ticket-created');
    expect(where()).toBe('/demo/staff/tickets/7001');
    expect(screen.getByTestId('ticket-created').textContent).toBe(
      'Ticket 2026/0042 created for Marco Rossi.',
    );
    const [post] = sent(calls, 'POST', '/api/staff/portals/demo/tickets');
    expect(JSON.parse(String(post!.init!.body))).toEqual({
      companyId: 3,
      creatorContactId: 11,
      taskTypeId: 1,
      title: 'Printer jam (phone)',
      description: 'E42 on the display',
      statusStepId: 2,
      assignedGroupId: 4,
      assignedUserId: 2,
      nextPlannedActivityInfo: 'Call back tomorrow',
      attachmentIds: [],
    });
  });

  it("shows the server's refusal in words and keeps what was typed", async () => {
    storage.set('staffToken', 'staff-token');
    deskApi((u, method) =>
      u.pathname === '/api/staff/portals/demo/tickets' && method === 'POST'
        ? json(
            { code: 'unknown_reference', message: 'creatorContactId: the portal has no creatorContact 11' },
            422,
          )
        : undefined,
    );
    renderApp('/demo/staff/tickets/new');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'New ticket for a customer' });
    await user.click(selectInput(/^Company/));
    await user.click(await screen.findByRole('option', { name: 'Rossi Srl' }));
    await user.click(selectInput(/^Contact/));
    await user.click(await screen.findByRole('option', { name: 'Marco Rossi (m@rossi.example)' }));
    await user.click(selectInput(/^Type/));
    await user.click(await screen.findByRole('option', { name: 'Fault' }));
    await fill(user, screen.getByRole('textbox', { name: /^Title/ }), 'Kept');
    await user.click(screen.getByTestId('new-ticket-submit'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Ticket not created: /);
    expect(where()).toBe('/demo/staff/tickets/new');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /^Title/ }).value).toBe('Kept');
  });
});

describe("a ticket's task page links", { timeout: 30_000 }, () => {
  it('shares a link (shown in full, to copy), lists it and revokes it after a confirmation', async () => {
    storage.set('staffToken', 'staff-token');
    let links: { eventKey: string; ticketId: number }[] = [];
    const calls = deskApi((u, method) => {
      const base = '/api/staff/portals/demo/tickets/7001/task-links';
      if (u.pathname === base && method === 'GET') return json({ items: links });
      if (u.pathname === base && method === 'POST') {
        links = [{ eventKey: 'k3yK3yk3yK3yk3yK3yk3yK3y', ticketId: 7001 }];
        return json(links[0], 201);
      }
      if (u.pathname === `${base}/k3yK3yk3yK3yk3yK3yk3yK3y` && method === 'DELETE') {
        links = [];
        return new Response(null, { status: 204 });
      }
      return undefined;
    });
    renderApp('/demo/staff/tickets/7001');
    const user = userEvent.setup();
    const panel = await screen.findByTestId('task-links');
    await within(panel).findByText('No link shared.');
    await user.click(within(panel).getByRole('button', { name: 'Share a task page link' }));
    const field = await within(panel).findByRole<HTMLInputElement>('textbox', { name: 'Link 1' });
    expect(field.value).toBe(`${window.location.origin}/tasks/demo/k3yK3yk3yK3yk3yK3yk3yK3y`);
    expect(within(panel).getByTestId('task-links-status').textContent).toBe(
      'Link made: copy it and send it.',
    );
    expect(within(panel).getByRole('button', { name: 'Copy link 1' })).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Revoke link 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await within(panel).findByText('No link shared.');
    expect(within(panel).getByTestId('task-links-status').textContent).toBe('Link revoked.');
    expect(
      sent(calls, 'DELETE', '/api/staff/portals/demo/tickets/7001/task-links/k3yK3yk3yK3yk3yK3yk3yK3y'),
    ).toHaveLength(1);
  });
});
