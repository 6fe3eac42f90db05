/**
 * Every integer and date a client sends is bounded by its column (issue 29 item 6a; docs/security.md):
 * walks every contract of `apiRoutes` by zod's introspection, path, query and body to their nested
 * fields, and names each input whose bound is missing or past its column. A new route is covered
 * without doing anything; boundary-walk.test.ts then sends each route those edges.
 */
import { allRouteContracts, routeKey } from '@sportello/contracts';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { boundProblem, inputsOf, leavesOf } from '../test/contract-walk';

describe('contract bounds', () => {
  it('bounds every integer and date of every route by its column', () => {
    const problems: string[] = [];
    let inputs = 0;
    for (const c of allRouteContracts()) {
      for (const leaf of inputsOf(c)) {
        inputs++;
        const p = boundProblem(leaf);
        if (p) problems.push(`${routeKey(c)} ${leaf.part}.${leaf.path.join('.')}: ${p}`);
      }
    }
    expect(inputs).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it('finds what it looks for', () => {
    const leaves = leavesOf(
      z.object({
        n: z.coerce.number().int(),
        big: z
          .number()
          .int()
          .max(2 ** 40),
        nested: z.array(z.object({ createdOn: z.string().optional() })),
        ok: z.number().int().min(0).max(10),
      }),
      'body',
    );
    expect(leaves.map((l) => [l.path.join('.'), boundProblem(l) ?? 'ok'])).toEqual([
      ['n', 'declares no maximum'],
      ['big', expect.stringContaining('above an integer column')],
      ['nested.0.createdOn', expect.stringContaining('not one of the bounded kinds')],
      ['ok', 'ok'],
    ]);
  });
});
