import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes, routesFor } from './router';

/** Every route object of the table, numbered: a match is told by the very objects it names. */
const ids = new Map<RouteObject, number>();
const number = (rs: RouteObject[]) =>
  rs.forEach((r) => {
    ids.set(r, ids.size);
    if (r.children) number(r.children);
  });
number(routes);

const matched = (table: RouteObject[], pathname: string) =>
  matchRoutes(table, pathname)?.map((m) => ({
    route: ids.get(m.route),
    params: m.params,
    pathname: m.pathname,
    pathnameBase: m.pathnameBase,
  })) ?? null;

// First segments: portals in any case, the routes' own words (which other routes start with, or take
// for a portal), numbers and odd spellings; then what can follow.
const FIRST = [
  'demo',
  'DEMO',
  'p001',
  'x',
  '123',
  'staff',
  'STAFF',
  'appointments',
  'Appointments',
  'tasks',
  'TASKS',
  'documents',
  'login',
  'confirm',
  'confirm-email',
  'privacy',
  'notifications',
  'view-as',
  'branding-preview',
  'tickets',
  'overview',
  'a%20b',
  'a%2Fb',
  '%E2%82%AC',
  'x.y',
  '-',
  '_',
];
const SECOND = [
  '',
  'staff',
  'STAFF',
  'Staff',
  'sTaFf',
  'staffs',
  'staf',
  'login',
  'tickets',
  '42',
  'documents',
  'cancellation',
];
const REST = [
  '',
  '/',
  '/login',
  '/accept',
  '/tickets',
  '/tickets/',
  '/tickets/new',
  '/tickets/5',
  '/TICKETS/5',
  '/admin',
  '/admin/x/y',
  '/foo',
  '/foo/bar',
  '/confirm',
  '/staff',
  '//',
];

describe('routesFor', () => {
  it('matches every address as the whole table does, and the inbox and tickets with the desk alone', () => {
    let inbox = 0;
    for (const a of FIRST)
      for (const b of SECOND)
        for (const c of REST) {
          const pathname = `/${a}${b ? `/${b}` : ''}${c}`;
          const table = routesFor(pathname);
          // Any other address keeps the whole table: nothing to compare.
          if (table === routes) continue;
          inbox += 1;
          expect(matched(table, pathname), pathname).toEqual(matched(routes, pathname));
        }
    // The desk's inbox (`/:company/staff`, any case, with or without a slash) and its tickets took the
    // short table: four spellings of `staff` as the second segment with nothing, a slash or a ticket
    // (two spellings) after, and the `/staff` rest.
    expect(inbox).toBe(FIRST.length * (4 * 4 + 1));
    expect(routesFor('/demo/staff')).toHaveLength(1);
    expect(routesFor('/demo/staff/tickets/5')).toHaveLength(1);
    expect(routesFor('/demo/staff/tickets/new')).toBe(routes);
    expect(routesFor('/demo/42/tickets')).toBe(routes);
  });
});
