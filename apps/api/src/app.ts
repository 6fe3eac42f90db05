import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants as zlib } from 'node:zlib';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import compress from '@fastify/compress';
import { z } from 'zod';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { isErrorCode, issueCode, uploadErrorCodes, type ErrorCode } from '@sportello/contracts';
import { isDatabaseUnavailable } from './db/client';
import { AppError } from './platform/errors';
import { withRedaction } from './platform/log-redact';
import { DEFAULT_BODY_LIMIT, installRequestGuards, isMultipartSyntaxError } from './platform/request-guards';
import { installLoadShedding } from './platform/load-shedding';
import { installStartupGate } from './platform/lifecycle';
import { installSecurityHeaders, securityHeaders } from './platform/security-headers';
import type { HelmetOptions } from 'helmet';
import type { App, AppContext } from './platform/context';
import { registerRoutes } from './routes';
import { signInLanguage, signInPage, signInPortal } from './modules/portals/sign-in-page';
import {
  customerFramePage,
  customerScreen,
  publicFramePage,
  publicPage,
  type PublicHeading,
  type PublicPage,
} from './modules/portals/customer-frame-page';
import { signingHeading } from './modules/signing/signing.service';
import { bookingHeading } from './modules/appointments/appointments.service';

// Validation as plain code, no `new Function` (as in the browser, where the CSP forbids it): one way to
// run the shared schemas on both sides, and nothing generated from input at run time.
z.config({ jitless: true });

/** What a client is asked to wait while the database is away (a restart takes a few seconds). */
const DATABASE_RETRY_AFTER_SECONDS = 5;

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));
/**
 * The staff desk's pages, `/{portal}/staff` and below, but not its sign-in and invitation pages (which do
 * not open the desk): the SPA's routes (apps/web router.tsx) match case-insensitively, so does this.
 */
const DESK_PAGE = /^\/[^/]+\/staff(?!\/(login|accept)\/?$)(\/.*)?$/i;
/** A ticket of the desk: its page also announces the ticket page's code (`desk-ticket.html`). */
const DESK_TICKET_PAGE = /^\/[^/]+\/staff\/tickets\/\d+\/?$/i;

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /**
   * Called before any route is registered: hooks added here reach every route (the upload routes'
   * scope is made from the app's hooks as they stand, platform/route.ts), as the tests' recorder of
   * undocumented answers must.
   */
  beforeRoutes?: (app: App) => void;
}

/**
 * One access line per request, written when it completes, with the request in it: Fastify's default
 * writes a second line as each request starts, which doubled the logging cost of every request.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(req)) return;
    const line = { req, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const HELMET: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // Mantine sets inline style attributes; stylesheets still come only from us.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'self'"],
      frameAncestors: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  // Signed file URLs are shown in our own iframes.
  frameguard: { action: 'sameorigin' },
  crossOriginEmbedderPolicy: false,
};
const helmetHeaders = securityHeaders(HELMET);

/** The heading a public page's frame draws, from the module that owns the key (null: unknown key). */
async function publicHeading(ctx: AppContext, at: PublicPage): Promise<PublicHeading | null> {
  if (at.screen === 'signing') {
    const h = await signingHeading(ctx, at.company, at.key);
    return h && { screen: 'signing', ...h };
  }
  const h = await bookingHeading(ctx, at.company, at.key);
  return h && { screen: 'booking', ...h };
}

/** Builds the whole HTTP app from its dependencies; server.ts runs it, tests inject into it. */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<App> {
  const tp = ctx.config.TRUST_PROXY;
  const app: App = Fastify({
    // Request log lines never carry link tokens, document keys, signatures or credentials.
    logger: withRedaction(opts.logger ?? false),
    logController: new OneLinePerRequest(),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
    // Each route gets its own limit (request-guards.ts); this is the one for routes it does not name.
    bodyLimit: DEFAULT_BODY_LIMIT,
    // A hop count trusts that many proxies nearest to us, whoever they are (Fastify's own number
    // option trusts none): only for a server that nothing reaches but through them.
    trustProxy: typeof tp === 'number' ? (_addr: string, hop: number) => hop < tp : tp,
    // The router's own refusals (a path segment over maxParamLength, bad percent-encoding) come before
    // any hook: they answer our {code, message} with the headers every answer carries.
    frameworkErrors: (err, _req, r) => {
      const reply = r as unknown as FastifyReply;
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return reply
        .headers(helmetHeaders)
        .header('Cache-Control', 'no-store')
        .code(tooLong ? 414 : 400)
        .send(
          tooLong
            ? { code: 'uri_too_long', message: 'A part of the address is longer than 200 characters' }
            : { code: 'bad_url', message: 'The address is not valid percent-encoding' },
        );
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;

  installRequestGuards(app, ctx.config.MAX_UPLOAD_MB);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((err: FastifyError, req, reply) => {
    // An error replaces the answer its route had begun (a file's name, ETag, an hour of caching):
    // none of that describes it, and an error is never kept by a browser or a proxy.
    for (const h of ['content-disposition', 'etag', 'accept-ranges', 'last-modified']) reply.removeHeader(h);
    if (reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    if (err instanceof AppError) {
      const errors = Array.isArray(err.details) ? { errors: err.details } : {};
      if (
        (err.statusCode === 429 || err.statusCode === 503) &&
        err.details &&
        typeof err.details === 'object' &&
        'retryAfterSeconds' in err.details
      ) {
        reply.header('Retry-After', String((err.details as { retryAfterSeconds: number }).retryAfterSeconds));
      }
      return reply.code(err.statusCode).send({ code: err.code, message: err.message, ...errors });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors = err.validation.map((v) => ({
        path: `${err.validationContext ?? ''}${v.instancePath.replaceAll('/', '.')}`,
        message: v.message ?? 'invalid',
      }));
      const first = errors[0];
      // A rule of a shared schema may name its own code (password_too_short, …): answer it, with its text.
      const named = err.validation.find((v) => issueCode(v.params) !== 'validation_error');
      return reply.code(400).send({
        code: named ? issueCode(named.params) : 'validation_error',
        message: named?.message ?? (first ? `${first.path}: ${first.message}` : 'Invalid request'),
        errors,
      });
    }
    if (isMultipartSyntaxError(err)) {
      return reply
        .code(400)
        .send({ code: uploadErrorCodes.badMultipart, message: 'The multipart body is malformed' });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.code(413).send({ code: 'payload_too_large', message: 'The request or file is too large' });
    }
    if (status >= 400 && status < 500) {
      // The framework's own refusals (FST_ERR_…) answer one of our typed codes: a client maps only those.
      const code: ErrorCode =
        status === 415
          ? 'unsupported_media_type'
          : err.code?.startsWith('FST_ERR_CTP_') || err instanceof SyntaxError
            ? 'invalid_body'
            : isErrorCode(err.code)
              ? err.code
              : 'bad_request';
      return reply.code(status).send({ code, message: err.message });
    }
    if (isDatabaseUnavailable(err)) {
      // The server is restarting or unreachable: nothing was committed, and the client may try again.
      req.log.warn({ err }, 'database unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply
        .code(503)
        .send({ code: 'database_unavailable', message: 'The database does not answer: try again shortly' });
    }
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ code: 'internal_error', message: 'Something went wrong on our side' });
  });

  installSecurityHeaders(app, HELMET);
  installStartupGate(app, ctx);
  // API answers and index.html compressed on the fly; the SPA's assets are compressed at build time and
  // sent as they are (a response that already has a Content-Encoding is left alone). Bodies under 1 KB
  // gain nothing; brotli at quality 4 costs about what gzip does, where its default (11) takes 10x.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
  });
  installLoadShedding(app, ctx);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Sportello API', version: '1.0.0', description: 'The customer portal API.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token from sign-in' },
          apiKey: { type: 'http', scheme: 'bearer', description: "A portal's integration API key" },
          adminKey: { type: 'http', scheme: 'bearer', description: 'The installation PORTAL_ADMIN_KEY' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  opts.beforeRoutes?.(app);
  await registerRoutes(app, ctx);

  const webDist = resolve(ctx.config.WEB_DIST ?? DEFAULT_WEB_DIST);
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Files are looked up per request, so a rebuilt SPA is served without a restart.
      wildcard: true,
      preCompressed: true,
      index: false,
      setHeaders(res, path) {
        if (path.includes(`${join('/', 'assets', '/')}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.header('Cache-Control', 'no-cache');
        }
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (/^\/api(\/|$)/i.test(path)) {
      return reply.code(404).send({ code: 'not_found', message: `No API route ${req.method} ${path}` });
    }
    // A missing asset must 404, not answer index.html with 200 (the browser would run HTML as JS).
    if (
      !hasWeb ||
      (req.method !== 'GET' && req.method !== 'HEAD') ||
      /\.[a-z0-9]{1,8}$/i.test(path) ||
      path.startsWith('/assets/')
    ) {
      return reply.code(404).type('text/plain').send('Not found');
    }
    reply.header('Cache-Control', 'no-cache');
    // A portal's sign-in comes drawn, so a phone shows the form before the app has run.
    const company = req.method === 'GET' ? signInPortal(req.url) : null;
    if (company !== null) {
      const html = await signInPage(ctx, webDist, company, req.headers['accept-language']);
      // Its words follow the browser's languages: a cache must keep one answer per language.
      if (html !== null)
        return reply.type('text/html; charset=utf-8').header('Vary', 'Accept-Language').send(html);
    }
    // A customer screen comes with its frame (the header in the portal's colours, the page's title) and
    // its page's code announced, so a phone paints before the app has run and loads the page beside it.
    const screen = req.method === 'GET' ? customerScreen(req.url) : null;
    if (screen !== null) {
      const html = await customerFramePage(ctx, webDist, screen, req.headers['accept-language']);
      if (html !== null)
        return reply.type('text/html; charset=utf-8').header('Vary', 'Accept-Language').send(html);
    }
    // A document to sign and a booking link likewise, with their heading (the document's or the link's
    // title, what the page's API answer gives anyone holding the address). Never stored by a cache: the
    // page is a capability's, as its API answers are.
    const open = req.method === 'GET' ? publicPage(req.url) : null;
    if (open !== null) {
      const html = await publicFramePage(
        ctx,
        webDist,
        open,
        req.headers['accept-language'],
        await publicHeading(ctx, open).catch(() => null),
      );
      if (html !== null)
        return reply
          .type('text/html; charset=utf-8')
          .header('Vary', 'Accept-Language')
          .header('Cache-Control', 'no-store')
          .send(html);
    }
    // The desk's pages get the page that also announces the desk's code, a ticket's the ticket page's too,
    // and the texts of the language the app will start in (apps/web vite.config.ts): the browser's
    // first the app speaks, else Italian, as on a first visit (nothing of the session: docs/security.md).
    if (!DESK_PAGE.test(path)) return reply.sendFile('index.html');
    const language = signInLanguage(req.headers['accept-language'], undefined);
    const kind = DESK_TICKET_PAGE.test(path) ? 'desk-ticket' : 'desk';
    const page = [`${kind}.${language}.html`, `${kind}.html`, 'desk.html'].find((f) =>
      existsSync(join(webDist, f)),
    );
    return reply.header('Vary', 'Accept-Language').sendFile(page ?? 'index.html');
  });

  return app;
}
