/**
 * Route contracts: each API route is written ONCE, here in `packages/contracts`, as a `defineRoute({...})`
 * value: method, path, the zod schemas of its params / query / body / answers, who may call it (`access`)
 * and its OpenAPI words. Everything else is derived from that value:
 *
 * - the server registers it with `route(app, ctx, contract, handler)` (apps/api/src/platform/route.ts):
 *   the schemas validate and serialise, the access rule is applied before validation, the handler gets
 *   the typed request and what the guard resolved (user, tenant, portal, key…), and the lowest 2xx of
 *   `responses` is the default status;
 * - the access table (and its fail-closed check, and the access-matrix test) is the list of the
 *   contracts registered that way; an /api route registered otherwise is refused with 403;
 * - the OpenAPI document: the declared answers plus the common error answers `errorStatusesOf`
 *   derives from the contract (401/403 when guarded, 400 always, 413/415 with a body, 414 with path
 *   params, 500/503), and a test fails when a route answers a status its contract does not list;
 * - the web client calls it with `call(contract, { params, query, body, signal })`
 *   (apps/web/src/lib/api-client.ts), which builds the URL from `path`, sends the token unless the
 *   guard is `public`, and types the answer.
 *
 * Each area groups its routes in one object (`ticketRoutes.list`, `ticketRoutes.detail`, …) at the end
 * of its schema file (`tickets.ts`); `apiRoutes` in `routes.ts` lists every area's object.
 *
 * Access: `{ guard: kind, ...options }`. The kinds and their options are the `GuardOptions` interface
 * below; the server resolves each kind with a resolver registered under its name
 * (`registerGuard(kind, resolver)` in apps/api/src/platform/access.ts), so a module adds a kind by
 * adding its line here (or augmenting `GuardOptions` from its own contract file) and registering its
 * resolver, without touching a switch. A contract whose kind has no resolver stops the app at start.
 */
import type { z } from 'zod';
import type { PermissionFlag } from './permissions';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One flag, or a list of which any one suffices. */
export type FlagRule = PermissionFlag | readonly PermissionFlag[];

/**
 * Guard kinds and the options each takes. A new kind: add it here (or augment this interface with
 * `declare module '@sportello/contracts/route'`), give it a security scheme in `guardSecurity`, and
 * register its resolver on the server.
 */
export interface GuardOptions {
  /** No credential (capability routes: the unguessable key in the path is the credential). */
  public: object;
  /** A signed-in user (401 otherwise). */
  user: object;
  /** A signed-in user holding some contact of the `:company` portal (403 otherwise). */
  portal: object;
  /** The user holds contact `:contactid` of portal `:company` (403 otherwise); then `flag`. */
  tenant: { flag?: FlagRule };
  /** Like tenant for `/api/users/:contactid/…` (the portal from `?company=` when ambiguous). */
  contact: { flag?: FlagRule };
  /** A portal API key (integration API) with the scope named. */
  apiKey: { scope: 'read' | 'write' | 'events' };
  /** The installation's PORTAL_ADMIN_KEY. */
  adminKey: object;
  /** A staff session (staff desk), at least of the role named. */
  staff: { role?: 'agent' | 'admin' };
}
export type GuardKind = keyof GuardOptions;
export type Access = { [K in GuardKind]: { guard: K } & GuardOptions[K] }[GuardKind];

/** The OpenAPI security scheme each kind asks for (null: none). Every credential is a bearer header. */
export const guardSecurity: Record<GuardKind, string | null> = {
  public: null,
  user: 'bearer',
  portal: 'bearer',
  tenant: 'bearer',
  contact: 'bearer',
  apiKey: 'apiKey',
  adminKey: 'adminKey',
  staff: 'bearer',
};

/**
 * A file answered as bytes (not JSON), never serialised: documented under its media type
 * (`application/octet-stream` unless named; the range of any type for a stored file answered as its
 * own type).
 */
export interface BinaryAnswer {
  binary: true;
  description: string;
  contentType?: string;
}
export const binaryAnswer = (description: string, contentType?: string): BinaryAnswer => ({
  binary: true,
  description,
  ...(contentType ? { contentType } : {}),
});
export const isBinaryAnswer = (r: unknown): r is BinaryAnswer =>
  typeof r === 'object' && r !== null && (r as { binary?: unknown }).binary === true;

/** An answer: its zod schema, null for an answer without a body (204), or bytes. */
export type ResponseSchema = z.ZodType | null | BinaryAnswer;
export type Responses = { [status: number]: ResponseSchema };

export interface RouteContract {
  method: HttpMethod;
  /** Fastify syntax (`/api/:company/:contactid/tickets`); matched case-insensitively. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** `multipart`: a `multipart/form-data` upload with one field `file` (the body schema is not used). */
  bodyKind?: 'json' | 'multipart';
  /** Largest request body in bytes, when the route needs another than the server's default. */
  bodyLimit?: number;
  /** Every answer this route gives on purpose (2xx and route-specific errors such as 404, 409, 410, 429). */
  responses: Responses;
  /** The media type of its JSON success answers when it is not `application/json` (the web manifest). */
  answerType?: string;
  access: Access;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Left out of the OpenAPI document (the document itself). */
  hide?: boolean;
}

/** Identity at run time; keeps the literal types (path, access, schemas) for the server and the web. */
export function defineRoute<const R extends RouteContract>(route: R): R {
  return route;
}

/** Type only: the contract a route reference stands for (never set at run time). */
declare const contractOfRef: unique symbol;

/**
 * A route reference: what a browser needs of a contract at run time to call it (method, path, guard),
 * without its schemas, and typed by the whole contract, so that a call through it is checked against
 * the contract's params, query, body and answer. `route-refs.ts` holds one for every contract a browser
 * session can call, generated from the contracts (`npm run route-refs`); the web app calls through those,
 * so its first load carries neither the schemas nor zod (docs/architecture.md, "Route contracts").
 */
export interface RouteRef<R extends RouteContract = RouteContract> {
  readonly method: R['method'];
  readonly path: R['path'];
  readonly access: { readonly guard: R['access']['guard'] };
  readonly [contractOfRef]?: R;
}

/** An area's routes (possibly nested, as `ticketSetupRoutes.types.create`) as references. */
export type RouteRefs<T> = {
  readonly [K in keyof T]: T[K] extends RouteContract ? RouteRef<T[K]> : RouteRefs<T[K]>;
};

/** The contract a route reference stands for. */
export type ContractOf<Ref> = Ref extends RouteRef<infer R> ? R : never;

export const isRouteContract = (v: unknown): v is RouteContract =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as RouteContract).method === 'string' &&
  typeof (v as RouteContract).path === 'string' &&
  typeof (v as RouteContract).access?.guard === 'string';

/** The reference of a contract: its method, path and guard. */
export const routeRefOf = (r: RouteContract): RouteRef => ({
  method: r.method,
  path: r.path,
  access: { guard: r.access.guard },
});

type RouteTree = { [key: string]: RouteContract | RouteTree };
const isRouteTree = (v: unknown): v is RouteTree =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.values(v).every((x) => isRouteContract(x) || isRouteTree(x));

/** An area's routes as references, nested as the area nests them. */
export function routeRefsOf(tree: RouteTree): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tree).map(([k, v]) => [k, isRouteContract(v) ? routeRefOf(v) : routeRefsOf(v)]),
  );
}

/** Guards no browser session passes: the back office's API keys and the installation key. */
const SERVER_ONLY_GUARDS: readonly GuardKind[] = ['apiKey', 'adminKey'];
const leavesOf = (tree: RouteTree): RouteContract[] =>
  Object.values(tree).flatMap((v) => (isRouteContract(v) ? [v] : leavesOf(v)));

/**
 * The route objects of the contracts' exports that `route-refs.ts` mirrors, sorted by name: every
 * exported object of routes (`ticketRoutes`, `ticketSetupRoutes` with its nested kinds) except
 * `apiRoutes`, which only lists the others, and those whose every route wants a key no browser holds.
 */
export function browserRouteTrees(exports: Record<string, unknown>): [string, RouteTree][] {
  return Object.entries(exports)
    .filter((e): e is [string, RouteTree] => e[0] !== 'apiRoutes' && isRouteTree(e[1]))
    .filter(([, tree]) => leavesOf(tree).some((r) => !SERVER_ONLY_GUARDS.includes(r.access.guard)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `GET /api/…`, the key the access table, logs and tests use for a contract. */
export const routeKey = (r: Pick<RouteContract, 'method' | 'path'>) => `${r.method} ${r.path}`;

/** Names of the `:params` of a path. */
export const pathParamNames = (path: string): string[] =>
  [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

/**
 * The error answers every route of this shape can give besides its own `responses`, so the OpenAPI
 * document lists them and the undocumented-answer check accepts them:
 * 400 (malformed request: validation, bad JSON, NUL bytes) always; 401 and 403 when guarded;
 * 413 and 415 with a body; 429 and 507 for an upload; 414 when a path parameter can be too long; 500 and
 * 503 always.
 */
export function errorStatusesOf(r: RouteContract): number[] {
  const s = new Set<number>([400, 500, 503]);
  if (r.access.guard !== 'public') {
    s.add(401);
    s.add(403);
  }
  if (r.body || r.bodyKind === 'multipart') {
    s.add(413);
    s.add(415);
  }
  // Uploads: the contact's upload quotas (429) and a disk that cannot hold the file (507).
  if (r.bodyKind === 'multipart') {
    s.add(429);
    s.add(507);
  }
  if (pathParamNames(r.path).length > 0) s.add(414);
  return [...s].sort((a, b) => a - b);
}

/** Every status the route may answer: its own and the common errors. */
export function statusesOf(r: RouteContract): number[] {
  const own = Object.keys(r.responses).map(Number);
  return [...new Set([...own, ...errorStatusesOf(r)])].sort((a, b) => a - b);
}

/** The status of a success without an explicit code: the lowest 2xx declared. */
export function successStatusOf(r: RouteContract): number {
  const ok = Object.keys(r.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  return ok[0] ?? 200;
}

// --- Types derived from a contract (server handlers and the web client) ---

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;
type SuccessCodes = 200 | 201 | 202 | 204;

export type ParamsOf<R extends RouteContract> = Out<R['params']>;
export type QueryOf<R extends RouteContract> = Out<R['query']>;
/** What the server's handler receives after validation. */
export type BodyOf<R extends RouteContract> = Out<R['body']>;
/** What a caller sends. */
export type BodyInputOf<R extends RouteContract> = In<R['body']>;
/** The body of a successful answer (undefined for 204). */
export type ResponseOf<R extends RouteContract> = {
  [S in Extract<keyof R['responses'], SuccessCodes>]: R['responses'][S] extends z.ZodType
    ? z.output<R['responses'][S]>
    : undefined;
}[Extract<keyof R['responses'], SuccessCodes>];
