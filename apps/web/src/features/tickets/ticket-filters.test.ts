import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, listStateParams, parseListState, type ListState } from './use-ticket-filters';
import {
  isBlankHtml,
  isClosedTicket,
  sortTickets,
  ticketListQuery,
  visibleTickets,
  webUserIdsParam,
} from './ticket-filters';
import {
  contrastRatio,
  parseColour,
  readableTextColour,
  relativeLuminance,
  typeBadgeColours,
} from '../../ui/type-colour';

const ticket = (taskStatus: number) => ({ taskStatus: { step: { id: 1, name: 's', taskStatus } } });

describe('status filter', () => {
  it('hides tickets whose step taskStatus is 2 under "open", shows all under "all"', () => {
    const list = [ticket(0), ticket(1), ticket(2), ticket(3)];
    expect(visibleTickets(list, 'open').map((t) => t.taskStatus.step.taskStatus)).toEqual([0, 1, 3]);
    expect(visibleTickets(list, 'all')).toHaveLength(4);
    expect(isClosedTicket(ticket(2))).toBe(true);
  });
});

describe('ticketListQuery', () => {
  it('sends from as a day and to as 23:59 of the last day', () => {
    const q = ticketListQuery(
      { start: new Date(2026, 10, 2, 0, 0, 0), end: new Date(2026, 10, 20, 23, 59, 59) },
      null,
    );
    expect(q).toEqual({ from: '2026-11-02', to: '2026-11-20 23:59' });
  });

  it('leaves out what is not set and carries the wiki element', () => {
    expect(ticketListQuery({ start: null, end: null }, null)).toEqual({});
    expect(ticketListQuery({ start: new Date(2026, 0, 5), end: null }, 7)).toEqual({
      from: '2026-01-05',
      wikiFilter: 7,
    });
  });

  it('joins colleague ids as a sorted comma list', () => {
    expect(webUserIdsParam([])).toBeUndefined();
    expect(webUserIdsParam([12, 3])).toBe('3,12');
  });
});

describe('isBlankHtml', () => {
  it.each(['', '<p></p>', '<p> &nbsp; </p>', '<p><br></p>', '   '])('%j is blank', (h) =>
    expect(isBlankHtml(h)).toBe(true),
  );
  it.each(['<p>x</p>', 'plain', '<p><img src="/api/files/1/a.png"></p>'])('%j is not blank', (h) =>
    expect(isBlankHtml(h)).toBe(false),
  );
});

describe('type colours', () => {
  it('parses hex and rgb colours', () => {
    expect(parseColour('#fff')).toEqual([255, 255, 255]);
    expect(parseColour('#1E88E5')).toEqual([30, 136, 229]);
    expect(parseColour('rgb(10, 20, 30)')).toEqual([10, 20, 30]);
    expect(parseColour('hsl(0, 100%, 50%)')).toEqual([255, 0, 0]);
    expect(parseColour('hsl(120,100%,25%)')).toEqual([0, 128, 0]);
    expect(parseColour('hsl(1,200%,3%)')).toBeNull();
    expect(parseColour('red')).toBeNull();
    expect(parseColour('rgb(300,0,0)')).toBeNull();
    expect(parseColour(null)).toBeNull();
  });

  it('picks black on light and white on dark backgrounds', () => {
    expect(readableTextColour([255, 235, 59])).toBe('#000000');
    expect(readableTextColour([33, 33, 33])).toBe('#ffffff');
    expect(typeBadgeColours('#0d47a1')).toEqual({ background: 'rgb(13, 71, 161)', text: '#ffffff' });
    expect(typeBadgeColours('not a colour')).toBeNull();
  });

  it('always reaches at least 4.5:1 (WCAG AA) with the chosen text colour', () => {
    for (let r = 0; r <= 255; r += 17)
      for (let g = 0; g <= 255; g += 17)
        for (let b = 0; b <= 255; b += 17) {
          const l = relativeLuminance([r, g, b]);
          const text = readableTextColour([r, g, b]) === '#ffffff' ? 1 : 0;
          expect(contrastRatio(l, text)).toBeGreaterThanOrEqual(4.5);
        }
  });
});

describe('list state in the address (issue 16)', () => {
  it('keeps every filter through the query string, and the defaults out of it', () => {
    const state: ListState = {
      filters: {
        status: 'all',
        range: { start: new Date(2026, 0, 5), end: new Date(2026, 1, 28, 23, 59, 59) },
        wiki: { id: 7, name: 'Printer', folderName: 'Office & co' },
        sort: 'activity',
      },
      users: [9, 3],
    };
    const params = listStateParams(state);
    expect(params.get('from')).toBe('2026-01-05');
    expect(params.get('to')).toBe('2026-02-28');
    const back = parseListState(new URLSearchParams(params.toString()));
    expect(back.filters.status).toBe('all');
    expect(back.filters.sort).toBe('activity');
    expect(back.filters.wiki).toEqual(state.filters.wiki);
    expect(back.filters.range.start?.getTime()).toBe(state.filters.range.start!.getTime());
    expect(back.filters.range.end?.getTime()).toBe(state.filters.range.end!.getTime());
    expect(back.users).toEqual([3, 9]);
    expect(listStateParams({ filters: DEFAULT_FILTERS, users: [] }).toString()).toBe('');
  });

  it('falls back to the default for anything unreadable', () => {
    const s = parseListState(
      new URLSearchParams('status=x&from=2026-02-30&to=tomorrow&wiki=-1&sort=z&users=a,0,4'),
    );
    expect(s.filters).toEqual(DEFAULT_FILTERS);
    expect(s.users).toEqual([4]);
  });

  it('sorts by the latest public activity when asked, else keeps the server order', () => {
    const a = { id: 1, lastActivityAt: '2026-11-01T10:00:00.000Z' };
    const b = { id: 2, lastActivityAt: '2026-11-03T10:00:00.000Z' };
    const c = { id: 3, lastActivityAt: '2026-11-01T10:00:00.000Z' };
    expect(sortTickets([a, b, c], 'created')).toEqual([a, b, c]);
    expect(sortTickets([a, b, c], 'activity').map((x) => x.id)).toEqual([2, 3, 1]);
  });
});
