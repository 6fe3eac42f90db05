import type {
  ApiError,
  ErrorCode,
  BodyInputOf,
  ParamsOf,
  QueryOf,
  ResponseOf,
  RouteContract,
  RouteRef,
} from '@sportello/contracts';
import { storage } from './storage';

/** Codes the client makes up: no answer, a cancelled upload, an answer without a JSON code. */
export type ClientErrorCode = 'network_error' | 'aborted' | `http_${number}`;

/** An API answer that is not 2xx, with the server's `{code, message}`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    /** One of the API's error codes (packages/contracts/src/errors.ts), or one the client made up. */
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    readonly body?: ApiError,
  ) {
    super(message);
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
const staffUnauthorizedListeners = new Set<Listener>();
/** The layout subscribes to send the user to the login page when the token is refused. */
export function onUnauthorized(fn: Listener): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}
/** The staff desk's layout subscribes to send the agent to the staff sign-in when their token is refused. */
export function onStaffUnauthorized(fn: Listener): () => void {
  staffUnauthorizedListeners.add(fn);
  return () => staffUnauthorizedListeners.delete(fn);
}

/**
 * Staff routes (`/api/staff/…`) carry the staff session, every other route the contact's: the two
 * tokens live under their own keys, so a browser signed in on both sides never mixes them up.
 */
const isStaffPath = (path: string) => /^\/api\/staff\//i.test(path);
const tokenKey = (path: string) => (isStaffPath(path) ? 'staffToken' : 'token');

/** A refused token is forgotten, and the side it belongs to is told. */
function tokenRefused(path: string): void {
  storage.set(tokenKey(path), null);
  (isStaffPath(path) ? staffUnauthorizedListeners : unauthorizedListeners).forEach((fn) => fn());
}

export type Query = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Calls that must not carry the token (A7: the tags call). */
  anonymous?: boolean;
  /** A file answer (CSV, PDF): sent as `Accept`, and the answer comes back as a Blob. */
  accept?: string;
}

/**
 * The answers the drawn frame of a customer screen asked for before the app's code came
 * (public/sign-in-shell.js): each is the answer of the same GET with the same token, taken once, and only
 * while the entry starts (app/early-data.ts asks then); what it leaves is dropped after that task.
 */
let drawn = (globalThis as { sportelloEarly?: Record<string, { token: string; answer: Promise<Response> }> })
  .sportelloEarly;
setTimeout(() => (drawn = undefined));
const drawnAnswer = (url: string, method: string, token: string | null) => {
  const early = method === 'GET' ? drawn?.[url] : undefined;
  if (!early || early.token !== token) return;
  delete drawn![url];
  return early.answer;
};

/**
 * The one place that adds the bearer token and turns errors into ApiRequestError. A 401 on an
 * authenticated call clears the token and tells the layout.
 */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = opts.anonymous ? null : storage.get(tokenKey(path));
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.accept) headers.Accept = opts.accept;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const url = withQuery(path, opts.query);
  const method = opts.method ?? (body ? 'POST' : 'GET');
  const res = await (drawnAnswer(url, method, token) ??
    fetch(url, { method, headers, body, signal: opts.signal }));
  if (res.status === 204) return undefined as T;
  if (opts.accept && res.ok) return (await res.blob()) as T;
  const text = await res.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!res.ok) {
    const err = (data ?? {}) as Partial<ApiError>;
    if (res.status === 401 && token) tokenRefused(path);
    throw new ApiRequestError(
      res.status,
      (err.code as ErrorCode | undefined) ?? `http_${res.status}`,
      err.message ?? res.statusText,
      data as ApiError,
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Multipart upload with progress (fetch has no upload progress, XMLHttpRequest does). Resolves with
 * the server's JSON answer.
 */
export function upload<T>(
  path: string,
  file: File,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    const token = storage.get(tokenKey(path));
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      const data = safeJson(xhr.responseText) as (T & Partial<ApiError>) | undefined;
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else
        reject(
          new ApiRequestError(
            xhr.status,
            (data?.code as ErrorCode | undefined) ?? `http_${xhr.status}`,
            data?.message ?? xhr.statusText,
          ),
        );
    };
    xhr.onerror = () => reject(new ApiRequestError(0, 'network_error', 'Network error'));
    xhr.onabort = () => reject(new ApiRequestError(0, 'aborted', 'Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

// --- Calls by route contract (packages/contracts/src/route.ts) ---
//
// Each takes the contract's reference (`@sportello/contracts/route-refs`: method, path and guard), typed
// by the whole contract: the schemas stay out of the pages that only call (and zod out of the first load).

type ParamValues = Record<string, string | number>;

/** The URL path of a contract with its `:params` filled in (each encoded as one path segment). */
export function pathOf<R extends RouteContract>(route: RouteRef<R>, params?: ParamsOf<R>): string {
  const values = (params ?? {}) as ParamValues;
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === null || v === '') throw new Error(`${route.path}: missing param ${name}`);
    return encodeURIComponent(String(v));
  });
}

/** What `call` needs for a contract: params when the path has some, the body when it takes one. */
export type CallOptions<R extends RouteContract> = { signal?: AbortSignal } & (R['params'] extends object
  ? { params: ParamsOf<R> }
  : { params?: undefined }) &
  (R['query'] extends object ? { query?: QueryOf<R> } : { query?: undefined }) &
  (R['body'] extends object ? { body: BodyInputOf<R> } : { body?: undefined });

/**
 * Calls a route by its contract: the URL comes from the contract's path, the method from its method,
 * the token is sent unless the route is public (capability links and pre-sign-in calls must not
 * carry it), and the answer is typed by the contract's success schema.
 */
export function call<R extends RouteContract>(
  route: RouteRef<R>,
  opts: CallOptions<R>,
): Promise<ResponseOf<R>> {
  return api<ResponseOf<R>>(pathOf(route, opts.params as ParamsOf<R>), {
    method: route.method,
    query: opts.query as Query | undefined,
    body: opts.body,
    signal: opts.signal,
    anonymous: route.access.guard === 'public',
  });
}

/**
 * Downloads a file answer of a contract that needs the token (a plain link cannot send it): fetched as
 * a Blob, then saved under `fileName` through a temporary object URL.
 */
export async function downloadFrom<R extends RouteContract>(
  route: RouteRef<R>,
  opts: CallOptions<R>,
  fileName: string,
  accept = '*/*',
): Promise<void> {
  const blob = await api<Blob>(pathOf(route, opts.params as ParamsOf<R>), {
    method: route.method,
    query: opts.query as Query | undefined,
    signal: opts.signal,
    accept,
  });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the URL to the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A multipart upload (`bodyKind: 'multipart'`) to a contract, with progress. */
export function uploadTo<R extends RouteContract & { bodyKind: 'multipart' }>(
  route: RouteRef<R>,
  params: ParamsOf<R>,
  file: File,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ResponseOf<R>> {
  return upload<ResponseOf<R>>(pathOf(route, params), file, onProgress, signal);
}
