/**
 * The overload client (its own process, so it does not share the server's event loop): autocannon's
 * connections hammering one URL, a new request as soon as the previous one is answered (a 503 is not
 * waited out: the worst client). Unlike autocannon's own summary, latencies are kept per answer, so the
 * p99 of the answered requests (2xx) is not mixed with the fast refusals; a 503 counts as shed only with
 * a Retry-After header. Prints one JSON line.
 *
 *   tsx bench/lib/overload-client.ts <url> <token|-> <connections> <seconds>
 */
import { createRequire } from 'node:module';

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface Client {
  on(event: 'headers', f: (h: { statusCode: number; headers: string[] }) => void): void;
}
interface Result {
  duration: number;
  timeouts: number;
  errors: number;
}
interface Instance {
  on(event: 'response', f: (client: Client, status: number, bytes: number, ms: number) => void): Instance;
  on(event: 'done', f: (r: Result) => void): Instance;
  on(event: 'error', f: (e: Error) => void): Instance;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
  setupClient: (client: Client) => void;
}) => Instance;

const [url, token, connArg, secArg] = process.argv.slice(2) as [string, string, string, string];

const ok: number[] = [];
const refused: number[] = [];
const other: Record<string, number> = {};
let withRetryAfter = 0;

const instance = autocannon({
  url,
  connections: Number(connArg),
  duration: Number(secArg),
  timeout: 10,
  headers: token === '-' ? {} : { authorization: `Bearer ${token}` },
  setupClient(client) {
    // Headers come before the response event of the same answer.
    client.on('headers', (h) => {
      if (h.statusCode !== 503) return;
      for (let i = 0; i < h.headers.length; i += 2)
        if (String(h.headers[i]).toLowerCase() === 'retry-after') withRetryAfter++;
    });
  },
});
instance.on('response', (_client, status, _bytes, ms) => {
  if (status >= 200 && status < 300) ok.push(ms);
  else if (status === 503) refused.push(ms);
  else other[status] = (other[status] ?? 0) + 1;
});
const result = await new Promise<Result>((res, rej) => instance.on('done', res).on('error', rej));

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * p))]!);
};
const seconds = result.duration;
console.log(
  JSON.stringify({
    seconds,
    ok: ok.length,
    okPerSecond: Math.round(ok.length / seconds),
    okP50: pct(ok, 0.5),
    okP99: pct(ok, 0.99),
    okMax: pct(ok, 1),
    refused: refused.length,
    refusedWithRetryAfter: withRetryAfter,
    refusedP99: pct(refused, 0.99),
    other,
    timeouts: result.timeouts,
    errors: result.errors,
  }),
);
