import { describe, expect, it } from 'vitest';
import {
  isBlankHtml,
  isClosedTicket,
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
