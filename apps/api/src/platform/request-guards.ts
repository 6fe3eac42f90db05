/**
 * What every request must pass before a route sees it: a body no larger than its route needs, JSON no
 * deeper than any schema of ours, no control characters in URLs or JSON texts, a client that keeps
 * sending, and answers that no cache keeps. One place, so a new route is covered without doing anything.
 */
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { App } from './context';
import { AppError, badRequest } from './errors';
import { installLingeringClose } from './lingering-close';

const KiB = 1024;

/**
 * A login, a booking, a comment without HTML: a few KiB. Anything bigger is refused (413) unread. A
 * route that needs more says so in its contract (`bodyLimit`: the import, new tickets and comments);
 * uploads are multipart, which this limit does not read: MAX_UPLOAD_MB bounds them as they stream.
 */
export const DEFAULT_BODY_LIMIT = 64 * KiB;

/** Deeper than any request schema of the API (the import document nests about ten levels). */
export const MAX_JSON_DEPTH = 64;

/** Seconds a client may stay silent while it still owes part of its request (headers or body). */
export const IDLE_REQUEST_MS = 10_000;
/** All the headers must arrive within this. */
export const HEADERS_TIMEOUT_MS = 15_000;
/**
 * Longer than the idle timeout of the usual load balancers (60 s), so they never reuse a connection we
 * are closing (which they would answer with a 502).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** The whole request (the largest upload included, at 1 Mbit/s) must arrive within this. */
export const requestTimeoutMs = (maxUploadMb: number) => Math.max(60_000, maxUploadMb * 8_000);

export const guardErrorCodes = {
  jsonTooDeep: 'json_too_deep',
  controlCharacter: 'control_character',
} as const;

const controlCharacter = (where: string) =>
  badRequest(
    `${where} contains a control character (such as NUL), which no field accepts`,
    guardErrorCodes.controlCharacter,
  );

/** An escaped control character (`\u0000`–`\u001F` but tab, LF, CR; `\b`, `\f`), if its `\` is not escaped. */
const CONTROL_ESCAPE = /\\(?:u00(?:0[0-8bcef]|1[0-9a-f])|[bf])/gi;
const STRUCTURE = /[[\]{}"]/g;

function backslashesBefore(text: string, at: number): number {
  let n = 0;
  while (text.charCodeAt(at - 1 - n) === 0x5c) n++;
  return n;
}

/**
 * Checks a JSON text before it is parsed: refuses nesting deeper than `maxDepth`, and escaped control
 * characters (raw ones are invalid JSON already). Strings are skipped with indexOf and the rest found
 * by regular expressions: a 74 MB import document takes 0.35 s here against 0.9 s in JSON.parse (a
 * character-by-character loop took 2.9 s). Invalid JSON is left to the parser.
 */
export function checkJsonText(text: string, maxDepth = MAX_JSON_DEPTH): AppError | undefined {
  const controls = new RegExp(CONTROL_ESCAPE);
  for (let m = controls.exec(text); m !== null; m = controls.exec(text)) {
    if (backslashesBefore(text, m.index) % 2 === 0) return controlCharacter('The JSON body');
  }
  let depth = 0;
  const structure = new RegExp(STRUCTURE);
  for (let m = structure.exec(text); m !== null; m = structure.exec(text)) {
    const c = text.charCodeAt(m.index);
    if (c === 0x22) {
      let end = m.index;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return undefined;
        if (backslashesBefore(text, end) % 2 === 0) break;
      }
      structure.lastIndex = end + 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth)
        return badRequest(`The JSON body nests deeper than ${maxDepth} levels`, guardErrorCodes.jsonTooDeep);
    } else depth--;
  }
  return undefined;
}

/**
 * The multipart parser (busboy) throws plain errors for a body that is not multipart: no boundary, a
 * body that ends before its closing boundary. They are the client's mistake, so 400, not 500.
 */
const MULTIPART_SYNTAX =
  /^(Multipart: Boundary not found|Boundary required|Unsupported Content-Type\.)$|unexpected end of multipart data$/i;
export const isMultipartSyntaxError = (err: { message?: string; statusCode?: number }) =>
  err.statusCode === undefined && MULTIPART_SYNTAX.test(err.message ?? '');

/** A control character in the path or query, raw or percent-encoded (`%00`–`%1F`, `%7F`). */
// eslint-disable-next-line no-control-regex
const URL_CONTROL = /%(?:[01][0-9a-f]|7f)|[\u0000-\u001f\u007f]/i;

/** Every answer of the API is personal or a capability's unless its route says otherwise. */
const isApi = (url: string) => url.slice(0, 5).toLowerCase() === '/api/';

export function installRequestGuards(app: App, maxUploadMb: number): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const problem = checkJsonText(body as string);
    if (problem) return done(problem, undefined);
    return parseJson(req, body as string, done);
  });

  // Requests whose answer is still owed, by socket: the idle timeout spares those fully received
  // (the handler is at work), and cuts those the client is still sending, or never finished.
  const inFlight = new WeakMap<Socket, IncomingMessage>();
  // Callback hooks, not async ones: they run on every request and need no promise.
  app.addHook('onRequest', (req: FastifyRequest, _reply, done) => {
    inFlight.set(req.raw.socket, req.raw);
    done(URL_CONTROL.test(req.url) ? controlCharacter('The address') : undefined);
  });
  app.addHook('onResponse', (req, _reply, done) => {
    inFlight.delete(req.raw.socket);
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    if (isApi(req.url) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    done(null, payload);
  });

  const server = app.server;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = requestTimeoutMs(maxUploadMb);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.setTimeout(IDLE_REQUEST_MS);
  server.on('timeout', (socket: Socket) => {
    if (inFlight.get(socket)?.complete) return;
    socket.destroy();
  });
  // An answer given before the body was read closes in stages, so the client reads it (a 413).
  installLingeringClose(server);
}
