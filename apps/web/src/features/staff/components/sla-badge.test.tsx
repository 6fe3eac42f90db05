// The service-level countdown (issue 28 item 13): its state at an instant, its words, and the badges of
// the inbox's rows, which say their state in words (not colour alone).
import { configure, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InboxAnswer, InboxItem, StaffOptions } from '@sportello/contracts';
import type { TicketSla } from '@sportello/contracts/ticket-sla';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../desk-test-kit';
import { slaDuration, slaState } from './sla-badge';

const at = (iso: string) => Date.parse(iso);
const clock = (over: Partial<TicketSla>): TicketSla => ({
  firstResponseDueAt: '2026-03-30T08:00:00Z',
  firstRespondedAt: null,
  resolutionDueAt: '2026-03-30T15:00:00Z',
  nextDueAt: '2026-03-30T08:00:00Z',
  soonAt: '2026-03-30T07:00:00Z',
  paused: false,
  ...over,
});

describe('slaState', () => {
  it('is ok before the soon instant, soon from it, breached from the due time', () => {
    expect(slaState(clock({}), at('2026-03-30T06:59:00Z'))).toEqual({ state: 'ok', ms: 61 * 60_000 });
    expect(slaState(clock({}), at('2026-03-30T07:00:00Z'))?.state).toBe('soon');
    expect(slaState(clock({}), at('2026-03-30T08:00:00Z'))?.state).toBe('breached');
    expect(slaState(clock({}), at('2026-03-30T09:00:00Z'))).toEqual({ state: 'breached', ms: -60 * 60_000 });
  });

  it('is paused while the ticket waits for the customer, and nothing without a pending target', () => {
    expect(slaState(clock({ paused: true }), at('2026-03-30T09:00:00Z'))?.state).toBe('paused');
    expect(slaState(clock({ nextDueAt: null, soonAt: null }), at('2026-03-30T09:00:00Z'))).toBeNull();
    expect(slaState(null, 0)).toBeNull();
  });

  it('words the time left in minutes, hours, days', () => {
    expect(slaDuration(40 * 60_000)).toEqual({ key: 'minutes', values: { n: 40 } });
    expect(slaDuration(-125 * 60_000)).toEqual({ key: 'hours', values: { h: 2, m: 5 } });
    expect(slaDuration((26 * 60 + 10) * 60_000)).toEqual({ key: 'days', values: { d: 1, h: 2 } });
    expect(slaDuration(10_000)).toEqual({ key: 'minutes', values: { n: 1 } });
  });
});

const OPTIONS: StaffOptions = {
  steps: [{ id: 1, name: 'New', taskStatus: 0, isDefault: true, isClosing: false }],
  types: [{ id: 1, name: 'Fault', color: '#e03131' }],
  groups: [],
  agents: [],
  ticketTags: [],
  lowRatingThreshold: 2,
  me: { staffUserId: 7, agentId: 2, groupIds: [] },
};
const COUNTS = { unassigned: 0, mine: 0, groups: 0, waiting: 0, breaching: 2, open: 3, closed: 0 };
const item = (id: number, sla: TicketSla | null): InboxItem => ({
  id,
  ticketNumber: `2026/000${id}`,
  title: `Ticket ${id}`,
  company: { id: 3, name: 'Rossi Srl' },
  contact: null,
  type: { id: 1, name: 'Fault', color: '#e03131' },
  step: { id: 1, name: 'New', taskStatus: 0 },
  group: null,
  assignee: null,
  createdOn: '2026-11-18T09:30:00Z',
  lastActivityAt: '2026-11-18T09:30:00Z',
  waitingOnCustomer: false,
  closed: false,
  rating: null,
  priority: 'high',
  dueAt: null,
  tags: [],
  sla,
  unread: false,
});

configure({ asyncUtilTimeout: 8000 });
afterEach(() => {
  vi.unstubAllGlobals();
  storage.set('staffToken', null);
});

describe('the inbox rows', { timeout: 60_000 }, () => {
  it('show the countdown in words beside the priority, and the view "Breaching soon" with its count', async () => {
    // The badges read the clock to the half minute.
    const now = Math.floor(Date.now() / 30_000) * 30_000;
    const iso = (ms: number) => new Date(now + ms).toISOString();
    const inbox: InboxAnswer = {
      items: [
        item(1, clock({ nextDueAt: iso(40 * 60_000 + 20_000), soonAt: iso(-20 * 60_000) })),
        item(2, clock({ nextDueAt: iso(-125 * 60_000 + 20_000), soonAt: iso(-200 * 60_000) })),
        item(
          3,
          clock({
            nextDueAt: iso(5 * 3_600_000 + 20_000),
            soonAt: iso(3_600_000),
            firstRespondedAt: iso(-1),
          }),
        ),
        item(4, null),
      ],
      counts: COUNTS,
      countCap: 1000,
      nextCursor: null,
    };
    stubFetch((url, init) => {
      const p = new URL(url, 'http://x').pathname;
      if (p === '/api/staff/me') return json(staffMe('agent'));
      if (p === '/api/Settings/portals/demo') return json(portalSettings({ disableHtmlEditor: true }));
      if (p === '/api/staff/portals/demo/options') return json(OPTIONS);
      if (p === '/api/staff/portals/demo/unread')
        return json({ unread: COUNTS, counts: COUNTS, countCap: 1000, version: 'v1' });
      if (p === '/api/staff/portals/demo/tickets' && (init?.method ?? 'GET') === 'GET') return json(inbox);
      if (p === '/api/staff/portals/demo/notifications/count') return json({ unread: 0 });
      if (p === '/api/staff/portals/demo/views') return json({ countCap: 1000, items: [] });
      return undefined;
    });
    storage.set('staffToken', 'staff-token');
    renderApp('/demo/staff?view=breaching');
    const soon = await screen.findByText('First response: Due soon: 40 min');
    expect(soon.closest('[data-sla]')?.getAttribute('data-sla')).toBe('soon');
    const late = screen.getByText('First response: Overdue by 2 h 5 min');
    expect(late.closest('[data-sla]')?.getAttribute('data-sla')).toBe('breached');
    expect(
      screen.getByText('Resolution: Due in 5 h 0 min').closest('[data-sla]')?.getAttribute('data-sla'),
    ).toBe('ok');
    expect(screen.getAllByTestId('sla-badge')).toHaveLength(3);
    expect(screen.getAllByText('Breaching soon').length).toBeGreaterThan(0);
  });
});
