// route-refs.ts is generated from the contracts (`npm run route-refs`): it must be what they say now.
import { describe, expect, it } from 'vitest';
import * as contracts from './index';
import { browserRouteTrees, isRouteContract, routeRefsOf } from './route';
import * as refs from './route-refs';

describe('the route references (route-refs.ts)', () => {
  const trees = browserRouteTrees(contracts as Record<string, unknown>);

  it('mirror every route object a browser session calls, route by route (else: npm run route-refs)', () => {
    expect(Object.keys(refs).sort()).toEqual(trees.map(([name]) => name));
    for (const [name, tree] of trees)
      expect(refs[name as keyof typeof refs], name).toEqual(routeRefsOf(tree));
  });

  it('carry no schema: method, path and guard only', () => {
    const leaves = (v: unknown): unknown[] =>
      isRouteContract(v) ? [v] : Object.values(v as object).flatMap(leaves);
    for (const ref of leaves(refs))
      expect(Object.keys(ref as object).sort()).toEqual(['access', 'method', 'path']);
  });

  it('leave out the back office routes, and the list of every area', () => {
    expect(Object.keys(refs)).not.toContain('apiRoutes');
    expect(Object.keys(refs)).not.toContain('integrationRoutes');
    expect(Object.keys(refs)).toContain('ticketRoutes');
  });
});
