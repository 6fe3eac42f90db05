/**
 * The route access table: every /api route with the guard that protects it and the permission flag it
 * needs. An `onRequest` hook applies the entry before validation and before the handler (so an
 * anonymous or foreign caller gets 401/403 before anything else, and before an upload is read), and
 * handlers call `guard(req, ctx, key)` to get the resolved user / portal / tenant. `access.test.ts`
 * fails when a registered /api route has no entry here, or an entry names no registered route.
 *
 * Guards:
 * - `public`: no token needed.
 * - `user`: a signed-in user (401 otherwise).
 * - `portal`: a signed-in user holding some contact of the `:company` portal (403 otherwise).
 * - `tenant`: the user holds contact `:contactid` of portal `:company` (403 otherwise); then the flag.
 * - `contact`: like tenant, for routes without `:company` (`/api/users/:contactid/…`): the contact id is
 *   looked up among the user's contacts; when the user holds that id in several portals the caller must
 *   add `?company=` (400 `company_required`).
 *
 * `flag`: one flag, or a list of which any one suffices, checked after the tenancy (403
 * `missing_permission`).
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { contacts, portals, userContacts } from '../db/schema';
import { bearerOf, invalidSession, rememberUser, requireUser, type SessionUser } from './auth';
import type { App, AppContext } from './context';
import { badRequest, forbidden, unauthorized } from './errors';
import {
  extIdOf,
  notYourContact,
  requireFlag,
  resolveSessionTenant,
  resolveTenant,
  type PermissionFlag,
  type TenantContext,
} from './tenancy';

export type GuardKind = 'public' | 'user' | 'portal' | 'tenant' | 'contact';

export interface AccessRule {
  guard: GuardKind;
  flag: PermissionFlag | readonly PermissionFlag[] | null;
}

const pub = { guard: 'public', flag: null } as const;
const user = { guard: 'user', flag: null } as const;
const portal = { guard: 'portal', flag: null } as const;
const tenant = <F extends PermissionFlag | readonly PermissionFlag[] | null>(flag: F) =>
  ({ guard: 'tenant', flag }) as const;

/** Method + path exactly as registered (matching is case-insensitive, as the router's). */
export const accessTable = {
  // platform
  'GET /api/health': pub,
  'GET /api/docs': pub, // the OpenAPI document
  'GET /api/files/:id/:name': pub, // the HMAC signature of the URL is the capability
  // auth
  'POST /api/auth/login': pub,
  'POST /api/auth/logout': user,
  'GET /api/Users/me': user,
  'POST /api/auth/recovery': pub,
  'GET /api/auth/links/:token': pub, // the single-use link token is the capability
  'POST /api/auth/confirm': pub,
  'POST /api/auth/password': user,
  // back office: its handler checks `Authorization: Bearer $PORTAL_ADMIN_KEY` (not a user session)
  'POST /api/admin/import': pub,
  // capability links: the unguessable key in the path is the credential
  'GET /api/signing/:company/:documentkey': pub,
  'POST /api/signing/:company/:documentkey/otp': pub,
  'POST /api/signing/:company/:documentkey/sign': pub,
  'GET /api/appointments/:company/cancellation/:cancelkey': pub,
  'POST /api/appointments/:company/cancellation/:cancelkey': pub,
  'GET /api/appointments/:company/:eventkey': pub,
  'GET /api/appointments/:company/:eventkey/slots': pub,
  'POST /api/appointments/:company/:eventkey': pub,
  'GET /api/tasks/:company/:eventkey': pub,
  // portals (settings of a portal are public: the login page needs them)
  'GET /api/Settings/portals/:company': pub,
  'GET /api/settings/:company/privacy': pub,
  'GET /api/settings/:company/tags': pub, // A7: the tags call sends no token
  'GET /api/settings/:company/publicfiles': portal,
  'GET /api/settings/:company/tickets/types': portal,
  // tickets
  'GET /api/:company/:contactid/tickets': tenant('manageTickets'),
  'GET /api/:company/:contactid/tickets/all': tenant('administrator'),
  'GET /api/:company/:contactid/tickets/:ticketid': tenant(['manageTickets', 'administrator']),
  'POST /api/:company/:contactid/tickets': tenant('manageTickets'),
  'POST /api/:company/:contactid/tickets/:ticketid/close': tenant('manageTickets'),
  'POST /api/:company/:contactid/comments': tenant('manageTickets'),
  'POST /api/:company/:contactid/documents/upload': tenant('manageTickets'),
  'POST /api/:company/:contactid/comments/attachments': tenant('manageTickets'),
  'GET /api/users/:contactid/colleagues': { guard: 'contact', flag: 'administrator' },
  // reports, contracts, wiki
  'GET /api/:company/:contactid/activities/activityreports': tenant('viewContactActivityReports'),
  'GET /api/:company/:contactid/activitycontracts': tenant('viewContactContracts'),
  'GET /api/:company/:contactid/activitycontracts/servicecontracts': tenant('viewContactContracts'),
  'GET /api/:company/:contactid/wikielements': tenant('viewContactWiki'),
  // documents and billing
  'GET /api/:company/:contactid/documents': tenant('viewContactDocuments'),
  'POST /api/:company/:contactid/documents/upload/contact': tenant('uploadContactDocuments'),
  'GET /api/:company/:contactid/invoices': tenant('viewContactInvoices'),
  'GET /api/:company/:contactid/estimates': tenant('viewEstimates'),
  'GET /api/:company/:contactid/jobadvances/recurring': tenant('viewRecurringAdvances'),
} as const satisfies Record<string, AccessRule>;

export type RouteKey = keyof typeof accessTable;

/** What a guard hands the handler. */
export interface PortalAccess {
  user: SessionUser;
  portalId: number;
  portalKey: string;
  timeZone: string;
}
type Resolved<G extends GuardKind> = G extends 'public'
  ? null
  : G extends 'user'
    ? SessionUser
    : G extends 'portal'
      ? PortalAccess
      : TenantContext;
export type GuardResult<K extends RouteKey> = Resolved<(typeof accessTable)[K]['guard']>;

const normalize = (method: string, url: string) =>
  `${(method === 'HEAD' ? 'GET' : method).toUpperCase()} ${url.toLowerCase().replace(/\/+$/, '')}`;

const byKey = new Map<string, AccessRule>(
  Object.entries(accessTable).map(([k, rule]) => {
    const i = k.indexOf(' ');
    return [normalize(k.slice(0, i), k.slice(i + 1)), rule];
  }),
);

/** The entry of a method + registered path, or undefined when the table lacks it. */
export function accessRuleOf(method: string, url: string): AccessRule | undefined {
  return byKey.get(normalize(method, url));
}

function routeKeyOf(req: FastifyRequest): string {
  return normalize(req.method, req.routeOptions.url ?? '');
}

const resolved = new WeakMap<FastifyRequest, Promise<unknown>>();

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

function checkFlag(t: TenantContext, flag: AccessRule['flag']): void {
  if (flag === null) return;
  if (typeof flag === 'string') return requireFlag(t, flag);
  if (!flag.some((f) => t.flags[f]))
    throw forbidden(`This contact lacks the ${flag.join(' or ')} permission`, 'missing_permission');
}

async function apply(req: FastifyRequest, ctx: AppContext, rule: AccessRule): Promise<unknown> {
  switch (rule.guard) {
    case 'public':
      return null;
    case 'user':
      return requireUser(req, ctx.database.db, ctx.clock);
    case 'portal':
      return portalAccess(req, ctx);
    case 'tenant': {
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
      checkFlag(found.tenant, rule.flag);
      return found.tenant;
    }
    case 'contact': {
      const t = await contactAccess(req, ctx);
      checkFlag(t, rule.flag);
      return t;
    }
  }
}

function resolveOnce(req: FastifyRequest, ctx: AppContext, rule: AccessRule): Promise<unknown> {
  let p = resolved.get(req);
  if (!p) {
    p = apply(req, ctx, rule);
    resolved.set(req, p);
  }
  return p;
}

/**
 * Called by a handler with its own table key: answers what the entry's guard resolved (the hook
 * has usually done the work already). A key that is not the route's own is a programming error.
 */
export async function guard<K extends RouteKey>(
  req: FastifyRequest,
  ctx: AppContext,
  key: K,
): Promise<GuardResult<K>> {
  const i = key.indexOf(' ');
  const wanted = normalize(key.slice(0, i), key.slice(i + 1));
  const actual = routeKeyOf(req);
  if (wanted !== actual) throw new Error(`guard(${key}) called from route ${actual}`);
  return (await resolveOnce(req, ctx, accessTable[key])) as GuardResult<K>;
}

export interface RegisteredRoute {
  method: string;
  url: string;
}
const registered = new WeakMap<object, RegisteredRoute[]>();

/** Every route registered after installAccessControl (for the completeness test). */
export function registeredRoutes(app: App): RegisteredRoute[] {
  return registered.get(app) ?? [];
}

/**
 * Installs the table: records routes, marks guarded routes with the bearer scheme (and the flag) in the
 * OpenAPI document, and applies each route's guard on every request. Call before registering routes.
 */
export function installAccessControl(app: App, ctx: AppContext): void {
  const list: RegisteredRoute[] = [];
  registered.set(app, list);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) list.push({ method: m, url: route.url });
    const rule = accessRuleOf(methods[0] ?? 'GET', route.url);
    if (!rule || !route.schema || rule.guard === 'public') return;
    const schema = route.schema as Record<string, unknown>;
    schema.security = [{ bearer: [] }];
    if (rule.flag) {
      const flags = typeof rule.flag === 'string' ? rule.flag : rule.flag.join(' or ');
      const text = `Requires the ${flags} permission of the contact.`;
      schema.description = schema.description ? `${String(schema.description)}\n\n${text}` : text;
    }
  });
  app.addHook('onRequest', async (req) => {
    const url = req.routeOptions.url;
    if (!url || !/^\/api\//i.test(url)) return;
    const rule = accessRuleOf(req.method, url);
    // Fail closed: a route someone forgot to list is refused rather than left to its handler
    // (access.test.ts names it before it ships).
    if (!rule) {
      req.log.error({ route: `${req.method} ${url}` }, 'API route without an access rule');
      throw forbidden('This route has no access rule', 'no_access_rule');
    }
    if (rule.guard === 'public') return;
    await resolveOnce(req, ctx, rule);
  });
}
