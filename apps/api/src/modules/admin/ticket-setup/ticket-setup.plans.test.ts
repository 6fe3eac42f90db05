/**
 * Deleting a ticket type or status step reads the tickets pointing to it twice: the setup's "in use"
 * count and, on the delete, the foreign key's own check, which looks for `<column> = $1` across every
 * portal. Migration 0020 gives each column its index, so neither is a scan of every ticket of the
 * installation. With sequential scans priced out, the plan must find the rows through an index
 * condition on the column itself. (A group's tickets are found by tickets_inbox_group_idx.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { seedExample } from '../../../test/seed';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
});
afterAll(async () => {
  await t?.close();
});

async function plan(statement: string): Promise<string> {
  return t.ctx.database.withConnection(async (raw) => {
    await raw.query('set enable_seqscan = off');
    try {
      const r = await raw.query<{ 'QUERY PLAN': string }>(`explain ${statement}`);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    } finally {
      await raw.query('reset enable_seqscan');
    }
  });
}

describe('the ticket setup on a large installation', () => {
  it.each(['type_id', 'status_step_id'])(
    'finds the tickets of one %s by an index on that column (in-use count, foreign key check)',
    async (column) => {
      for (const statement of [
        `select count(*) from tickets where ${column} = 1`,
        `select 1 from only tickets x where ${column} = 1 for key share of x`,
      ]) {
        const p = await plan(statement);
        expect(p, p).toMatch(new RegExp(`Index Cond: \\(${column} = 1\\)`));
      }
    },
  );
});
