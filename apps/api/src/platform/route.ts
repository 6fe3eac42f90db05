/**
 * Registers a route contract (packages/contracts/src/route.ts) on the app: its schemas validate the
 * request and serialise the answer, its access rule runs in the access hook (platform/access.ts)
 * before validation, and the handler receives the typed request plus what the guard resolved:
 *
 *   route(app, ctx, ticketRoutes.detail, async (req, _reply, tenant) =>
 *     ticketDetail(ctx, tenant, req.params.ticketid));
 *
 * The reply's status is preset to the contract's lowest 2xx (201 for a create); a handler returning
 * nothing answers it without a body (204). The handler may still take over the reply (headers,
 * streams, another status it declares).
 */
import {
  errorSchema,
  errorStatusesOf,
  guardSecurity,
  isBinaryAnswer,
  pathParamNames,
  routeKey,
  statusesOf,
  successStatusOf,
  type BodyOf,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type RouteContract,
} from '@sportello/contracts';
import multipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contractOf,
  resolvedAccess,
  resolverOf,
  type ContractRouteConfig,
  type GuardResultOf,
} from './access';
import type { App, AppContext } from './context';

export type ContractRequest<R extends RouteContract> = Omit<FastifyRequest, 'params' | 'query' | 'body'> & {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
};

export type ContractHandler<R extends RouteContract> = (
  req: ContractRequest<R>,
  reply: FastifyReply,
  access: GuardResultOf<R['access']>,
) => Promise<ResponseOf<R> | FastifyReply | void>;

/** The objects of the shape keys of a zod object schema (for the params check). */
const shapeKeys = (s: z.ZodType | undefined): string[] =>
  s instanceof z.ZodObject ? Object.keys(s.shape as Record<string, unknown>) : [];

/** The Fastify response schemas: the declared answers plus the common errors, all as zod. */
function responseSchemas(contract: RouteContract): Record<number, z.ZodType> {
  const out: Record<number, z.ZodType> = {};
  for (const status of errorStatusesOf(contract)) out[status] = errorSchema;
  for (const [status, schema] of Object.entries(contract.responses)) {
    // Bytes are streamed as they are: no serialiser.
    if (isBinaryAnswer(schema)) delete out[Number(status)];
    else out[Number(status)] = schema ?? z.null();
  }
  return out;
}

/** The OpenAPI security and the permission sentence derived from the access rule. */
function describeAccess(contract: RouteContract): {
  description?: string;
  security?: Record<string, string[]>[];
} {
  const scheme = guardSecurity[contract.access.guard];
  const flag = 'flag' in contract.access ? contract.access.flag : undefined;
  const needs = flag
    ? `Requires the ${typeof flag === 'string' ? flag : flag.join(' or ')} permission of the contact.`
    : undefined;
  const description = [contract.description, needs].filter(Boolean).join('\n\n');
  return {
    ...(description ? { description } : {}),
    ...(scheme ? { security: [{ [scheme]: [] }] } : {}),
  };
}

export function route<R extends RouteContract>(
  app: App,
  ctx: AppContext,
  contract: R,
  handler: ContractHandler<R>,
  /** `validateBody: false`: the service validates the body itself (the import reports every problem). */
  options: { validateBody?: false } = {},
): void {
  // Mistakes in a contract stop the app at start, not at the first request.
  resolverOf(contract.access.guard);
  const names = pathParamNames(contract.path).sort();
  const declared = shapeKeys(contract.params).sort();
  if (names.join() !== declared.join())
    throw new Error(`${routeKey(contract)}: params schema has [${declared}], path has [${names}]`);

  const status = successStatusOf(contract);
  const config: ContractRouteConfig = { contract };
  const add = (target: App) =>
    target.route({
      method: contract.method,
      url: contract.path,
      config,
      ...(contract.bodyLimit ? { bodyLimit: contract.bodyLimit } : {}),
      ...(options.validateBody === false
        ? {
            validatorCompiler: ((req: FastifyRouteSchemaDef<z.ZodType>) =>
              req.httpPart === 'body'
                ? (data: unknown) => ({ value: data })
                : validatorCompiler(req)) as never,
          }
        : {}),
      schema: {
        tags: [...contract.tags],
        summary: contract.summary,
        ...describeAccess(contract),
        ...(contract.hide ? { hide: true } : {}),
        ...(contract.params ? { params: contract.params } : {}),
        ...(contract.query ? { querystring: contract.query } : {}),
        ...(contract.body && contract.bodyKind !== 'multipart' ? { body: contract.body } : {}),
        ...(contract.bodyKind === 'multipart' ? { consumes: ['multipart/form-data'] } : {}),
        response: responseSchemas(contract),
      },
      handler: async (req, reply) => {
        const access =
          contract.access.guard === 'public' ? null : await resolvedAccess(req, ctx, contract.access);
        reply.code(status);
        const result = await handler(
          req as unknown as ContractRequest<R>,
          reply,
          access as GuardResultOf<R['access']>,
        );
        // A handler that returns its reply (a streamed file) is awaited through the reply's own `then`,
        // which settles when the answer ends: undefined, and not `sent` when the client went away
        // mid-stream. Its headers are out then, and a second send would fail on them.
        if (result === undefined && !reply.sent && !reply.raw.headersSent) return reply.send();
        return result;
      },
    });
  if (contract.bodyKind !== 'multipart') return void add(app);
  const pending = pendingUploads.get(app);
  if (!pending)
    throw new Error(
      `${routeKey(contract)}: upload routes go between collectUploadRoutes and registerUploadRoutes`,
    );
  pending.push(add);
}

/**
 * The upload routes (multipart bodies) wait here, to be registered last, in a scope of their own
 * with the multipart parser: @fastify/multipart gives every request of the scope it is registered in
 * two async hooks and a 'close' listener (to clean temporary files, which our uploads never make:
 * they stream, platform/uploads.ts): a sixth of the CPU of a small answer when it was the app's
 * (bench/RESULTS.md, session 10). Made after every other hook of the app, the scope gives its routes
 * all of them (access rule, headers, guards): a hook added to the app later would not reach them.
 */
const pendingUploads = new WeakMap<App, ((scope: App) => void)[]>();

/** From here, route() keeps upload routes for registerUploadRoutes. */
export function collectUploadRoutes(app: App): void {
  pendingUploads.set(app, []);
}

/** Registers the upload routes kept since collectUploadRoutes, with the multipart parser and `hooks`. */
export async function registerUploadRoutes(
  app: App,
  options: FastifyMultipartOptions,
  hooks: (scope: App) => void = () => {},
): Promise<void> {
  const routes = pendingUploads.get(app) ?? [];
  pendingUploads.delete(app);
  await app.register(async (scope: App) => {
    hooks(scope);
    await scope.register(multipart, options);
    for (const add of routes) add(scope);
  });
}

const documented = new WeakMap<RouteContract, Set<number>>();
const statusSet = (c: RouteContract) => {
  let s = documented.get(c);
  if (!s) documented.set(c, (s = new Set(statusesOf(c))));
  return s;
};

/**
 * Records every answer a contract route gives with a status its contract does not document (the
 * test harness installs it on every test app and fails a test file that produced one). Answers the
 * list, `GET /api/x → 418` each.
 */
export function recordUndocumentedAnswers(app: App): string[] {
  const seen: string[] = [];
  app.addHook('onResponse', async (req, reply) => {
    const c = contractOf(req);
    if (!c || statusSet(c).has(reply.statusCode)) return;
    const entry = `${routeKey(c)} → ${reply.statusCode}`;
    if (!seen.includes(entry)) seen.push(entry);
  });
  return seen;
}
