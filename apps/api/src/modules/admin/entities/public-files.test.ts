/**
 * Public files of a portal one by one (issue 14 item 2, issue 12 item 4) through the integration API
 * and the staff admin API: bytes by upload reference (the caller's own upload, claimed once) or inline
 * base64, as the other file-bearing kinds; renamed, given new bytes or removed, each change with its
 * event once and its audit row, written by the import's writer; every contact of the portal sees the
 * list change at once; bad input leaves no row, no attached upload and no stored bytes; an agent and
 * another portal's key are refused.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicFileEntity } from '@sportello/contracts';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../../test/harness';
import { multipartFile, seedPersonas } from '../../../test/personas';
import { bearer, tokenFor } from '../../../test/seed';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';

let t: TestApp;
let write = '';
let betaKey = '';
let admin: Record<string, string>;
let admin2: Record<string, string>;
let agent: Record<string, string>;

beforeAll(async () => {
  ({ t, write, betaKey, admin, admin2, agent } = await entityWorld({ admin2: true }));
});
afterAll(async () => {
  await t?.close();
});
const { call, rows, count, eventTypes, auditOf } = entityHelpers(() => t);

/** Everything a refused request must leave as it was. */
const snapshot = async () => ({
  publicFiles: await count('public_files'),
  files: await count('files'),
  blobs: await count('blobs'),
  attached: await count('files', 'attached_at is not null'),
  audit: await count('audit_log'),
  events: await count('events'),
  notifications: await count('notifications'),
  versions: await rows(sql`select company_id, version from company_list_versions order by company_id`),
});

async function upload(who: Record<string, string> | string, name: string, bytes: Buffer | string) {
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

/** The portal's public files as a contact of another company of acme sees them. */
async function customerList(): Promise<{ id: number; fileName: string }[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/settings/acme/publicfiles',
    headers: bearer(await tokenFor(t, 'giulia.blu')),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('public files one by one', () => {
  it('files a staff upload, renames it, gives it new bytes, removes it; the contacts see each change', async () => {
    const id = await upload(admin, 'listino.pdf', '%PDF-1.4 listino');
    const created = await call('POST', `${ADMIN}/public-files`, admin, {
      fileName: 'Listino 2027',
      file: { uploadId: id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const entity = created.json() as PublicFileEntity;
    expect(entity).toMatchObject({ fileName: 'Listino 2027', file: { id, name: 'listino.pdf' } });
    expect(entity.id).toBeGreaterThan(1); // after the import's public file 1
    expect((await customerList()).map((f) => f.fileName)).toContain('Listino 2027');
    // The desk's list of the portal's public files.
    const list = await call('GET', `${ADMIN}/content/public-files`, admin);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { items: PublicFileEntity[] }).items).toContainEqual(entity);

    const renamed = await call('PATCH', `${V1}/public-files/${entity.id}`, write, { fileName: 'Listino' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ fileName: 'Listino', file: { id } });

    // Nothing differs: nothing written.
    const before = await snapshot();
    expect(
      (await call('PATCH', `${V1}/public-files/${entity.id}`, write, { fileName: 'Listino' })).statusCode,
    ).toBe(200);
    expect(await snapshot()).toEqual(before);

    const replaced = await call('PATCH', `${ADMIN}/public-files/${entity.id}`, admin, {
      file: { name: 'listino-v2.pdf', contentType: 'application/pdf', base64: pdf64('v2') },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ fileName: 'Listino', file: { name: 'listino-v2.pdf' } });
    expect(replaced.json().file.id).not.toBe(id);

    expect((await call('DELETE', `${ADMIN}/public-files/${entity.id}`, admin)).statusCode).toBe(204);
    expect((await call('GET', `${V1}/public-files/${entity.id}`, write)).statusCode).toBe(404);
    expect((await customerList()).map((f) => f.fileName)).not.toContain('Listino');
    expect(await eventTypes('public_file.')).toEqual([
      'public_file.created',
      'public_file.updated',
      'public_file.updated',
      'public_file.deleted',
    ]);
    expect((await auditOf('public_file')).map((a) => [a.entity_id, a.action, a.actor_type])).toEqual([
      [String(entity.id), 'created', 'staff'],
      [String(entity.id), 'updated', 'api_key'],
      [String(entity.id), 'updated', 'staff'],
      [String(entity.id), 'deleted', 'staff'],
    ]);
  });

  it("files a key's own upload and inline bytes; an upload is attached once", async () => {
    const viaKey = await upload(write, 'orari.pdf', '%PDF-1.4 orari');
    const res = await call('POST', `${V1}/public-files`, write, {
      id: 40,
      fileName: 'Orari di apertura',
      file: { uploadId: viaKey },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: 40,
      fileName: 'Orari di apertura',
      file: expect.objectContaining({ id: viaKey, name: 'orari.pdf' }),
    });
    const inline = await call('POST', `${V1}/public-files`, write, {
      fileName: 'Privacy',
      file: { name: 'privacy.pdf', base64: pdf64('privacy') },
    });
    expect(inline.statusCode, inline.body).toBe(201);
    expect(inline.json()).toMatchObject({
      id: 41,
      file: { name: 'privacy.pdf', contentType: 'application/pdf' },
    });
    // The file's bytes with the key.
    const bytes = await call('GET', `${V1}/files/${inline.json().file.id}`, write);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.body).toContain('privacy');

    const before = await snapshot();
    const again = await call('POST', `${V1}/public-files`, write, {
      fileName: 'Di nuovo',
      file: { uploadId: viaKey },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe('upload_not_found');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad input with a 4xx {code, message}, leaving no row, attached upload or bytes', async () => {
    const others = await upload(admin2, 'altro.pdf', '%PDF-1.4 altro');
    const byKey = await upload(write, 'chiave.pdf', '%PDF-1.4 chiave');
    const before = await snapshot();
    const cases: [string | Record<string, string>, unknown, number, string][] = [
      [admin, { fileName: 'Non mio', file: { uploadId: others } }, 422, 'upload_not_found'],
      [admin, { fileName: 'Della chiave', file: { uploadId: byKey } }, 422, 'upload_not_found'],
      [write, { fileName: 'Inesistente', file: { uploadId: 999999 } }, 422, 'upload_not_found'],
      [
        write,
        { id: 1, fileName: 'Preso', file: { name: 'x.pdf', base64: pdf64('preso') } },
        409,
        'entity_exists',
      ],
      [write, { fileName: '   ', file: { name: 'x.pdf', base64: pdf64('vuoto') } }, 400, 'validation_error'],
      [write, { fileName: 'Senza file' }, 400, 'validation_error'],
      [
        write,
        { fileName: 'Due', file: { uploadId: byKey, name: 'x.pdf', base64: pdf64('x') } },
        400,
        'validation_error',
      ],
      [
        write,
        { fileName: 'Extra', file: { name: 'x.pdf', base64: pdf64('x') }, companyId: 10 },
        400,
        'validation_error',
      ],
    ];
    for (const [who, body, status, code] of cases) {
      const url = typeof who === 'string' ? `${V1}/public-files` : `${ADMIN}/public-files`;
      const res = await call('POST', url, who, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code, message: expect.any(String) });
    }
    const unknown = await call('PATCH', `${V1}/public-files/424242`, write, {
      file: { name: 'x.pdf', base64: pdf64('nessuno') },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('entity_not_found');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an agent; a key of another portal neither sees nor changes them', async () => {
    for (const [method, url, body] of [
      ['POST', `${ADMIN}/public-files`, { fileName: 'No', file: { name: 'x.pdf', base64: pdf64('no') } }],
      ['GET', `${ADMIN}/public-files/1`, undefined],
      ['PATCH', `${ADMIN}/public-files/1`, { fileName: 'No' }],
      ['DELETE', `${ADMIN}/public-files/1`, undefined],
      ['GET', `${ADMIN}/content/public-files`, undefined],
    ] as const) {
      const res = await call(method, url, agent, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('admin_required');
    }
    const made = await call('POST', `${V1}/public-files`, write, {
      id: 60,
      fileName: 'Solo acme',
      file: { name: 'acme.pdf', base64: pdf64('acme') },
    });
    expect(made.statusCode).toBe(201);
    const before = await snapshot();
    expect((await call('GET', `${V1}/public-files/60`, betaKey)).statusCode).toBe(404);
    expect((await call('PATCH', `${V1}/public-files/60`, betaKey, { fileName: 'Beta' })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${V1}/public-files/60`, betaKey)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
    expect((await call('GET', `${V1}/public-files/60`, write)).json().fileName).toBe('Solo acme');
  });

  it('replays a POST with the same Idempotency-Key, and answers 413 above MAX_UPLOAD_MB', async () => {
    const h = { 'idempotency-key': 'public-file-70' };
    const body = { id: 70, fileName: 'Una volta', file: { name: 'u.pdf', base64: pdf64('una') } };
    const first = await call('POST', `${V1}/public-files`, write, body, h);
    expect(first.statusCode).toBe(201);
    const again = await call('POST', `${V1}/public-files`, write, body, h);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await count('audit_log', `entity = 'public_file' and entity_id = '70'`)).toBe(1);

    const small = await createTestApp({ env: { MAX_UPLOAD_MB: '1' } });
    try {
      await seedPersonas(small);
      const key = (
        await small.app.inject({
          method: 'POST',
          url: '/api/admin/portals/acme/keys',
          headers: bearer(TEST_ADMIN_KEY),
          payload: { name: 'w', scopes: ['write'] },
        })
      ).json().secret as string;
      const res = await small.app.inject({
        method: 'POST',
        url: `${V1}/public-files`,
        headers: bearer(key),
        payload: {
          fileName: 'Grande',
          file: { name: 'big.pdf', base64: Buffer.alloc(1024 * 1024 + 10).toString('base64') },
        },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('payload_too_large');
    } finally {
      await small.close();
    }
  });
});
