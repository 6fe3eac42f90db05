/**
 * Access control, derived from the route contracts (packages/contracts/src/route.ts). Every /api route
 * is registered with `route()` (platform/route.ts), which stores its contract on the route; the
 * `onRequest` hook installed here applies the contract's `access` before validation and before the
 * handler (so an anonymous or foreign caller gets 401/403 before anything else, and before an upload is
 * read), and hands the handler what the guard resolved. An /api route registered without a contract is
 * refused with 403 (fail closed); `access.test.ts` names it before it ships.
 *
 * Guard kinds are resolved by resolvers registered by name (`registerGuard`). The built-in ones:
 * - `public`: no token needed.
 * - `user`: a signed-in user (401 otherwise).
 * - `portal`: a signed-in user holding some contact of the `:company` portal (403 otherwise).
 * - `tenant`: the user holds contact `:contactid` of portal `:company` (403 otherwise); then the flag.
 * - `contact`: like tenant, for routes without `:company` (`/api/users/:contactid/…`): the contact id is
 *   looked up among the user's contacts; when the user holds that id in several portals the caller must
 *   add `?company=` (400 `company_required`).
 * `flag`: one flag, or a list of which any one suffices, checked after the tenancy (403
 * `missing_permission`).
 *
 * A module adding a kind (apiKey, adminKey, staff…) declares its options in the contracts'
 * `GuardOptions`, what it resolves to by augmenting `GuardResults` below:
 *   declare module '../../platform/access' { interface GuardResults { apiKey: ApiKeyAccess } }
 * and calls `registerGuard('apiKey', resolver)` at module load (before the app is built).
 */
import type { Access, GuardKind, FlagRule, RouteContract } from '@sportello/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { contacts, portals, userContacts } from '../db/schema';
import { bearerOf, invalidSession, rememberUser, requireUser, type SessionUser } from './auth';
import type { App, AppContext } from './context';
import { badRequest, forbidden, notFound, unauthorized } from './errors';
import { isCustomerGuard, isViewToken, refuseWrites, resolveViewAccess } from './view-session';
import {
  extIdOf,
  flagAllows,
  notYourContact,
  requireFlag,
  resolveSessionTenant,
  resolveTenant,
  type TenantContext,
} from './tenancy';

/** What a guard hands the handler. */
export interface PortalAccess {
  user: SessionUser;
  portalId: number;
  portalKey: string;
  timeZone: string;
}

/** What each guard kind resolves to; modules augment it with their kinds. */
export interface GuardResults {
  public: null;
  user: SessionUser;
  portal: PortalAccess;
  tenant: TenantContext;
  contact: TenantContext;
}
export type GuardResultOf<A extends Access> = A['guard'] extends keyof GuardResults
  ? GuardResults[A['guard']]
  : unknown;

export type GuardResolver<K extends GuardKind> = (
  req: FastifyRequest,
  ctx: AppContext,
  access: Extract<Access, { guard: K }>,
) => Promise<K extends keyof GuardResults ? GuardResults[K] : unknown>;

const resolvers = new Map<GuardKind, GuardResolver<GuardKind>>();

/**
 * Registers how a guard kind is resolved (a module calls it when loaded). Registering a kind twice is
 * a programming error. Answers a function that removes the registration (for tests).
 */
export function registerGuard<K extends GuardKind>(kind: K, resolver: GuardResolver<K>): () => void {
  const known: unknown = resolvers.get(kind);
  if (known && known !== resolver) throw new Error(`guard kind ${kind} is registered twice`);
  const r = resolver as unknown as GuardResolver<GuardKind>;
  resolvers.set(kind, r);
  return () => {
    if (resolvers.get(kind) === r) resolvers.delete(kind);
  };
}

/** The resolver of a kind; throws (at registration time, via route()) when no module registered it. */
export function resolverOf(kind: GuardKind): GuardResolver<GuardKind> {
  const r = resolvers.get(kind);
  if (!r) throw new Error(`no resolver registered for guard kind ${kind}`);
  return r;
}

async function portalAccess(req: FastifyRequest, ctx: AppContext): Promise<PortalAccess> {
  const u = await requireUser(req, ctx.database.db, ctx.clock);
  const key = String((req.params as Record<string, unknown>).company ?? '').toLowerCase();
  const rows = await ctx.database.db
    .select({ portalId: portals.id, portalKey: portals.key, timeZone: portals.timeZone })
    .from(portals)
    .innerJoin(contacts, eq(contacts.portalId, portals.id))
    .innerJoin(userContacts, and(eq(userContacts.contactId, contacts.id), eq(userContacts.userId, u.userId)))
    .where(eq(portals.key, key))
    .limit(1);
  const r = rows[0];
  if (!r) throw forbidden('You hold no contact of this portal', 'not_your_portal');
  return { user: u, ...r };
}

/** `/api/users/:contactid/…`: the contact among the user's, disambiguated by `?company=` when needed. */
async function contactAccess(req: FastifyRequest, ctx: AppContext): Promise<TenantContext> {
  const u = await requireUser(req, ctx.database.db, ctx.clock);
  const ext = extIdOf(String((req.params as Record<string, unknown>).contactid ?? ''));
  if (ext === null) throw notYourContact();
  const company = (req.query as Record<string, unknown> | undefined)?.company;
  if (typeof company === 'string' && company !== '')
    return resolveTenant(ctx.database.db, u.userId, company, ext);
  const held = await ctx.database.db
    .select({ key: portals.key })
    .from(contacts)
    .innerJoin(portals, eq(portals.id, contacts.portalId))
    .innerJoin(userContacts, and(eq(userContacts.contactId, contacts.id), eq(userContacts.userId, u.userId)))
    .where(eq(contacts.extId, ext))
    .limit(2);
  if (held.length === 0) throw notYourContact();
  if (held.length > 1)
    throw badRequest(
      'You hold this contact id in several portals: add ?company=<portal key>',
      'company_required',
    );
  return resolveTenant(ctx.database.db, u.userId, held[0]!.key, ext);
}

function checkFlag(t: TenantContext, flag: FlagRule | undefined): void {
  if (flag === undefined) return;
  if (typeof flag === 'string') return requireFlag(t, flag);
  if (!flagAllows(t.flags, flag))
    throw forbidden(`This contact lacks the ${flag.join(' or ')} permission`, 'missing_permission');
}

registerGuard('public', async () => null);
registerGuard('user', (req, ctx) => requireUser(req, ctx.database.db, ctx.clock));
registerGuard('portal', portalAccess);
registerGuard('tenant', async (req, ctx, access) => {
  const token = bearerOf(req);
  if (!token) throw unauthorized();
  const p = req.params as Record<string, unknown>;
  const found = await resolveSessionTenant(
    ctx.database.db,
    ctx.clock,
    token,
    String(p.company ?? ''),
    String(p.contactid ?? ''),
  );
  if (!found) throw invalidSession();
  rememberUser(req, found.user);
  if (!found.tenant) throw notYourContact();
  checkFlag(found.tenant, access.flag);
  return found.tenant;
});
registerGuard('contact', async (req, ctx, access) => {
  const t = await contactAccess(req, ctx);
  checkFlag(t, access.flag);
  return t;
});

/** Route config key under which route() stores the contract. */
export interface ContractRouteConfig {
  contract?: RouteContract;
}

/** The contract of the route a request matched (undefined: registered without one). */
export function contractOf(req: FastifyRequest): RouteContract | undefined {
  return contractIn(req.routeOptions);
}

/** The contract in a route's options (`req.routeOptions`, read once). */
const contractIn = (route: { config?: unknown }): RouteContract | undefined =>
  (route.config as ContractRouteConfig | undefined)?.contract;

const resolved = new WeakMap<FastifyRequest, Promise<unknown>>();

/** What the route's guard resolved for this request (resolved once, by the hook or on first ask). */
export function resolvedAccess(req: FastifyRequest, ctx: AppContext, access: Access): Promise<unknown> {
  let p = resolved.get(req);
  if (!p) {
    // A "see as this contact" token stands in for a contact on the customer guards (view-session.ts).
    const token = bearerOf(req);
    p =
      isViewToken(token) && isCustomerGuard(access)
        ? resolveViewAccess(req, ctx, access, token)
        : resolverOf(access.guard)(req, ctx, access as never);
    resolved.set(req, p);
  }
  return p;
}

export interface RegisteredRoute {
  method: string;
  url: string;
  contract?: RouteContract;
}
const registered = new WeakMap<object, RegisteredRoute[]>();

/** Every route registered after installAccessControl, with its contract when it has one. */
export function registeredRoutes(app: App): RegisteredRoute[] {
  return registered.get(app) ?? [];
}

const isApiPath = (path: string) => /^\/api(\/|$)/i.test(path);

/**
 * Records routes and applies each route's guard on every request. Call before registering routes.
 */
export function installAccessControl(app: App, ctx: AppContext): void {
  const list: RegisteredRoute[] = [];
  registered.set(app, list);
  app.addHook('onRoute', (r: RouteOptions) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const contract = contractIn(r);
    for (const m of methods) list.push({ method: m, url: r.url, contract });
  });
  // A callback hook, not an async one: most requests it passes need no promise (public routes, files).
  app.addHook('onRequest', (req, _reply, done) => {
    // Fastify builds routeOptions anew on each read: once per request.
    const route = req.routeOptions;
    const url = route.url;
    if (!url) return done(); // no route: the not-found handler answers
    if (!isApiPath(url)) {
      // A catch-all (the static files) must not answer for /api paths: they are API 404s.
      if (isApiPath(req.url.split('?')[0] ?? ''))
        throw notFound(`No API route ${req.method} ${req.url.split('?')[0]}`);
      return done();
    }
    const contract = contractIn(route);
    // Fail closed: a route registered without a contract is refused rather than left to its handler.
    if (!contract) {
      req.log.error({ route: `${req.method} ${url}` }, 'API route without a contract');
      throw forbidden('This route has no access rule', 'no_access_rule');
    }
    if (contract.access.guard === 'public') return done();
    resolvedAccess(req, ctx, contract.access)
      .then(() => {
        // A "see as this contact" session only reads, on every route it opens.
        if (isViewToken(bearerOf(req)) && isCustomerGuard(contract.access)) refuseWrites(req.method);
      })
      .then(() => done(), done);
  });
}
