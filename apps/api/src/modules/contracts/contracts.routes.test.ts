import type { ActivityContract, ServiceContract } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { bearer, seedExample, tokenFor } from '../../test/seed';
import { formatResidualMinutes } from './contracts.service';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedExample(t);
});
afterAll(async () => {
  await t?.close();
});

/** Signs in at the current clock (sessions last 12 hours, and some tests move the clock far). */
const fetchAs = async <T>(url: string, user = 'mario.rossi') => {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(await tokenFor(t, user)) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const activity = (q = '') => fetchAs<ActivityContract[]>(`/api/acme/101/activitycontracts${q}`);
const service = (q = '') =>
  fetchAs<ServiceContract[]>(`/api/acme/101/activitycontracts/servicecontracts${q}`);

describe('activity contracts', () => {
  it('computes residuals and expiry', async () => {
    const [hours, units] = await activity();
    expect(hours).toMatchObject({
      id: 1,
      name: 'ACME Monte ore 2026',
      activityContractType: 0,
      hoursAmount: 20,
      residual_Time_String: '16:30', // 20 h − (90 + 120) min
      isExpired: false,
      end: expect.stringMatching(/^2027-05-19T22:00:00\.000Z$/),
    });
    expect(units).toMatchObject({
      id: 2,
      activityContractType: 1,
      unitAmount: 10,
      residual_UnitAmount: 7,
      residual_Time_String: null,
      isExpired: true,
    });
    expect(hours!.activities.map((a) => a.id)).toEqual([2, 1]);
    expect(hours!.activities[0]).toMatchObject({
      activityTypeName: 'Intervento on site',
      durationMinutes: 120,
      assignedUser: 'Luca Bianchi',
      addressType: 2,
      activityLocation_Address: 'Via Roma 1, Milano',
    });
    const report = await t.app.inject({ method: 'GET', url: hours!.activities[0]!.reportDocumentUrl! });
    expect(report.statusCode).toBe(200);
    expect(hours!.activities[1]!.reportDocumentUrl).toBeNull();
  });

  it('formats residual time as H:MM, negative when overrun', () => {
    expect(formatResidualMinutes(990)).toBe('16:30');
    expect(formatResidualMinutes(0)).toBe('0:00');
    expect(formatResidualMinutes(5)).toBe('0:05');
    expect(formatResidualMinutes(-75)).toBe('-1:15');
    expect(formatResidualMinutes(60 * 125)).toBe('125:00');
  });

  it('expires by the portal’s day, not UTC’s', async () => {
    // 22:30Z on 20 May is already 21 May in Rome: a contract ending on the 20th has expired.
    t.clock.set('2027-05-20T21:30:00Z');
    expect((await activity())[0]!.isExpired).toBe(false);
    t.clock.set('2027-05-20T22:30:00Z');
    expect((await activity())[0]!.isExpired).toBe(true);
    t.clock.set('2026-11-20T10:00:00Z');
  });

  it('filters by overlap of validity with the range', async () => {
    expect((await activity('?from=2026-07-01&to=2026-07-23')).map((c) => c.id)).toEqual([]);
    expect((await activity('?from=2026-06-19&to=2026-07-23')).map((c) => c.id)).toEqual([2]);
    expect((await activity('?from=2026-06-20&to=2026-07-24')).map((c) => c.id)).toEqual([1]);
    expect((await activity('?from=2027-05-21')).map((c) => c.id)).toEqual([]);
    expect((await activity('?to=2025-06-18')).map((c) => c.id)).toEqual([]);
  });
});

describe('service contracts', () => {
  it('answers tags, assets, signed documents and packages', async () => {
    const list = await service();
    expect(list.map((c) => c.id)).toEqual([2, 1, 3]);
    const sc1 = list[1]!;
    expect(sc1).toMatchObject({
      name: 'ACME Manutenzione server',
      status: 1,
      tagIds: [1],
      wikiElementIds: [100],
      tags: [{ id: 1, name: 'Server' }],
      wikiElements: [{ id: 100, name: 'ACME-SRV-01' }],
      documents: [{ id: 1, documentName: 'contratto.pdf' }],
      packages: [
        {
          id: 1,
          name: 'Pacchetto base',
          unitsText: '10 interventi',
          residualText: '7 rimanenti',
          activities: [],
        },
      ],
    });
    expect((await t.app.inject({ method: 'GET', url: sc1.documents[0]!.url })).statusCode).toBe(200);
    expect(list[0]!.packages).toEqual([]);
  });

  it('computes isExpired and expiring30Days', async () => {
    const flags = async () =>
      Object.fromEntries((await service()).map((c) => [c.id, [c.isExpired, c.expiring30Days]]));
    // Today 20/11/2026: contract 1 ended on 11/11, contract 3 has status 4.
    expect(await flags()).toEqual({ 1: [true, false], 2: [false, false], 3: [true, false] });
    // 30 days before 11/11 (inclusive) it is expiring; 31 days before it is not.
    t.clock.set('2026-10-12T10:00:00Z');
    expect((await flags())[1]).toEqual([false, true]);
    t.clock.set('2026-10-11T10:00:00Z');
    expect((await flags())[1]).toEqual([false, false]);
    // The last day itself is still active and expiring.
    t.clock.set('2026-11-11T20:00:00Z');
    expect((await flags())[1]).toEqual([false, true]);
    t.clock.set('2026-11-20T10:00:00Z');
  });

  it('filters by overlap of validity', async () => {
    expect((await service('?from=2027-01-01')).map((c) => c.id)).toEqual([2]);
    expect((await service('?from=2025-01-01&to=2025-12-31')).map((c) => c.id)).toEqual([3]);
    expect((await service('?to=2024-08-22')).map((c) => c.id)).toEqual([]);
  });
});

describe('tags', () => {
  it('are public and per portal', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/Settings/ACME/tags' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: 2, name: 'Rete', tagGroupName: 'Asset' },
      { id: 1, name: 'Server', tagGroupName: 'Asset' },
    ]);
    const none = await t.app.inject({ method: 'GET', url: '/api/settings/nope/tags' });
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('portal_not_found');
  });
});
