import { describe, expect, it } from 'vitest';
import { activeFilterCount, filtersFromSearch, inboxQueryOf, searchFromFilters } from './inbox-url';

const parse = (s: string) => filtersFromSearch(new URLSearchParams(s));

describe('inbox filters in the URL', () => {
  it('round-trips every filter', () => {
    const f = {
      view: 'mine' as const,
      company: 3,
      contact: 11,
      type: 2,
      step: 1,
      group: 4,
      assignee: 0,
      rating: 'low' as const,
      from: '2026-01-01',
      to: '2026-01-31',
      q: 'stampante rotta',
    };
    expect(parse(searchFromFilters(f))).toEqual(f);
  });

  it('leaves the default view and empty values out of the URL', () => {
    expect(searchFromFilters({ view: 'open' })).toBe('');
    expect(searchFromFilters({ view: 'open', q: '  ' })).toBe('');
    expect(searchFromFilters({ view: 'closed', q: ' 1001 ' })).toBe('?view=closed&q=1001');
  });

  it('drops what the desk cannot have written instead of sending it on', () => {
    expect(
      parse('view=everything&company=abc&type=-1&step=0&group=1e3&from=yesterday&to=2026-13&rating=5'),
    ).toEqual({
      view: 'open',
    });
    expect(parse('contact=99999999999999999999')).toEqual({ view: 'open' });
  });

  it('keeps assignee 0 (unassigned) but no other zero id', () => {
    expect(parse('assignee=0&company=0')).toEqual({ view: 'open', assignee: 0 });
  });

  it('caps the search words at what the API takes', () => {
    expect(parse(`q=${'x'.repeat(500)}`).q).toHaveLength(200);
  });

  it('counts the narrowing filters and builds the API query', () => {
    const f = parse('view=groups&type=2&from=2026-01-01&to=2026-01-02&q=x&rating=any');
    expect(activeFilterCount(f)).toBe(3);
    expect(inboxQueryOf(f)).toMatchObject({
      view: 'groups',
      type: 2,
      from: '2026-01-01',
      q: 'x',
      rating: 'any',
    });
  });

  it('holds priority, tag, due date and order in the URL (issue 28), and drops what is not one', () => {
    const f = parse('priority=urgent&tag=4&due=overdue&sort=due');
    expect(f).toEqual({ view: 'open', priority: 'urgent', tag: 4, due: 'overdue', sort: 'due' });
    expect(searchFromFilters(f)).toBe('?tag=4&priority=urgent&due=overdue&sort=due');
    expect(activeFilterCount(f)).toBe(3);
    expect(inboxQueryOf(f)).toMatchObject({ priority: 'urgent', tag: 4, due: 'overdue', sort: 'due' });
    // The default order is left out of the URL and asked for explicitly.
    expect(parse('sort=activity')).toEqual({ view: 'open' });
    expect(inboxQueryOf(parse(''))).toMatchObject({ sort: 'activity' });
    expect(parse('priority=critical&tag=0&due=soon&sort=random')).toEqual({ view: 'open' });
  });
});
