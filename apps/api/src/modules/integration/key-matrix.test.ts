/**
 * The access matrix of the integration API (and the installation key's staff invitation): every route
 * contract of the integration area × every kind of credential. A route added to the area without a row
 * here fails the first test.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  entityKeyRoutes,
  integrationRoutes,
  routeKey,
  staffInstallationRoutes,
  webhookAdminRoutes,
  webhookKeyRoutes,
  type ApiKeyScope,
  type ApiKeyWithSecret,
  type RouteContract,
} from '@sportello/contracts';
import { createTestApp, TEST_ADMIN_KEY, type TestApp } from '../../test/harness';
import { multipartFile, seedPersonas } from '../../test/personas';
import { bearer } from '../../test/seed';

let t: TestApp;

/** Columns of the key matrix. */
const KEY_PERSONAS = [
  'right',
  'otherPortal',
  'missingScope',
  'revoked',
  'rotatedOut',
  'none',
  'adminKey',
] as const;
type KeyPersona = (typeof KEY_PERSONAS)[number];

/** Per scope: a key of acme holding only that scope, and one holding the two others. */
const only: Partial<Record<ApiKeyScope, string>> = {};
const without: Partial<Record<ApiKeyScope, string>> = {};
let other = '';
let revoked = '';
let rotatedOut = '';

async function createKey(portal: string, scopes: ApiKeyScope[]): Promise<ApiKeyWithSecret> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/admin/portals/${portal}/keys`,
    headers: bearer(TEST_ADMIN_KEY),
    payload: { name: scopes.join('+'), scopes },
  });
  return res.json();
}
const admin = (method: InjectOptions['method'], url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(TEST_ADMIN_KEY), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  await seedPersonas(t);
  const all: ApiKeyScope[] = ['read', 'write', 'events'];
  for (const s of all) {
    only[s] = (await createKey('acme', [s])).secret;
    without[s] = (
      await createKey(
        'acme',
        all.filter((x) => x !== s),
      )
    ).secret;
  }
  other = (await createKey('beta', all)).secret;
  const r = await createKey('acme', all);
  await admin('POST', `/api/admin/portals/acme/keys/${r.id}/revoke`);
  revoked = r.secret;
  const o = await createKey('acme', all);
  await admin('POST', `/api/admin/portals/acme/keys/${o.id}/rotate`, { graceHours: 0 });
  rotatedOut = o.secret;
});
afterAll(async () => {
  await t?.close();
});

type Req = Omit<InjectOptions, 'headers'> & { headers?: Record<string, string> };
interface Row {
  /** Builds the request (may create what it needs with the right key first). */
  build: () => Promise<Req> | Req;
  expect: Record<KeyPersona, number>;
}

/** Expected statuses for an `apiKey` route: `ok` for the right key, `foreign` for another portal's. */
const keyRow = (build: Row['build'], ok: number, foreign: number): Row => ({
  build,
  expect: {
    right: ok,
    otherPortal: foreign,
    missingScope: 403,
    revoked: 401,
    rotatedOut: 401,
    none: 401,
    adminKey: 401,
  },
});
const adminRow = (build: Row['build'], ok: number): Row => ({
  build,
  expect: {
    right: 401,
    otherPortal: 401,
    missingScope: 401,
    revoked: 401,
    rotatedOut: 401,
    none: 401,
    adminKey: ok,
  },
});

async function endpointOfAcme(): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/integration/v1/webhooks',
    headers: bearer(only.events!),
    payload: { url: 'http://127.0.0.1:9/hook' },
  });
  return res.json().id;
}
async function fileOfAcme(): Promise<number> {
  const m = multipartFile('a.txt', 'hello', 'text/plain');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/integration/v1/files',
    headers: { ...bearer(only.write!), ...m.headers },
    payload: m.payload,
  });
  return res.json().id;
}
const upload = (): Req => {
  const m = multipartFile('b.txt', 'hi', 'text/plain');
  return { method: 'POST', url: '/api/integration/v1/files', payload: m.payload, headers: m.headers };
};

/** A fresh entity of acme made with the write key: its id (a foreign key must not find it). */
async function freshOfAcme(path: string, payload: object, idKey = 'id'): Promise<number | string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/integration/v1/${path}`,
    headers: bearer(only.write!),
    payload,
  });
  return res.json()[idKey];
}
const freshCompany = () => freshOfAcme('companies', { companyName: 'Matrix' });
const freshContact = () => freshOfAcme('contacts', { companyId: 10, referentName: 'Matrix' }, 'contactId');
const newTicket = { companyId: 10, title: 'Matrix', taskTypeId: 1, statusStepId: 1 };
const freshTicket = () => freshOfAcme('tickets', newTicket);
/** Rows of one entity: create (both portals hold company 10), and read/update/delete of a fresh one. */
function entityRows(
  path: string,
  create: object,
  fresh: () => Promise<number | string>,
  update: object,
  param: string,
): Record<string, Row> {
  const one = `/api/integration/v1/${path}/:${param}`;
  const url = async () => `/api/integration/v1/${path}/${await fresh()}`;
  return {
    [`POST /api/integration/v1/${path}`]: keyRow(
      () => ({ method: 'POST', url: `/api/integration/v1/${path}`, payload: create }),
      201,
      201,
    ),
    [`GET ${one}`]: keyRow(async () => ({ method: 'GET', url: await url() }), 200, 404),
    [`PATCH ${one}`]: keyRow(async () => ({ method: 'PATCH', url: await url(), payload: update }), 200, 404),
    [`DELETE ${one}`]: keyRow(async () => ({ method: 'DELETE', url: await url() }), 204, 404),
  };
}

let invited = 0;
const invitee = () => {
  invited++;
  return { userName: `matrix.${invited}`, email: `matrix${invited}@acme.example`, contactIds: [102] };
};
/** A fresh invited user of acme (contact 102): its name. */
async function freshUser(): Promise<string> {
  const body = invitee();
  await t.app.inject({
    method: 'POST',
    url: '/api/integration/v1/users',
    headers: bearer(only.write!),
    payload: body,
  });
  return body.userName;
}
const userRow = (method: 'POST' | 'DELETE', suffix: string) =>
  keyRow(async () => ({ method, url: `/api/integration/v1/users/${await freshUser()}/${suffix}` }), 200, 404);

const pdfDoc = { name: 'm.pdf', base64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') };
const newInvoice = {
  companyId: 10,
  documentNumber: 'M',
  total: 1,
  invoiceDate: '2026-11-01',
  document: pdfDoc,
};
const newEstimate = {
  companyId: 10,
  estimateName: 'M',
  estimateNumber: 'M',
  total: 1,
  estimateCreationDate: '2026-11-01',
  document: pdfDoc,
};

const newDocument = {
  companyId: 10,
  contactId: 101,
  documentName: 'M',
  createDate: '2026-11-01',
  file: pdfDoc,
};

const newReport = { companyId: 10, name: 'M', dateTime: '2026-11-01', taskId: 5003, document: pdfDoc };
const newHourContract = { companyId: 10, name: 'M', start: '2026-01-01', activityContractType: 0 };
// Tag 1 of the portal and wiki element 100 of company 10 exist in both portals.
const newServiceContract = {
  companyId: 10,
  name: 'M',
  status: 1,
  activeFrom: '2026-01-01',
  tagIds: [1],
  wikiElementIds: [100],
  packages: [{ id: 1, name: 'P' }],
};
const newPublicFile = { fileName: 'M', file: pdfDoc };
const newSubscription = {
  companyId: 10,
  code: 'M',
  description: 'M',
  quantity: 1,
  taxedTotal: 1,
  advanceDate: '2026-12-01',
  trigger: { recurrenceType: 30, recurrenceDay: 1, recurrenceMonth: 1 },
};
// Without a key: the portal draws a fresh one each time (both portals hold agent 1 and ticket 5001).
const newAppointmentLink = {
  title: 'M',
  agentId: 1,
  defaultDurationMinutes: 30,
  slotMinutes: 30,
  daysAhead: 7,
  weeklyHours: { mon: [['09:00', '10:00']] },
};
const newTaskLink = { ticketId: 5001 };
const newWikiFolder = { companyId: 10, name: 'M' };
// Without an id: the portal gives the next free one (a tag no service contract names, so it deletes).
const newTag = { name: 'M', tagGroupName: 'Matrix' };
// Folder 2 of company 10 exists in both portals.
const newWikiElement = { companyId: 10, folderId: 2, name: 'M' };

const matrix: Record<string, Row> = {
  ...entityRows('reports', newReport, () => freshOfAcme('reports', newReport), { name: 'N' }, 'reportid'),
  ...entityRows(
    'documents',
    newDocument,
    () => freshOfAcme('documents', newDocument),
    { documentName: 'N' },
    'documentid',
  ),
  ...entityRows('invoices', newInvoice, () => freshOfAcme('invoices', newInvoice), { total: 2 }, 'invoiceid'),
  ...entityRows(
    'estimates',
    newEstimate,
    () => freshOfAcme('estimates', newEstimate),
    { total: 2 },
    'estimateid',
  ),
  'POST /api/integration/v1/users': keyRow(
    () => ({ method: 'POST', url: '/api/integration/v1/users', payload: invitee() }),
    201,
    201,
  ),
  'GET /api/integration/v1/users/:username': keyRow(
    async () => ({ method: 'GET', url: `/api/integration/v1/users/${await freshUser()}` }),
    200,
    404,
  ),
  'POST /api/integration/v1/users/:username/invitation': userRow('POST', 'invitation'),
  'DELETE /api/integration/v1/users/:username/invitation': userRow('DELETE', 'invitation'),
  'POST /api/integration/v1/users/:username/deactivate': userRow('POST', 'deactivate'),
  'POST /api/integration/v1/users/:username/password-reset': userRow('POST', 'password-reset'),
  ...entityRows('companies', { companyName: 'M' }, freshCompany, { companyName: 'N' }, 'id'),
  ...entityRows(
    'contacts',
    { companyId: 10, referentName: 'M' },
    freshContact,
    { permissions: { manageTickets: true } },
    'contactid',
  ),
  ...entityRows('tickets', newTicket, freshTicket, { statusStepId: 2 }, 'ticketid'),
  ...entityRows(
    'activity-contracts',
    newHourContract,
    () => freshOfAcme('activity-contracts', newHourContract),
    { hoursAmount: 3 },
    'contractid',
  ),
  ...entityRows(
    'service-contracts',
    newServiceContract,
    () => freshOfAcme('service-contracts', newServiceContract),
    { status: 4 },
    'servicecontractid',
  ),
  ...entityRows(
    'public-files',
    newPublicFile,
    () => freshOfAcme('public-files', newPublicFile),
    { fileName: 'N' },
    'publicfileid',
  ),
  ...entityRows(
    'subscriptions',
    newSubscription,
    () => freshOfAcme('subscriptions', newSubscription),
    { quantity: 2 },
    'subscriptionid',
  ),
  ...entityRows(
    'appointment-links',
    newAppointmentLink,
    () => freshOfAcme('appointment-links', newAppointmentLink, 'eventKey'),
    { daysAhead: 8 },
    'eventkey',
  ),
  ...entityRows(
    'task-links',
    newTaskLink,
    () => freshOfAcme('task-links', newTaskLink, 'eventKey'),
    { ticketId: 5002 },
    'eventkey',
  ),
  ...entityRows('tags', newTag, () => freshOfAcme('tags', newTag), { tagGroupName: 'N' }, 'tagid'),
  ...entityRows(
    'wiki-folders',
    newWikiFolder,
    () => freshOfAcme('wiki-folders', newWikiFolder),
    { name: 'N' },
    'folderid',
  ),
  ...entityRows(
    'wiki-elements',
    newWikiElement,
    () => freshOfAcme('wiki-elements', newWikiElement),
    { name: 'N' },
    'elementid',
  ),
  'GET /api/integration/v1/events': keyRow(
    () => ({ method: 'GET', url: '/api/integration/v1/events' }),
    200,
    200,
  ),
  // Ticket 5003 exists in both portals (same ids): the other portal's key writes on its own copy.
  'POST /api/integration/v1/tickets/:ticketid/comments': keyRow(
    () => ({
      method: 'POST',
      url: '/api/integration/v1/tickets/5003/comments',
      payload: { senderAgentId: 1, message: 'matrix' },
    }),
    201,
    201,
  ),
  'POST /api/integration/v1/files': keyRow(upload, 201, 201),
  'GET /api/integration/v1/files/:id': keyRow(
    async () => ({ method: 'GET', url: `/api/integration/v1/files/${await fileOfAcme()}` }),
    200,
    404,
  ),
  'GET /api/integration/v1/webhooks': keyRow(
    () => ({ method: 'GET', url: '/api/integration/v1/webhooks' }),
    200,
    200,
  ),
  'POST /api/integration/v1/webhooks': keyRow(
    () => ({ method: 'POST', url: '/api/integration/v1/webhooks', payload: { url: 'http://127.0.0.1:9/h' } }),
    201,
    201,
  ),
  'PATCH /api/integration/v1/webhooks/:endpointId': keyRow(
    async () => ({
      method: 'PATCH',
      url: `/api/integration/v1/webhooks/${await endpointOfAcme()}`,
      payload: { description: 'x' },
    }),
    200,
    404,
  ),
  'DELETE /api/integration/v1/webhooks/:endpointId': keyRow(
    async () => ({ method: 'DELETE', url: `/api/integration/v1/webhooks/${await endpointOfAcme()}` }),
    204,
    404,
  ),
  'GET /api/integration/v1/webhooks/:endpointId/attempts': keyRow(
    async () => ({ method: 'GET', url: `/api/integration/v1/webhooks/${await endpointOfAcme()}/attempts` }),
    200,
    404,
  ),
  'POST /api/integration/v1/webhooks/:endpointId/replay': keyRow(
    async () => ({
      method: 'POST',
      url: `/api/integration/v1/webhooks/${await endpointOfAcme()}/replay`,
      payload: {},
    }),
    200,
    404,
  ),
  'POST /api/integration/v1/webhooks/:endpointId/rotate': keyRow(
    async () => ({
      method: 'POST',
      url: `/api/integration/v1/webhooks/${await endpointOfAcme()}/rotate`,
      payload: {},
    }),
    200,
    404,
  ),
  'POST /api/admin/portals/:portal/keys': adminRow(
    () => ({ method: 'POST', url: '/api/admin/portals/acme/keys', payload: { name: 'm', scopes: ['read'] } }),
    201,
  ),
  'GET /api/admin/portals/:portal/keys': adminRow(
    () => ({ method: 'GET', url: '/api/admin/portals/acme/keys' }),
    200,
  ),
  'POST /api/admin/portals/:portal/keys/:keyId/rotate': adminRow(
    async () => ({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${(await createKey('acme', ['read'])).id}/rotate`,
    }),
    200,
  ),
  'POST /api/admin/portals/:portal/keys/:keyId/revoke': adminRow(
    async () => ({
      method: 'POST',
      url: `/api/admin/portals/acme/keys/${(await createKey('acme', ['read'])).id}/revoke`,
    }),
    200,
  ),
  'GET /api/admin/portals/:portal/webhooks': adminRow(
    () => ({ method: 'GET', url: '/api/admin/portals/acme/webhooks' }),
    200,
  ),
  'POST /api/admin/portals/:portal/webhooks': adminRow(
    () => ({
      method: 'POST',
      url: '/api/admin/portals/acme/webhooks',
      payload: { url: 'http://127.0.0.1:9/h' },
    }),
    201,
  ),
  'PATCH /api/admin/portals/:portal/webhooks/:endpointId': adminRow(
    async () => ({
      method: 'PATCH',
      url: `/api/admin/portals/acme/webhooks/${await endpointOfAcme()}`,
      payload: { enabled: false },
    }),
    200,
  ),
  'DELETE /api/admin/portals/:portal/webhooks/:endpointId': adminRow(
    async () => ({ method: 'DELETE', url: `/api/admin/portals/acme/webhooks/${await endpointOfAcme()}` }),
    204,
  ),
  'GET /api/admin/portals/:portal/webhooks/:endpointId/attempts': adminRow(
    async () => ({
      method: 'GET',
      url: `/api/admin/portals/acme/webhooks/${await endpointOfAcme()}/attempts`,
    }),
    200,
  ),
  'POST /api/admin/portals/:portal/webhooks/:endpointId/replay': adminRow(
    async () => ({
      method: 'POST',
      url: `/api/admin/portals/acme/webhooks/${await endpointOfAcme()}/replay`,
      payload: {},
    }),
    200,
  ),
  'POST /api/admin/portals/:portal/webhooks/:endpointId/rotate': adminRow(
    async () => ({
      method: 'POST',
      url: `/api/admin/portals/acme/webhooks/${await endpointOfAcme()}/rotate`,
    }),
    200,
  ),
  // The installation key's invitation of a portal's staff (the first admin while the server runs).
  'POST /api/admin/portals/:portal/staff': adminRow(
    () => ({
      method: 'POST',
      url: '/api/admin/portals/acme/staff',
      payload: { email: 'matrix.staff@acme.example' },
    }),
    201,
  ),
};

function credentialOf(p: KeyPersona, scope: ApiKeyScope | undefined): string | undefined {
  switch (p) {
    case 'right':
      return scope ? only[scope] : only.read;
    case 'otherPortal':
      return other;
    case 'missingScope':
      return scope ? without[scope] : only.read;
    case 'revoked':
      return revoked;
    case 'rotatedOut':
      return rotatedOut;
    case 'none':
      return undefined;
    case 'adminKey':
      return TEST_ADMIN_KEY;
  }
}

const keyRoutes: [string, RouteContract['access']][] = (
  [
    integrationRoutes,
    webhookKeyRoutes,
    webhookAdminRoutes,
    entityKeyRoutes,
    staffInstallationRoutes,
  ] as Record<string, RouteContract>[]
).flatMap((area) =>
  Object.values(area).map((c): [string, RouteContract['access']] => [routeKey(c), c.access]),
);

describe('integration API access matrix', () => {
  it('has a row for every route of the integration API, and no stale one', () => {
    expect(keyRoutes.map(([k]) => k).filter((k) => !matrix[k])).toEqual([]);
    const known = new Set(keyRoutes.map(([k]) => k));
    expect(Object.keys(matrix).filter((k) => !known.has(k))).toEqual([]);
  });

  for (const [route, rule] of keyRoutes) {
    const scope = rule.guard === 'apiKey' ? rule.scope : undefined;
    it(route, async () => {
      const row = matrix[route]!;
      const got: Record<string, number> = {};
      for (const p of KEY_PERSONAS) {
        const req = await row.build();
        const secret = credentialOf(p, scope);
        const res = await t.app.inject({
          ...req,
          headers: { ...(req.headers ?? {}), ...(secret ? bearer(secret) : {}) },
        } as InjectOptions);
        got[p] = res.statusCode;
      }
      expect(got).toEqual(row.expect);
    });
  }
});
