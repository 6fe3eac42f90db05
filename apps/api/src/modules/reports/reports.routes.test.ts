import { sql } from 'drizzle-orm';
import type { ActivityReport } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, seedExample, tokenFor } from '../../test/seed';

let t: TestApp;
let mario: Record<string, string>;
let anna: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
  mario = bearer(await tokenFor(t, 'mario.rossi'));
  anna = bearer(await tokenFor(t, 'anna.verdi'));
});
afterAll(async () => {
  await t?.close();
});

const setFlags = (ext: number, flags: string) =>
  t.ctx.database.db.execute(sql.raw(`update contacts set ${flags} where ext_id = ${ext}`));
const reports = async (h: Record<string, string>, contact: number, q = '') => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/acme/${contact}/activities/activityreports${q}`,
    headers: h,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ActivityReport[];
};

describe('activity reports', () => {
  it('lists the company’s reports, newest first, with signed documents and linked tickets', async () => {
    const list = await reports(mario, 101);
    expect(list.map((r) => [r.id, r.name, r.dateTime, r.taskId, r.taskName])).toEqual([
      [2, 'ACME Rapportino Anna', '2026-10-28T00:00:00.000Z', 5003, 'ACME Richiesta di Anna'],
      [1, 'ACME Rapportino 1', '2026-10-13T00:00:00.000Z', 5001, 'ACME Stampante non funziona'],
    ]);
    const pdf = await t.app.inject({ method: 'GET', url: list[0]!.documentUrl });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('names a linked ticket only when the caller may open it', async () => {
    await setFlags(102, 'view_contact_activity_reports = true');
    try {
      // Anna is no administrator: her own ticket is named, Mario's is not.
      expect((await reports(anna, 102)).map((r) => [r.id, r.taskId, r.taskName])).toEqual([
        [2, 5003, 'ACME Richiesta di Anna'],
        [1, null, null],
      ]);
      // Without manageTickets she opens no ticket at all.
      await setFlags(102, 'manage_tickets = false');
      expect((await reports(anna, 102)).map((r) => r.taskId)).toEqual([null, null]);
    } finally {
      await setFlags(102, 'view_contact_activity_reports = false, manage_tickets = true');
    }
  });

  it('filters by day range in the portal zone and by wiki element', async () => {
    expect((await reports(mario, 101, '?from=2026-10-14')).map((r) => r.id)).toEqual([2]);
    expect((await reports(mario, 101, '?to=2026-10-13')).map((r) => r.id)).toEqual([1]);
    // 2026-10-13T00:00Z is 02:00 in Rome: still 13 October there, so a range ending on the 12th misses it.
    expect((await reports(mario, 101, '?to=2026-10-12')).map((r) => r.id)).toEqual([]);
    expect((await reports(mario, 101, '?wikiFilter=100')).map((r) => r.id)).toEqual([1]);
    expect((await reports(mario, 101, '?wikiFilter=102')).map((r) => r.id)).toEqual([2]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/acme/101/activities/activityreports?from=2026-13-01',
      headers: mario,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('invalid_date');
  });

  it('refuses a contact without viewContactActivityReports', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/acme/102/activities/activityreports',
      headers: anna,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('missing_permission');
  });
});
