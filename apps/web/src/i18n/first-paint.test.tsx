// The first load carries only the Italian texts of the shell and My tickets (first-paint.ts): the shell
// and My tickets, drawn with those texts alone, must miss none.
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TicketListItem } from '@sportello/contracts';
import { AppProvider, createQueryClient } from '../app/provider';
import { routes } from '../app/router';
import { ALL_FLAGS, contact, user } from '../test/fixtures';
import { FIRST_PAINT_TEXTS, splitTexts, type Texts } from './first-paint';
import itIT from './it-IT.json';
import { applyLanguage, i18n } from './index';

// The whole app with its lazy chunks: on a busy machine that takes seconds.
configure({ asyncUtilTimeout: 15_000 });

type Tree = { [k: string]: string | Tree };
const leaves = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [prefix + k] : leaves(v, `${prefix}${k}.`),
  );

describe('the first-paint texts', () => {
  it('and the rest hold every Italian text once', () => {
    const [first, rest] = splitTexts(itIT as Texts);
    const [a, b] = [leaves(first as Tree), leaves(rest as Tree)];
    expect([...a, ...b].sort()).toEqual(leaves(itIT as Tree).sort());
    expect(a.filter((k) => b.includes(k))).toEqual([]);
    // A third of the texts at most: the point of the split.
    expect(JSON.stringify(first).length).toBeLessThan(JSON.stringify(itIT).length / 3);
  });

  it('name only texts that exist', () => {
    expect(() => splitTexts(itIT as Texts, [...FIRST_PAINT_TEXTS, 'tickets.noSuchText'])).toThrow(
      /tickets.noSuchText names no text/,
    );
  });
});

describe('the shell and My tickets with the first-paint texts alone', { timeout: 30_000 }, () => {
  const missing: string[] = [];
  const onMissing = (_lngs: readonly string[], _ns: string, key: string) => void missing.push(key);

  beforeAll(() => {
    applyLanguage('it-IT', { remember: false });
    i18n.removeResourceBundle('it-IT', 'translation');
    i18n.addResourceBundle('it-IT', 'translation', splitTexts(itIT as Texts)[0]);
    i18n.options.saveMissing = true;
    i18n.on('missingKey', onMissing);
  });
  afterAll(() => {
    i18n.off('missingKey', onMissing);
    i18n.options.saveMissing = false;
    i18n.addResourceBundle('it-IT', 'translation', itIT, true, true);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('miss no text', async () => {
    const ticket: TicketListItem = {
      id: 7,
      title: 'La stampante',
      ticketNumber: '2026/0007',
      internalAnnualProgressive: 7,
      createdOn: '2026-11-18T09:30:00Z',
      taskType: { id: 1, name: 'Guasto', color: '#e03131' },
      taskStatus: { step: { id: 1, name: 'Nuovo', taskStatus: 0 } },
      nextPlannedActivityInfo: 'Visita lunedì',
      creatorContactWebUser: { contactId: 101, referentName: 'Marco Rossi', companyName: 'Acme' },
      activityReport: null,
      wikiElement: null,
      waitingOnCustomer: true,
      lastActivityAt: '2026-11-19T09:30:00Z',
    };
    const me = user([
      contact({ ...ALL_FLAGS }),
      contact({ ...ALL_FLAGS, contactId: 102, companyName: 'Beta' }),
    ]);
    const body = (url: string): unknown => {
      if (url === '/api/Users/me') return me;
      if (/^\/api\/Settings\/portals\//.test(url)) return me.contacts[0]?.portalSettings;
      if (/\/publicfiles$/.test(url)) return [];
      if (/\/tickets\/unread$/.test(url)) return { ticketIds: [7] };
      if (/\/tickets(\?.*)?$/.test(url)) return [ticket];
      if (/\/notifications$/.test(url)) return { unread: 0, items: [] };
      return undefined;
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const answer = body(String(input));
        return new Response(JSON.stringify(answer ?? { code: 'not_found', message: 'no' }), {
          status: answer === undefined ? 404 : 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    localStorage.setItem('token', 't');
    const router = createMemoryRouter(routes, { initialEntries: ['/demo/101/tickets'] });
    render(
      <AppProvider queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    await screen.findByText('La stampante');
    // The header's menus arrive after the first paint; open them too.
    fireEvent.click(await screen.findByRole('button', { name: 'Notifiche' }));
    await screen.findByRole('dialog', { name: 'Notifiche' });
    expect(missing).toEqual([]);
  });
});
