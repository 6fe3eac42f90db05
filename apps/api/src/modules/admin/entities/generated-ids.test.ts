/**
 * Ids the portal numbers itself never pass what JSON carries (issue 29 item 1): a client may give any
 * id up to 2^53 − 1, and a create without an id after that takes the lowest free id instead of the
 * largest plus one (which an answer could not carry: 500 after writing, and the lists 500 for good).
 */
import { EXT_ID_MAX } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp } from '../../../test/harness';
import { ADMIN, entityHelpers, entityWorld, V1 } from '../../../test/entity-kit';
import { bearer, tokenFor } from '../../../test/seed';

let t: TestApp;
let write = '';
let admin: Record<string, string>;

beforeAll(async () => {
  ({ t, write, admin } = await entityWorld());
});
afterAll(async () => {
  await t?.close();
});
const { call, count } = entityHelpers(() => t);

describe('ids past the largest JSON carries', () => {
  it.each([
    ['tags', 'id', { name: 'Ultimo' }, 'tags'],
    ['companies', 'id', { companyName: 'Ultima Srl' }, 'companies'],
    ['contacts', 'contactId', { companyId: 10, referentName: 'Ultimo Contatto' }, 'contacts'],
    ['wiki-folders', 'id', { companyId: 10, name: 'Ultima cartella' }, 'wiki_folders'],
    ['tickets', 'id', { companyId: 10, title: 'Ultimo', taskTypeId: 1, statusStepId: 1 }, 'tickets'],
  ])('%s: refuses 2^53, takes 2^53 − 1, then numbers the next below it', async (path, idKey, body, table) => {
    const before = await count(table);
    const over = await call('POST', `${V1}/${path}`, write, { ...body, [idKey]: EXT_ID_MAX + 1 });
    expect(over.statusCode, over.body).toBe(400);
    expect(await count(table)).toBe(before);

    const top = await call('POST', `${V1}/${path}`, write, { ...body, [idKey]: EXT_ID_MAX });
    expect(top.statusCode, top.body).toBe(201);
    expect(top.json()[idKey]).toBe(EXT_ID_MAX);

    const next = await call('POST', `${V1}/${path}`, write, body);
    expect(next.statusCode, next.body).toBe(201);
    const id = next.json()[idKey] as number;
    expect(id).toBeGreaterThan(0);
    expect(id).toBeLessThan(EXT_ID_MAX);
    expect((await call('GET', `${V1}/${path}/${id}`, write)).statusCode).toBe(200);
  });

  it('keeps the lists that show them readable, the public tag list and the desk’s included', async () => {
    expect((await t.app.inject({ url: '/api/settings/acme/tags' })).statusCode).toBe(200);
    const customer = bearer(await tokenFor(t, 'mario.rossi'));
    const ticket = await t.app.inject({
      method: 'POST',
      url: '/api/acme/101/tickets',
      headers: customer,
      payload: { title: 'Dopo il massimo', description: 'x', taskTypeId: 1, attachments: [] },
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    for (const url of [
      `${ADMIN}/content/companies?q=Ultima`,
      `${ADMIN}/people/companies`,
      `${ADMIN}/people/contacts`,
      '/api/staff/portals/acme/tickets?view=open',
    ]) {
      const res = await call('GET', url, admin);
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
    }
  });
});
