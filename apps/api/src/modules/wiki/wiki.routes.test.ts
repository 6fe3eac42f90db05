import type { WikiElement } from '@sportello/contracts';
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

const wiki = async (q = '', contact = 101) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/acme/${contact}/wikielements${q}`,
    headers: mario,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WikiElement[];
};

describe('wiki elements', () => {
  it('lists the company’s elements by folder with properties and contracts', async () => {
    const list = await wiki();
    expect(list.map((e) => [e.folderName, e.name])).toEqual([
      ['Rete', 'ACME-FW-01'],
      ['Server', 'ACME-SRV-01'],
      ['Server', 'ACME-SRV-02'],
    ]);
    const srv = list[1]!;
    expect(srv).toMatchObject({
      id: 100,
      wikiFolderId: 1,
      contracts: [{ id: 1, name: 'ACME Manutenzione server' }],
    });
    expect(srv.properties[0]).toEqual({
      id: 1,
      typologyName: 'Indirizzo IP',
      dataType: 'text',
      value: '10.0.0.5',
      url: null,
    });
    const file = srv.properties.find((p) => p.dataType === 'file')!;
    expect(file.url).toMatch(/^\/api\/files\/\d+\//);
    expect((await t.app.inject({ method: 'GET', url: file.url! })).statusCode).toBe(200);
    expect(list[0]!.contracts).toEqual([{ id: 2, name: 'ACME Supporto rete' }]);
    expect(list[2]!.contracts).toEqual([]);
  });

  it('filters names case-insensitively, treating % and _ literally', async () => {
    expect((await wiki('?filter=srv')).map((e) => e.id)).toEqual([100, 101]);
    expect((await wiki('?filter=SRV-02')).map((e) => e.id)).toEqual([101]);
    expect((await wiki('?filter=fw')).map((e) => e.id)).toEqual([102]);
    expect(await wiki('?filter=%25')).toEqual([]);
    expect(await wiki('?filter=_')).toEqual([]);
    expect((await wiki('?filter=')).length).toBe(3);
    // A control character is refused before any route (request-guards), not searched for.
    const nul = await t.app.inject({ url: '/api/acme/101/wikielements?filter=a%00b', headers: mario });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().code).toBe('control_character');
  });

  it('shows another company only its own elements', async () => {
    expect(await wiki('', 201)).toEqual([]);
  });
});
