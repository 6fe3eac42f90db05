import { describe, expect, it } from 'vitest';
import { nextIndex, targetOf } from './search-links';

const hit = { id: 7, title: 'x', detail: null, date: null, url: null };

describe('search links', () => {
  it('opens tickets and wiki elements in the portal, files by their signed link', () => {
    expect(targetOf('/demo/11', 'tickets', hit)).toEqual({ to: '/demo/11/tickets/7' });
    expect(targetOf('/demo/11', 'wiki', hit)).toEqual({ to: '/demo/11/wiki?element=7' });
    expect(targetOf('/demo/11', 'serviceContracts', hit)).toEqual({ to: '/demo/11/servicecontracts' });
    expect(targetOf('/demo/11', 'invoices', { ...hit, url: '/api/files/1/a.pdf?sig=x' })).toEqual({
      href: '/api/files/1/a.pdf?sig=x',
    });
  });

  it('walks the rows with the arrows, from the text box (-1) and back to it', () => {
    expect(nextIndex(-1, 'ArrowDown', 3)).toBe(0);
    expect(nextIndex(2, 'ArrowDown', 3)).toBe(2);
    expect(nextIndex(0, 'ArrowUp', 3)).toBe(-1);
    expect(nextIndex(-1, 'ArrowUp', 3)).toBe(-1);
    expect(nextIndex(-1, 'ArrowDown', 0)).toBe(-1);
  });
});
