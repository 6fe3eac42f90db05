import type { Estimate, Invoice, RecurringAdvance } from '@sportello/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, seedExample, tokenFor } from '../../test/seed';

let t: TestApp;
let mario: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  mario = bearer(await tokenFor(t, 'mario.rossi'));
});
afterAll(async () => {
  await t?.close();
});

const list = async <T>(path: string, contact = 101) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/acme/${contact}${path}`, headers: mario });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T[];
};

describe('invoices', () => {
  it('lists the company’s invoices newest first, with totals and signed documents', async () => {
    const invoices = await list<Invoice>('/invoices');
    expect(invoices.map((i) => [i.id, i.documentNumber, i.total])).toEqual([
      [1, 'ACME-FT-2026-101', 1220.5],
      [2, expect.any(String), expect.any(Number)],
    ]);
    expect(invoices[0]!.invoiceDate).toBe('2026-10-16T22:00:00.000Z');
    expect((await t.app.inject({ method: 'GET', url: invoices[0]!.invoiceDocumentUrl })).statusCode).toBe(
      200,
    );
    expect((await list<Invoice>('/invoices', 201)).map((i) => i.id)).toEqual([3]);
  });

  it('shows each invoice’s payment: due, overdue from the day after its due date in the portal’s zone, paid', async () => {
    const set = (ext: number, due: string | null, paid: string | null) =>
      t.ctx.database.db.execute(sql`update invoices set due_date = ${due}::timestamptz,
        paid_date = ${paid}::timestamptz where ext_id = ${ext}
        and portal_id = (select id from portals where key = 'acme')`);
    const payments = async () =>
      (await list<Invoice>('/invoices')).map((i) => [i.id, i.payment, i.dueDate, i.paidDate]);
    // Untracked: no state at all.
    expect(await payments()).toEqual([
      [1, null, null, null],
      [2, null, null, null],
    ]);
    // The clock reads 2026-11-20 11:00 in Rome: due on the 20th is still due, on the 19th overdue.
    await set(1, '2026-11-20T00:00:00+01', null);
    await set(2, '2026-11-19T00:00:00+01', null);
    expect((await payments()).map((p) => p.slice(0, 2))).toEqual([
      [1, 'due'],
      [2, 'overdue'],
    ]);
    await set(2, '2026-11-19T00:00:00+01', '2026-11-19T09:00:00+01');
    expect(await payments()).toContainEqual([
      2,
      'paid',
      '2026-11-18T23:00:00.000Z',
      '2026-11-19T08:00:00.000Z',
    ]);
    await set(1, null, null);
    await set(2, null, null);
  });

  it('filters on invoiceDate by portal days', async () => {
    expect((await list<Invoice>('/invoices?from=2026-01-01')).map((i) => i.id)).toEqual([1]);
    expect((await list<Invoice>('/invoices?from=2026-10-17&to=2026-10-17')).map((i) => i.id)).toEqual([1]);
    expect((await list<Invoice>('/invoices?to=2026-10-16')).map((i) => i.id)).toEqual([2]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/invoices?to=2026-10-16%2024:00',
      headers: mario,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('estimates', () => {
  it('lists estimates with revision and a two-decimal total', async () => {
    const estimates = await list<Estimate>('/estimates');
    expect(estimates).toEqual([
      {
        id: 1,
        estimateName: 'ACME Preventivo firewall',
        estimateNumber: 'P-2026-7',
        revisionNumber: 2,
        total: 3456.79,
        estimateCreationDate: '2026-10-23T22:00:00.000Z',
        estimateDocumentUrl: expect.stringMatching(/^\/api\/files\//),
      },
    ]);
    expect(await list<Estimate>('/estimates?to=2026-10-23')).toEqual([]);
  });
});

describe('recurring advances', () => {
  it('lists subscriptions with every trigger field', async () => {
    const advances = await list<RecurringAdvance>('/jobadvances/recurring');
    expect(advances.map((a) => a.code)).toEqual(['CAN-03', 'CAN-01', 'CAN-02']);
    expect(advances[1]).toEqual({
      id: 1,
      code: 'CAN-01',
      description: 'ACME Canone backup',
      quantity: 1,
      taxedTotal: 61,
      advanceDate: '2026-11-12T23:00:00.000Z',
      trigger: {
        recurrenceType: 20,
        frequencyWeek: null,
        recurrenceDayOfWeek: null,
        frequencyMonth: 1,
        recurrenceDay: 5,
        recurrenceMonth: null,
      },
    });
    expect(advances[2]!.trigger).toMatchObject({
      recurrenceType: 10,
      frequencyWeek: 2,
      recurrenceDayOfWeek: 3,
    });
  });
});
