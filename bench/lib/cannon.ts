import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { root } from './server';

/** One JSON call to the server (a body in `json` makes it a POST); throws on a non-2xx answer. */
export async function call<T>(url: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  const res = await fetch(url, {
    ...init,
    ...(init?.json !== undefined
      ? {
          method: 'POST',
          body: JSON.stringify(init.json),
          headers: { 'content-type': 'application/json', ...init.headers },
        }
      : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export interface Cannon {
  /** Answers per second, whatever their status. */
  rps: number;
  /** 2xx answers per second (a 503 shed at once is an answer, not served work). */
  okRps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number;
  /** Answers other than 2xx alone (a run against a 404 route expects them). */
  non2xx: number;
  /** Of `errors`: 503 answers (the embedded database shedding load, with Retry-After). */
  shed: number;
  /** Of `errors`: requests unanswered after autocannon's 10 s. */
  timeouts: number;
}

/**
 * autocannon's CLI in its own process (client and server then do not share one event loop).
 * `onChild` sees the process, so a runner interrupted mid-run can kill it. Several URLs: the
 * connections are dealt among them in turn (autocannon's own round robin; bench/two-process.ts).
 */
export function autocannon(
  url: string | string[],
  seconds: number,
  opts: {
    token?: string | undefined;
    connections: number;
    onChild?: (c: ChildProcess) => void;
    /** A JSON body to POST with every request (the write load of bench/integration.ts). */
    json?: unknown;
    /** Requests per second over all connections (autocannon's -R): a fixed load, not the most it takes. */
    rate?: number;
  },
): Promise<Cannon> {
  const args = ['-c', String(opts.connections), '-d', String(seconds), '--json'];
  if (opts.token) args.push('-H', `authorization=Bearer ${opts.token}`);
  if (opts.rate) args.push('-R', String(opts.rate));
  if (opts.json !== undefined)
    args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', JSON.stringify(opts.json));
  args.push(...(Array.isArray(url) ? url : [url]));
  return new Promise((res, rej) => {
    const child = spawn(join(root, 'node_modules/.bin/autocannon'), args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    opts.onChild?.(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', () => {});
    child.on('exit', (code) => {
      try {
        const j = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
          requests: { average: number; total: number };
          duration: number;
          '2xx': number;
          latency: { p50: number; p99: number };
          errors: number;
          timeouts: number;
          non2xx: number;
          statusCodeStats?: Record<string, { count: number }>;
        };
        res({
          rps: Math.round(j.requests.average),
          okRps: Math.round(j['2xx'] / Math.max(j.duration, 0.001)),
          p50: j.latency.p50,
          p99: j.latency.p99,
          requests: j.requests.total,
          // autocannon's own `errors` already counts each timeout.
          errors: j.errors + j.non2xx,
          non2xx: j.non2xx,
          shed: j.statusCodeStats?.['503']?.count ?? 0,
          timeouts: j.timeouts,
        });
      } catch (e) {
        rej(new Error(`autocannon exited ${code}: ${out.slice(0, 300)} ${String(e)}`));
      }
    });
  });
}
