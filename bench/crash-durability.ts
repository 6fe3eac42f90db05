/**
 * Durability under SIGKILL: streams new ticket comments through the real API, kills the server with
 * SIGKILL in the middle, restarts it on the same data, and checks that every comment the API
 * acknowledged (200) is there. Runs on the embedded database and on a throwaway PostgreSQL (fsync on).
 *
 *   npx tsx bench/crash-durability.ts [--cycles 4] [--only pglite|pg]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startThrowawayPg } from './lib/pg';
import { startServer, type RunningServer } from './lib/server';

const { values } = parseArgs({
  options: { cycles: { type: 'string', default: '4' }, only: { type: 'string' } },
});
const CYCLES = Number(values.cycles);

interface Target {
  token: string;
  company: string;
  contactId: number;
  ticketId: number;
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function target(baseUrl: string): Promise<Target> {
  const { token } = await json<{ token: string }>(
    await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'demo', password: 'Sportello-Demo-2026' }),
    }),
  );
  const auth = { authorization: `Bearer ${token}` };
  const me = await json<{ contacts: { contactId: number; portalSettings: { webPortalKey: string } }[] }>(
    await fetch(`${baseUrl}/api/Users/me`, { headers: auth }),
  );
  const c = me.contacts[0]!;
  const company = c.portalSettings.webPortalKey;
  const tickets = await json<{ id: number }[]>(
    await fetch(`${baseUrl}/api/${company}/${c.contactId}/tickets`, { headers: auth }),
  );
  return { token, company, contactId: c.contactId, ticketId: tickets[0]!.id };
}

/** Writes comments with 8 in flight until `stop()`; returns the acknowledged messages. */
function writeStream(baseUrl: string, t: Target, label: string) {
  const acked: string[] = [];
  let n = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped) {
      const message = `${label}-${n++}`;
      try {
        const res = await fetch(`${baseUrl}/api/${t.company}/${t.contactId}/Comments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            taskId: t.ticketId,
            message: `<p>${message}</p>`,
            commentType: 0,
            ticketEmailReply_Recipient: '',
            ticketEmailReply_CCList: '',
            attachments: [],
          }),
        });
        if (res.ok) acked.push(message);
        else await res.text();
      } catch {
        // The server died mid-request: not acknowledged, so not counted.
      }
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  return {
    acked,
    stop: async () => {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

async function runCycles(name: string, env: Record<string, string>): Promise<string> {
  const port = await freePort();
  let server: RunningServer = await startServer(env, port);
  const t = await target(server.baseUrl);
  let totalAcked = 0;
  let lost = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const stream = writeStream(server.baseUrl, t, `${name}-c${cycle}`);
    await new Promise((r) => setTimeout(r, 1500 + Math.random() * 1500));
    server.child.kill('SIGKILL');
    await server.exited;
    await stream.stop();
    server = await startServer(env, port);
    const detail = await json<{ comments: { message: string }[] }>(
      await fetch(`${server.baseUrl}/api/${t.company}/${t.contactId}/tickets/${t.ticketId}`, {
        headers: { authorization: `Bearer ${t.token}` },
      }),
    );
    const present = new Set(detail.comments.map((c) => c.message.replace(/<[^>]+>/g, '')));
    const missing = stream.acked.filter((m) => !present.has(m));
    totalAcked += stream.acked.length;
    lost += missing.length;
    console.log(
      `${name} cycle ${cycle + 1}: ${stream.acked.length} acknowledged, ${missing.length} missing after restart`,
    );
  }
  server.child.kill('SIGTERM');
  await server.exited;
  return `| ${name} | ${CYCLES} | ${totalAcked} | ${lost} |`;
}

const rows: string[] = [];
if (values.only !== 'pg') {
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-crash-'));
  try {
    rows.push(await runCycles('PGlite', { DATA_DIR: dataDir, DEMO_DATA: 'true', DATABASE_URL: '' }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (values.only !== 'pglite') {
  const pg = await startThrowawayPg({ fsync: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'sportello-crash-'));
  try {
    rows.push(await runCycles('PostgreSQL', { DATA_DIR: dataDir, DEMO_DATA: 'true', DATABASE_URL: pg.url }));
  } finally {
    pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const table = [
  '| database | SIGKILL cycles | acknowledged writes | missing after restart |',
  '|---|---|---|---|',
  ...rows,
].join('\n');
console.log(`\n${table}`);
if (rows.some((r) => !r.endsWith('| 0 |'))) process.exit(1);
