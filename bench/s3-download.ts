/**
 * `npm run bench:s3-download`: a 25 MB file downloaded through the API (the signed-link route,
 * FILE_STORE=s3://… on s3rver, proxied by the API) against the same bytes fetched straight from s3rver
 * (a presigned GET, what S3_PRESIGNED_DOWNLOADS hands the browser), alternately, in rounds, and the
 * API process's resident memory sampled from /proc while it serves them.
 *
 *   npm run bench:s3-download -- [--mb 25] [--rounds 15] [--parallel 4]
 *
 * Targets (issue 27): the API's median throughput ≥ 70 % of the direct GET's in the same run, and
 * its memory flat: whole-file buffering would add the file's size per download in flight, so the RSS
 * peak during `--parallel` downloads at once must stay under one file's size above the RSS before them.
 *
 * Processes: s3rver in its own (bench/lib/s3rver-process.ts), the compiled server (bench/lib/server.ts)
 * on the embedded database, and this one as the client (node:http, bytes counted and dropped).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { migrate } from '../apps/api/src/db/migrate';
import { parseS3Url, S3FileStore } from '../apps/api/src/platform/file-store-s3';
import { FileUrlSigner } from '../apps/api/src/platform/files';
import { freePort } from './lib/pg';
import { cpuOf } from './lib/proc-cpu';
import { root, startServer, type RunningServer } from './lib/server';

const { values: opt } = parseArgs({
  options: {
    mb: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '15' },
    parallel: { type: 'string', default: '4' },
  },
});
const SIZE = Math.round(Number(opt.mb) * 1024 * 1024);
const ROUNDS = Number(opt.rounds);
const PARALLEL = Number(opt.parallel);
const SECRET = 'bench-s3-download-secret-0123456789abcdef';
const t0 = performance.now();
const log = (...a: unknown[]) =>
  console.log(`[s3-download ${String(Math.round((performance.now() - t0) / 1000)).padStart(4)} s]`, ...a);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const children = new Set<ChildProcess>();
const abort = (code: number) => {
  for (const c of children) c.kill('SIGKILL');
  process.exit(code);
};
process.once('SIGINT', () => abort(130));
process.once('SIGTERM', () => abort(143));

/** s3rver in a process of its own; answers its endpoint and the variables of a store in it. */
function startS3Process(): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/s3rver-process.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((res, rej) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) res({ child, env: (JSON.parse(line) as { env: Record<string, string> }).env });
    });
    child.once('exit', (c) => rej(new Error(`s3rver exited ${c}`)));
  });
}

/** Resident memory of a process now, from the kernel (no request to the busy server). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
}

/** One GET, the body counted and dropped; answers its time in ms. Throws unless `size` bytes came. */
function download(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((res, rej) => {
    get(url, (r) => {
      let n = 0;
      r.on('data', (c: Buffer) => (n += c.length));
      r.on('end', () => {
        if (r.statusCode !== 200 || n !== SIZE)
          rej(new Error(`${url.slice(0, 80)}: ${r.statusCode}, ${n} of ${SIZE} bytes`));
        else res(performance.now() - started);
      });
      r.on('error', rej);
    }).on('error', rej);
  });
}

/** The file's bytes: random (incompressible), generated in 1 MB pieces rather than held whole. */
function randomFile(): Readable {
  let left = SIZE;
  return new Readable({
    read() {
      const n = Math.min(left, 1024 * 1024);
      left -= n;
      this.push(n > 0 ? randomBytes(n) : null);
    },
  });
}

async function main(): Promise<void> {
  log(`${cpus().length} cores, load ${load()}; file ${mb(SIZE)} MB, ${ROUNDS} rounds, ${PARALLEL} at once`);
  const s3 = await startS3Process();
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-bench-s3dl-'));
  let server: RunningServer | undefined;
  try {
    const env = s3.env;
    const location = parseS3Url(env.FILE_STORE!)!;
    // The store the server opens (same bucket and prefix), presigning here for the direct GET.
    const store = new S3FileStore({
      ...location,
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION!,
      forcePathStyle: true,
      presignSeconds: 3600,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
    });
    const staged = await store.stage(randomFile());
    await store.place(staged.tmp, staged.sha256);
    const name = 'bench-25mb.bin';
    let fileId: number;
    {
      const database = await openDatabase({ dataDir });
      await migrate(database);
      const q = async (text: string) =>
        ((await database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;
      const [portal] = await q(
        `insert into portals (key, name, time_zone, default_language)
           values ('bench', 'Bench', 'Europe/Rome', 'it-IT') returning id`,
      );
      await q(`insert into blobs (sha256, size) values ('${staged.sha256}', ${SIZE})`);
      const [file] = await q(
        `insert into files (portal_id, sha256, name, content_type, size, attached_at)
           values (${String(portal!.id)}, '${staged.sha256}', '${name}', 'application/octet-stream', ${SIZE}, now())
           returning id`,
      );
      fileId = Number(file!.id);
      await database.close();
    }
    server = await startServer(
      { DATA_DIR: dataDir, DATABASE_URL: '', DEMO_DATA: 'false', SECRET, ...env },
      await freePort(),
    );
    children.add(server.child);
    const pid = server.child.pid!;
    const apiUrl = `${server.baseUrl}${new FileUrlSigner(SECRET).sign(fileId, name, new Date())}`;
    const directUrl = (await store.directUrl(staged.sha256, {
      name,
      contentType: 'application/octet-stream',
      disposition: 'attachment',
    }))!;

    // Several at once: buffering would show as the file's size per download in flight.
    const atOnce = (url: string, n: number) => Promise.all(Array.from({ length: n }, () => download(url)));
    // One sample: `n` downloads at once from one side, timed, with the CPU each process spent on them.
    const s3pid = s3.child.pid!;
    const sample = async (which: 'api' | 'direct', n: number) => {
      const cpu0 = [cpuOf(pid), cpuOf(s3pid), process.cpuUsage()] as const;
      const started = performance.now();
      await atOnce(which === 'api' ? apiUrl : directUrl, n);
      const ms = performance.now() - started;
      const c = process.cpuUsage(cpu0[2]);
      return {
        ms,
        api: cpuOf(pid) - cpu0[0],
        s3: cpuOf(s3pid) - cpu0[1],
        client: (c.user + c.system) / 1000,
      };
    };
    type Sample = Awaited<ReturnType<typeof sample>>;

    // Warm-up, both sides, one and several at once: JIT, the SDK's connections, s3rver's file cache,
    // V8's young generation grown to what streaming needs. Then the RSS the downloads start from.
    for (let i = 0; i < 2; i++)
      for (const n of [1, PARALLEL]) for (const w of ['direct', 'api'] as const) await sample(w, n);
    await new Promise((r) => setTimeout(r, 2000));
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);

    const loadStart = load();
    const runs = { api: [] as Sample[], direct: [] as Sample[] };
    const par = { api: [] as Sample[], direct: [] as Sample[] };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternating which goes first, so neither always meets the other's leftovers.
      const order = round % 2 ? (['direct', 'api'] as const) : (['api', 'direct'] as const);
      for (const which of order) runs[which].push(await sample(which, 1));
      const mbps = (x: Sample) => (SIZE / 1024 / 1024 / (x.ms / 1000)).toFixed(0);
      log(
        `round ${round}: direct ${mbps(runs.direct.at(-1)!)} MB/s, API ${mbps(runs.api.at(-1)!)} MB/s, RSS peak ${mb(peak)} MB, load ${load()}`,
      );
    }
    const peakSingle = peak;
    for (let round = 1; round <= 3; round++) {
      const order = round % 2 ? (['direct', 'api'] as const) : (['api', 'direct'] as const);
      for (const which of order) par[which].push(await sample(which, PARALLEL));
    }
    clearInterval(sampler);
    const loadEnd = load();

    const rate = (xs: Sample[], n = 1) => (n * SIZE) / 1024 / 1024 / (median(xs.map((x) => x.ms)) / 1000);
    const api = rate(runs.api);
    const direct = rate(runs.direct);
    const ratio = api / direct;
    const parApi = rate(par.api, PARALLEL);
    const parDirect = rate(par.direct, PARALLEL);
    const growth = peak - before;
    const flat = growth < SIZE;
    // CPU ms per download of each process (medians): where the time of the extra hop goes.
    const cpu = (xs: Sample[]) =>
      (['api', 's3', 'client'] as const).map((k) => median(xs.map((x) => x[k])).toFixed(0)).join(' / ');
    console.log(
      [
        '',
        `Download of a ${mb(SIZE)} MB file, s3rver on loopback, ${ROUNDS} rounds alternating (medians), load ${loadStart} → ${loadEnd}:`,
        '',
        '| | direct s3rver GET (presigned) | through the API (signed link, proxied) | API / direct |',
        '|---|---:|---:|---:|',
        `| one download, MB/s (median ms) | ${direct.toFixed(0)} (${median(runs.direct.map((x) => x.ms)).toFixed(0)}) | ${api.toFixed(0)} (${median(runs.api.map((x) => x.ms)).toFixed(0)}) | **${(ratio * 100).toFixed(0)} %** |`,
        `| ${PARALLEL} at once, MB/s in all | ${parDirect.toFixed(0)} | ${parApi.toFixed(0)} | ${((parApi / parDirect) * 100).toFixed(0)} % |`,
        `| CPU ms per download: API / s3rver / client | ${cpu(runs.direct)} | ${cpu(runs.api)} | |`,
        '',
        `API process RSS: ${mb(before)} MB before, peak ${mb(peakSingle)} MB during single downloads, ` +
          `${mb(peak)} MB with ${PARALLEL} at once (+${mb(growth)} MB; ${PARALLEL} × the file would be +${mb(PARALLEL * SIZE)} MB).`,
        '',
        `throughput ≥ 70 % of direct: ${ratio >= 0.7 ? 'met' : 'NOT met'}; memory flat (peak − before < one file): ${flat ? 'met' : 'NOT met'}`,
      ].join('\n'),
    );
    await store.close();
    if (ratio < 0.7 || !flat) process.exitCode = 1;
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    s3.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
