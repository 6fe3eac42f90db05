/**
 * A small back-office consumer of the Sportello integration API (docs/integration.md): it mirrors the
 * portal's tickets and their conversations into a local JSON file, from webhooks (verified with the
 * `standardwebhooks` library) or from the pull feed. Plain Node + TypeScript, no framework:
 *
 *   # webhooks: listen on PORT; register http://<this host>:PORT/ as an endpoint, pass its secret
 *   WEBHOOK_SECRET=whsec_… PORT=4000 MIRROR_FILE=mirror.json npx tsx examples/integration-consumer/consumer.ts webhook
 *
 *   # pull feed: long-polls GET /api/integration/v1/events with a key holding `events`
 *   PORTAL_URL=http://127.0.0.1:3000 API_KEY=spk_… MIRROR_FILE=mirror.json npx tsx examples/integration-consumer/consumer.ts feed
 *
 * Both paths apply events through `applyEvent`, idempotently (an event id is applied once), so the
 * at-least-once delivery of both channels is harmless.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface PortalEvent {
  id: string;
  type: string;
  timestamp: string;
  portal: string;
  source: { type: string; apiKeyId?: number };
  data: Record<string, unknown>;
}

interface MirroredComment {
  id: number;
  message: string;
  creationDate: string;
  senderContactId: number | null;
  senderAgentId: number | null;
}

export interface Mirror {
  /** The feed cursor to resume from. */
  cursor: string | null;
  /** Ids of the latest events applied (deduplication across retries and replays). */
  applied: string[];
  tickets: Record<string, Record<string, unknown> & { comments: MirroredComment[] }>;
}

const KEEP_APPLIED = 10_000;

export function loadMirror(path: string): Mirror {
  if (!existsSync(path)) return { cursor: null, applied: [], tickets: {} };
  return JSON.parse(readFileSync(path, 'utf8')) as Mirror;
}

/** Written through a temporary file: a crash never leaves half a mirror. */
export function saveMirror(path: string, mirror: Mirror): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(mirror, null, 2));
  renameSync(`${path}.tmp`, path);
}

/**
 * Applies one event to the mirror; answers false when it was applied before. `ownKeyId`: events caused
 * by this back office's own key are skipped (it already knows its own changes).
 */
export function applyEvent(mirror: Mirror, ev: PortalEvent, ownKeyId?: number): boolean {
  if (mirror.applied.includes(ev.id)) return false;
  mirror.applied.push(ev.id);
  if (mirror.applied.length > KEEP_APPLIED) mirror.applied.splice(0, mirror.applied.length - KEEP_APPLIED);
  if (ev.source.type === 'api_key' && ownKeyId !== undefined && ev.source.apiKeyId === ownKeyId) return true;
  const ticket = ev.data.ticket as (Record<string, unknown> & { id: number }) | undefined;
  if (ticket) {
    const prior = mirror.tickets[String(ticket.id)];
    mirror.tickets[String(ticket.id)] = { ...prior, ...ticket, comments: prior?.comments ?? [] };
  }
  const comment = ev.data.comment as (MirroredComment & { ticketId: number }) | undefined;
  if (comment && ticket) {
    const list = mirror.tickets[String(ticket.id)]!.comments;
    if (!list.some((c) => c.id === comment.id))
      list.push({
        id: comment.id,
        message: comment.message,
        creationDate: comment.creationDate,
        senderContactId: comment.senderContactId,
        senderAgentId: comment.senderAgentId,
      });
  }
  return true;
}

/**
 * A webhook receiver: verifies each request with standardwebhooks on the RAW body (a re-serialised
 * body would not verify), answers 400 to anything unsigned, and applies the event.
 */
export function webhookReceiver(opts: { secret: string; mirrorFile: string; ownKeyId?: number }): Server {
  const wh = new Webhook(opts.secret);
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let ev: PortalEvent;
      try {
        ev = wh.verify(
          Buffer.concat(chunks).toString('utf8'),
          req.headers as Record<string, string>,
        ) as PortalEvent;
      } catch {
        res.writeHead(400).end('invalid signature');
        return;
      }
      const mirror = loadMirror(opts.mirrorFile);
      if (applyEvent(mirror, ev, opts.ownKeyId)) saveMirror(opts.mirrorFile, mirror);
      res.writeHead(204).end();
    });
  });
}

/** Reads the feed from the stored cursor until `stop()` says so; answers how many events were applied. */
export async function followFeed(opts: {
  portalUrl: string;
  apiKey: string;
  mirrorFile: string;
  ownKeyId?: number;
  waitSeconds?: number;
  stop?: () => boolean;
}): Promise<number> {
  let applied = 0;
  do {
    const mirror = loadMirror(opts.mirrorFile);
    const url = new URL('/api/integration/v1/events', opts.portalUrl);
    if (mirror.cursor) url.searchParams.set('after', mirror.cursor);
    url.searchParams.set('limit', '500');
    url.searchParams.set('wait', String(opts.waitSeconds ?? 30));
    const res = await fetch(url, { headers: { authorization: `Bearer ${opts.apiKey}` } });
    if (!res.ok) throw new Error(`feed answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { events: PortalEvent[]; next: string };
    for (const ev of page.events) if (applyEvent(mirror, ev, opts.ownKeyId)) applied++;
    // The cursor moves only after the page is applied and saved: a crash re-reads it (at least once).
    mirror.cursor = page.next;
    saveMirror(opts.mirrorFile, mirror);
  } while (!opts.stop?.());
  return applied;
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  const mirrorFile = process.env.MIRROR_FILE ?? 'mirror.json';
  const ownKeyId = process.env.OWN_KEY_ID ? Number(process.env.OWN_KEY_ID) : undefined;
  if (mode === 'webhook') {
    const secret = process.env.WEBHOOK_SECRET;
    if (!secret) throw new Error('set WEBHOOK_SECRET (the whsec_… of the endpoint)');
    const port = Number(process.env.PORT ?? 4000);
    webhookReceiver({ secret, mirrorFile, ownKeyId }).listen(port, () =>
      console.log(`receiving webhooks on :${port}, mirroring into ${mirrorFile}`),
    );
  } else if (mode === 'feed') {
    const apiKey = process.env.API_KEY;
    if (!apiKey) throw new Error('set API_KEY (a portal key with the events scope)');
    const portalUrl = process.env.PORTAL_URL ?? 'http://127.0.0.1:3000';
    console.log(`following ${portalUrl}, mirroring into ${mirrorFile}`);
    await followFeed({ portalUrl, apiKey, mirrorFile, ownKeyId });
  } else {
    console.error('usage: consumer.ts webhook|feed (see the comment at the top of the file)');
    process.exit(2);
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
