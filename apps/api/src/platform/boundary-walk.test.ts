/**
 * The boundary walk (issue 29 item 6b; docs/security.md): every route of `apiRoutes` is sent, as each
 * persona that reaches it, a valid request made from its contract and then each of its inputs (path,
 * query, body, nested) set to the edges a fuzzer sends (0, −1, 2^31, 2^53, 21 digits, leading zeros,
 * far dates and offsets, 10,000 characters, NUL). No answer may be a 5xx. The requests are generated
 * from the contracts (test/contract-walk.ts), so a new route is walked without doing anything.
 */
import { allRouteContracts, routeKey, type RouteContract } from '@sportello/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, entityWorld } from '../test/entity-kit';
import { TEST_ADMIN_KEY, type TestApp } from '../test/harness';
import { edgesOf, inputsOf, sampleOf, withLeaf, type Leaf } from '../test/contract-walk';
import { multipartFile } from '../test/personas';
import { bearer, tokenFor } from '../test/seed';

type Headers = Record<string, string>;
let t: TestApp;
const personas: Record<string, () => Headers> = {};

beforeAll(async () => {
  const w = await entityWorld();
  t = w.t;
  const key = (await createKey(t, 'acme', 'walk', ['read', 'write', 'events'])).secret;
  const customer = bearer(await tokenFor(t, 'mario.rossi'));
  personas.anonymous = () => ({});
  personas.customer = () => customer;
  personas.staffAgent = () => w.agent;
  personas.staffAdmin = () => w.admin;
  personas.apiKey = () => bearer(key);
  personas.adminKey = () => bearer(TEST_ADMIN_KEY);
});
afterAll(async () => {
  await t?.close();
});

/** Who reaches a route: the personas its guard lets through. */
function reachedBy(c: RouteContract): string[] {
  switch (c.access.guard) {
    case 'public':
      return ['anonymous'];
    case 'staff':
      return c.access.role === 'admin' ? ['staffAdmin'] : ['staffAgent'];
    case 'apiKey':
      return ['apiKey'];
    case 'adminKey':
      return ['adminKey'];
    default:
      return ['customer'];
  }
}

/** Path values of the seeded world, so requests reach past "not found" (the rest are samples). */
const WORLD: Record<string, string> = {
  company: 'acme',
  portal: 'acme',
  contactid: '101',
  ticketid: '5001',
  username: 'mario.rossi',
};

/**
 * Routes that end the caller's own credential or change the world under the others go last: reads,
 * then writes, then deletes (the shallowest, a whole portal, at the very end).
 */
const ENDS_A_CREDENTIAL =
  /logout|revoke|rotate|sessions|password|disable|remove|role|two-factor|passkey|totp/i;
const order = (c: RouteContract) =>
  (ENDS_A_CREDENTIAL.test(c.path) ? 3000 : 0) +
  (c.method === 'GET' ? 0 : c.method === 'DELETE' ? 2000 - c.path.split('/').length : 1000);

const text = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

function request(
  c: RouteContract,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
  body: unknown,
) {
  const url = c.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    encodeURIComponent(text(params[name])),
  );
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) qs.append(k, text(x));
  }
  const q = qs.toString();
  return { url: q ? `${url}?${q}` : url, body };
}

/** The base request of a route and one request per (input, edge). */
function requestsOf(c: RouteContract) {
  const params = { ...((c.params ? sampleOf(c.params) : {}) as Record<string, unknown>) };
  for (const k of Object.keys(params)) if (WORLD[k] !== undefined) params[k] = WORLD[k];
  const query = (c.query ? sampleOf(c.query) : {}) as Record<string, unknown>;
  const body = c.body && c.bodyKind !== 'multipart' ? sampleOf(c.body) : undefined;
  const out = [{ what: 'base', ...request(c, params, query, body) }];
  const inputs: Leaf[] = inputsOf(c).slice(0, 16);
  for (const leaf of inputs) {
    for (const edge of edgesOf(leaf)) {
      const what = `${leaf.part}.${leaf.path.join('.')}=${text(edge).slice(0, 40)}`;
      if (leaf.part === 'params')
        out.push({ what, ...request(c, withLeaf(params, leaf.path, edge) as never, query, body) });
      else if (leaf.part === 'query')
        out.push({ what, ...request(c, params, withLeaf(query, leaf.path, edge) as never, body) });
      else out.push({ what, ...request(c, params, query, withLeaf(body, leaf.path, edge)) });
    }
  }
  return out;
}

describe('the boundary walk', () => {
  it(
    'answers no 5xx to any edge of any route, as any persona that reaches it',
    { timeout: 600_000 },
    async () => {
      const routes = allRouteContracts().sort((a, b) => order(a) - order(b));
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      let sent = 0;
      for (const c of routes) {
        const requests = requestsOf(c);
        for (const who of reachedBy(c)) {
          for (const r of requests) {
            const upload =
              c.bodyKind === 'multipart' ? multipartFile('walk.txt', 'walk', 'text/plain') : undefined;
            const res = await t.app.inject({
              method: c.method,
              url: r.url,
              headers: { ...personas[who]!(), ...upload?.headers },
              ...(upload
                ? { payload: upload.payload }
                : r.body === undefined
                  ? {}
                  : { payload: r.body as object }),
            });
            sent++;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            if (res.statusCode >= 500)
              failures.push(
                `${routeKey(c)} as ${who}, ${r.what} → ${res.statusCode} ${res.body.slice(0, 200)}`,
              );
          }
        }
      }
      const summary = `${sent} requests, by status: ${JSON.stringify(Object.fromEntries(statuses))}`;
      expect(failures, summary).toEqual([]);
      // Samples that never pass validation would walk nothing: most routes must answer a 2xx too.
      const ok = [...statuses].filter(([s]) => s < 300).reduce((n, [, k]) => n + k, 0);
      expect(ok, summary).toBeGreaterThan(300);
    },
  );
});
