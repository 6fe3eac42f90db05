// A desk visit's first load carries only the texts of its layout and inbox (inbox-texts.ts): the layout
// and the inbox, drawn with those texts alone, must miss none; the rest of the desk waits for the rest.
import { configure, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InboxAnswer, InboxItem, StaffOptions } from '@sportello/contracts';
import { applyLanguage, i18n } from '../../../i18n';
import { splitTexts, type Texts } from '../../../i18n/first-paint';
import { storage } from '../../../lib/storage';
import { portalSettings } from '../../../test/fixtures';
import { json, renderApp, staffMe, stubFetch } from '../desk-test-kit';
import enEN from './en-EN.json';
import esES from './es-ES.json';
import { STAFF_NS } from '.';
import { DESK_INBOX_TEXTS } from './inbox-texts';
import itIT from './it-IT.json';

// The rest of the desk's texts never comes: what needs it (the header's menus, the filters, the bulk
// bar) stays away, and the inbox draws with its own texts alone.
vi.mock('./index', async (original) => ({
  ...(await original<typeof import('./index')>()),
  loadStaffTexts: () => new Promise<void>(() => {}),
}));

configure({ asyncUtilTimeout: 15_000 });

type Tree = { [k: string]: string | Tree };
const leaves = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : leaves(v, `${prefix}${k}.`),
  );

describe("the desk's inbox texts", () => {
  it('and the rest hold every text once, in every language', () => {
    for (const texts of [itIT, enEN, esES]) {
      const [inbox, rest] = splitTexts(texts as Texts, DESK_INBOX_TEXTS);
      const [a, b] = [leaves(inbox as Tree), leaves(rest as Tree)];
      expect([...a, ...b].sort()).toEqual(leaves(texts as Tree).sort());
      expect(a.filter((k) => b.includes(k))).toEqual([]);
      // A small part of the desk's texts: the point of the split.
      expect(JSON.stringify(inbox).length).toBeLessThan(JSON.stringify(texts).length / 4);
    }
  });
});

const item = (over: Partial<InboxItem>): InboxItem => ({
  id: 1,
  ticketNumber: '2026/0001',
  title: 'Stampante bloccata',
  company: { id: 3, name: 'Rossi Srl' },
  contact: { id: 11, referentName: 'Marco Rossi' },
  type: { id: 1, name: 'Guasto', color: '#e03131' },
  step: { id: 1, name: 'Nuovo', taskStatus: 0 },
  group: { id: 1, name: 'Helpdesk' },
  assignee: { id: 2, displayName: 'Sara Conti' },
  createdOn: '2026-11-18T09:30:00Z',
  lastActivityAt: '2026-11-18T09:30:00Z',
  waitingOnCustomer: true,
  closed: false,
  rating: null,
  priority: 'urgent',
  dueAt: '2026-11-20T09:30:00Z',
  tags: [],
  sla: null,
  unread: true,
  ...over,
});

describe('the layout and the inbox with the inbox texts alone', { timeout: 30_000 }, () => {
  const missing: string[] = [];
  const onMissing = (_lngs: readonly string[], ns: string, key: string) => void missing.push(`${ns}:${key}`);

  // Every language: the portal's settings choose the one shown.
  const all = { 'it-IT': itIT, 'en-EN': enEN, 'es-ES': esES };
  beforeAll(() => {
    applyLanguage('it-IT', { remember: false });
    for (const [lang, texts] of Object.entries(all)) {
      i18n.removeResourceBundle(lang, STAFF_NS);
      i18n.addResourceBundle(lang, STAFF_NS, splitTexts(texts as Texts, DESK_INBOX_TEXTS)[0]);
    }
    i18n.options.saveMissing = true;
    i18n.on('missingKey', onMissing);
  });
  afterAll(() => {
    i18n.off('missingKey', onMissing);
    i18n.options.saveMissing = false;
    for (const [lang, texts] of Object.entries(all))
      i18n.addResourceBundle(lang, STAFF_NS, texts, true, true);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    storage.set('staffToken', null);
  });

  it('miss no text', async () => {
    const options: StaffOptions = {
      steps: [{ id: 1, name: 'Nuovo', taskStatus: 0, isDefault: true, isClosing: false }],
      types: [{ id: 1, name: 'Guasto', color: '#e03131' }],
      groups: [{ id: 1, name: 'Helpdesk' }],
      agents: [{ id: 2, displayName: 'Sara Conti', staffUserId: 7 }],
      ticketTags: [],
      lowRatingThreshold: 2,
      me: { staffUserId: 7, agentId: 2, groupIds: [1] },
    };
    const counts = { unassigned: 2, mine: 1, groups: 1, waiting: 1, breaching: 0, open: 2, closed: 12000 };
    const answer: InboxAnswer = {
      items: [item({}), item({ id: 2, title: 'Rete lenta', waitingOnCustomer: false, priority: 'low' })],
      counts,
      countCap: 10000,
      nextCursor: 'next',
    };
    storage.set('staffToken', 'staff-token');
    stubFetch((url) => {
      const path = new URL(url, 'http://x').pathname;
      if (path === '/api/staff/me') return json(staffMe('admin'));
      if (path === '/api/Settings/portals/demo') return json(portalSettings());
      if (path === '/api/staff/portals/demo/options') return json(options);
      if (path === '/api/staff/portals/demo/unread')
        return json({ unread: { ...counts, unassigned: 1 }, counts, countCap: 10000, version: 'v1' });
      if (path === '/api/staff/portals/demo/tickets') return json(answer);
      return undefined;
    });
    renderApp('/demo/staff?view=mine');
    expect(await screen.findByText('Stampante bloccata')).toBeTruthy();
    expect(await screen.findByText('Sara Conti')).toBeTruthy();
    expect(await screen.findByTestId('unread-unassigned')).toBeTruthy();
    expect(missing).toEqual([]);
    // The rest never came: the texts drawn were the inbox's alone.
    expect(i18n.getResource(i18n.language, STAFF_NS, 'newTicket.title')).toBeUndefined();
  });
});
