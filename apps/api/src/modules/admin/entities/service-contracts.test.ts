/**
 * Service contracts with their packages one by one (issue 14 item 2, issue 12 item 4) through the
 * integration API and the staff admin API: each change with its event once and its audit row, written
 * by the import's writer; the contact sees the change at once; tags of the portal and wiki elements of
 * the company only; documents and activity reports the import gave are kept; bad input changes
 * nothing; an agent and another portal's key are refused.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContractEntity } from '@sportello/contracts';
import { type TestApp } from '../../../test/harness';
import { multipartFile } from '../../../test/personas';
import { bearer, tokenFor } from '../../../test/seed';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';

let t: TestApp;
let write = '';
let betaKey = '';
let admin: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  ({ t, write, betaKey, admin, agent } = await entityWorld());
});
afterAll(async () => {
  await t?.close();
});
const { call, rows, count, eventTypes, auditOf } = entityHelpers(() => t);

/** The list counters of acme's companies (the customers' cached ticket lists). */
const versions = () =>
  rows(
    sql`select v.company_id, v.version from company_list_versions v join companies co on co.id = v.company_id
      join portals p on p.id = co.portal_id where p.key = 'acme' order by v.company_id`,
  );

/** Everything a refused request must leave as it was. */
async function snapshot() {
  return {
    audit: await count('audit_log'),
    events: await count('events'),
    contracts: await count('service_contracts'),
    packages: await count('service_contract_packages'),
    activities: await count('contract_activities'),
    tags: await count('service_contract_tags'),
    wiki: await count('service_contract_wiki_elements'),
    documents: await count('service_contract_documents'),
    notifications: await count('notifications'),
    files: await count('files'),
    blobs: await count('blobs'),
    attached: await count('files', 'attached_at is not null'),
  };
}

async function upload(who: Record<string, string> | string, name: string, bytes: string) {
  const m = multipartFile(name, bytes, 'application/pdf');
  const url = typeof who === 'string' ? `${V1}/files` : '/api/staff/portals/acme/uploads';
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...(typeof who === 'string' ? bearer(who) : who), ...m.headers },
    payload: m.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const pdf64 = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`).toString('base64');

const serviceContract = {
  id: 700,
  companyId: 10,
  name: 'Assistenza sistemi 2027',
  status: 1,
  activeFrom: '2026-01-01',
  activeTo: '2027-12-31',
  tagIds: [1],
  wikiElementIds: [100],
  packages: [
    {
      id: 1,
      name: 'Pacchetto 20 interventi',
      unitsText: '20 interventi',
      residualText: '18 rimasti',
      activities: [
        { id: 1, activityTypeName: 'Intervento on site', start: '2026-02-10T09:00:00Z', units: 1 },
        { id: 2, activityTypeName: 'Intervento remoto', start: '2026-03-10T09:00:00Z', units: 1 },
      ],
    },
  ],
};

/** The contact's service contracts (Mario, admin of company 10, holds every flag). */
async function customerContracts() {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/acme/101/activitycontracts/servicecontracts?from=2000-01-01&to=2099-12-31',
    headers: bearer(await tokenFor(t, 'mario.rossi')),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; name: string; packages: { name: string; activities: unknown[] }[] }[];
}

describe('service contracts one by one', () => {
  it('creates, reads, updates and deletes, each with its event once and its audit row', async () => {
    const listVersions = await versions();
    const notifications = await count('notifications');
    const created = await call('POST', `${V1}/service-contracts`, write, serviceContract);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      id: 700,
      companyId: 10,
      name: 'Assistenza sistemi 2027',
      status: 1,
      tagIds: [1],
      wikiElementIds: [100],
      documents: [],
      packages: [
        {
          id: 1,
          name: 'Pacchetto 20 interventi',
          unitsText: '20 interventi',
          residualText: '18 rimasti',
          activities: [
            { id: 1, activityTypeName: 'Intervento on site', units: 1, reportFileId: null },
            { id: 2, activityTypeName: 'Intervento remoto', units: 1 },
          ],
        },
      ],
    });
    expect((await call('GET', `${ADMIN}/service-contracts/700`, admin)).json()).toEqual(created.json());
    // The contact sees it at once, with its package; no notification, no ticket list moved.
    const seen = (await customerContracts()).find((c) => c.id === 700);
    expect(seen?.packages.map((p) => [p.name, p.activities.length])).toEqual([
      ['Pacchetto 20 interventi', 2],
    ]);
    expect(await count('notifications')).toBe(notifications);
    expect(await versions()).toEqual(listVersions);
    // The staff admin's list of the company holds it.
    const list = await call('GET', `${ADMIN}/service-contracts?companyId=10`, admin);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { items: { id: number }[] }).items.map((c) => c.id)).toContain(700);

    const updated = await call('PATCH', `${ADMIN}/service-contracts/700`, admin, {
      status: 4,
      tagIds: [2, 1],
      packages: [
        { ...serviceContract.packages[0], residualText: '17 rimasti' },
        { id: 2, name: 'Reperibilità', activities: [] },
      ],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      status: 4,
      tagIds: [1, 2],
      name: 'Assistenza sistemi 2027',
      packages: [
        { id: 1, residualText: '17 rimasti' },
        { id: 2, name: 'Reperibilità', unitsText: '' },
      ],
    });

    // Nothing differs: nothing written, no event, no audit row.
    const before = await snapshot();
    const same = await call('PATCH', `${V1}/service-contracts/700`, write, { status: 4, tagIds: [1, 2] });
    expect(same.statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);

    // Packages replaced: one left out goes, with its activities.
    const fewer = await call('PATCH', `${V1}/service-contracts/700`, write, { packages: [] });
    expect(fewer.json().packages).toEqual([]);
    expect(await count('contract_activities', `activity_type_name = 'Intervento remoto'`)).toBe(0);

    expect((await call('DELETE', `${V1}/service-contracts/700`, write)).statusCode).toBe(204);
    expect((await call('GET', `${V1}/service-contracts/700`, write)).statusCode).toBe(404);
    expect((await customerContracts()).some((c) => c.id === 700)).toBe(false);
    expect(await eventTypes('service_contract.')).toEqual([
      'service_contract.created',
      'service_contract.updated',
      'service_contract.updated',
      'service_contract.deleted',
    ]);
    expect((await auditOf('service_contract')).map((a) => [a.entity_id, a.action, a.actor_type])).toEqual([
      ['700', 'created', 'api_key'],
      ['700', 'updated', 'staff'],
      ['700', 'updated', 'api_key'],
      ['700', 'deleted', 'api_key'],
    ]);
    const data = await rows<{ data: unknown }>(
      sql`select data from events where type = 'service_contract.updated' order by id limit 1`,
    );
    const d = (typeof data[0]!.data === 'string' ? JSON.parse(data[0]!.data) : data[0]!.data) as {
      service_contract: ServiceContractEntity;
      previous: ServiceContractEntity;
    };
    expect(d.service_contract.status).toBe(4);
    expect(d.previous.status).toBe(1);
  });

  it('numbers a contract created without an id; an update keeps the documents and reports the import gave', async () => {
    const made = await call('POST', `${ADMIN}/service-contracts`, admin, {
      ...serviceContract,
      id: undefined,
      name: 'Senza id',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().id).toBeGreaterThan(3);

    // Contract 1 of the example: a document with its file, a package.
    const stored = (await call('GET', `${V1}/service-contracts/1`, write)).json() as ServiceContractEntity;
    expect(stored.documents).toHaveLength(1);
    const doc = stored.documents[0]!;
    const res = await call('PATCH', `${V1}/service-contracts/1`, write, {
      documents: [{ id: doc.id, documentName: 'Condizioni 2027' }],
      packages: stored.packages.map((p) => ({ ...p, name: `${p.name} bis` })),
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as ServiceContractEntity;
    expect(after.documents).toEqual([{ id: doc.id, documentName: 'Condizioni 2027', fileId: doc.fileId }]);
    expect(after.packages.map((p) => p.activities.map((a) => a.reportFileId))).toEqual(
      stored.packages.map((p) => p.activities.map((a) => a.reportFileId)),
    );
    // Left out, the document goes (its file row stays for the sweeper's rules).
    const without = await call('PATCH', `${V1}/service-contracts/1`, write, { documents: [] });
    expect(without.json().documents).toEqual([]);
  });

  it('adds documents with their bytes (inline or an upload of the caller), replaces and keeps them', async () => {
    const uploaded = await upload(admin, 'sla.pdf', '%PDF-1.4 sla');
    const made = await call('POST', `${ADMIN}/service-contracts`, admin, {
      ...serviceContract,
      id: 710,
      documents: [
        { id: 1, documentName: 'Condizioni', file: { name: 'condizioni.pdf', base64: pdf64('condizioni') } },
        { id: 2, documentName: 'SLA', file: { uploadId: uploaded } },
      ],
    });
    expect(made.statusCode, made.body).toBe(201);
    const docs = (made.json() as ServiceContractEntity).documents;
    expect(docs.map((d) => [d.id, d.documentName])).toEqual([
      [1, 'Condizioni'],
      [2, 'SLA'],
    ]);
    expect(docs[1]!.fileId).toBe(uploaded);
    const bytes = await call('GET', `${V1}/files/${docs[0]!.fileId}`, write);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.body).toContain('condizioni');
    // The contact's contract lists both documents with their links.
    const seen = (await customerContracts()).find((c) => c.id === 710) as unknown as {
      documents: { documentName: string; url: string }[];
    };
    expect(seen.documents.map((d) => d.documentName)).toEqual(['Condizioni', 'SLA']);

    // New bytes for one, the other kept by its id alone.
    const res = await call('PATCH', `${V1}/service-contracts/710`, write, {
      documents: [
        {
          id: 1,
          documentName: 'Condizioni 2027',
          file: { name: 'condizioni-2027.pdf', base64: pdf64('nuove') },
        },
        { id: 2, documentName: 'SLA' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (res.json() as ServiceContractEntity).documents;
    expect(after[0]!.fileId).not.toBe(docs[0]!.fileId);
    expect(after[1]).toEqual(docs[1]);
    // A change of other fields keeps every document.
    const renamed = await call('PATCH', `${V1}/service-contracts/710`, write, { name: 'Rinominato' });
    expect((renamed.json() as ServiceContractEntity).documents).toEqual(after);
  });

  it('refuses bad input with a 4xx {code, message}, writing nothing', async () => {
    const others = await upload(agent, 'altro.pdf', '%PDF-1.4 altro');
    const before = await snapshot();
    const withDoc = (file: unknown) => ({
      ...serviceContract,
      documents: [{ id: 1, documentName: 'Doc', file }],
    });
    const cases: [unknown, number, string][] = [
      [{ ...serviceContract, companyId: 999 }, 422, 'unknown_reference'],
      [{ ...serviceContract, tagIds: [1, 99] }, 422, 'unknown_reference'],
      // Wiki element 100 belongs to company 10.
      [{ ...serviceContract, companyId: 20, wikiElementIds: [100] }, 422, 'unknown_reference'],
      [{ ...serviceContract, documents: [{ id: 5, documentName: 'Nuovo' }] }, 422, 'unknown_reference'],
      [{ ...serviceContract, status: 2 }, 400, 'validation_error'],
      [{ ...serviceContract, activeFrom: '2026-02-30' }, 400, 'validation_error'],
      [{ ...serviceContract, name: '  ' }, 400, 'validation_error'],
      [{ ...serviceContract, surprise: true }, 400, 'validation_error'],
      [
        { ...serviceContract, packages: [serviceContract.packages[0], serviceContract.packages[0]] },
        400,
        'validation_error',
      ],
      [
        {
          ...serviceContract,
          packages: [
            {
              id: 1,
              name: 'P',
              activities: [
                serviceContract.packages[0]!.activities[0],
                serviceContract.packages[0]!.activities[0],
              ],
            },
          ],
        },
        400,
        'validation_error',
      ],
      [{ ...serviceContract, id: 1 }, 409, 'entity_exists'],
      // Bytes are staged before the transaction: a refused change keeps none of them.
      [{ ...withDoc({ name: 'd.pdf', base64: pdf64('preso') }), id: 1 }, 409, 'entity_exists'],
      [{ ...withDoc({ name: 'd.pdf', base64: pdf64('orfano') }), companyId: 999 }, 422, 'unknown_reference'],
      [withDoc({ uploadId: others }), 422, 'upload_not_found'],
      [withDoc({ uploadId: 999999 }), 422, 'upload_not_found'],
      [withDoc({ uploadId: others, name: 'd.pdf', base64: pdf64('x') }), 400, 'validation_error'],
    ];
    for (const [body, status, code] of cases) {
      const res = await call('POST', `${V1}/service-contracts`, write, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code, message: expect.any(String) });
    }
    const unknown = await call('PATCH', `${ADMIN}/service-contracts/424242`, admin, { name: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('entity_not_found');
    const badRef = await call('PATCH', `${ADMIN}/service-contracts/2`, admin, { tagIds: [77] });
    expect(badRef.statusCode).toBe(422);
    expect(badRef.json()).toMatchObject({
      code: 'unknown_reference',
      message: expect.stringContaining('tag 77'),
    });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an agent; a key of another portal neither sees nor changes them', async () => {
    const before = await snapshot();
    for (const [method, url, body] of [
      ['POST', `${ADMIN}/service-contracts`, serviceContract],
      ['GET', `${ADMIN}/service-contracts/2`, undefined],
      ['PATCH', `${ADMIN}/service-contracts/2`, { name: 'No' }],
      ['DELETE', `${ADMIN}/service-contracts/2`, undefined],
      ['GET', `${ADMIN}/service-contracts?companyId=10`, undefined],
    ] as const) {
      const res = await call(method, url, agent, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('admin_required');
    }
    const made = await call('POST', `${V1}/service-contracts`, write, { ...serviceContract, id: 701 });
    expect(made.statusCode).toBe(201);
    const mid = await snapshot();
    expect((await call('GET', `${V1}/service-contracts/701`, betaKey)).statusCode).toBe(404);
    expect((await call('PATCH', `${V1}/service-contracts/701`, betaKey, { name: 'Beta' })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${V1}/service-contracts/701`, betaKey)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(mid);
    expect((await call('GET', `${V1}/service-contracts/701`, write)).json().name).toBe(serviceContract.name);
    expect(before.audit + 1).toBe(mid.audit);
  });

  it('replays a POST with the same Idempotency-Key', async () => {
    const h = { 'idempotency-key': 'service-contract-702' };
    const body = { ...serviceContract, id: 702 };
    const first = await call('POST', `${V1}/service-contracts`, write, body, h);
    expect(first.statusCode).toBe(201);
    const again = await call('POST', `${V1}/service-contracts`, write, body, h);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count('audit_log', `entity = 'service_contract' and entity_id = '702'`)).toBe(1);
  });
});
