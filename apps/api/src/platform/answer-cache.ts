/**
 * Serialised answers kept per key and reused while a version read from the database is unchanged.
 *
 * The version is the caller's to read, in the request's first statement and BEFORE the statement that
 * produces the answer: under read committed a write committed in between makes the answer newer than
 * its version, never older, so the worst case is one extra miss. Every process keeps its own cache and
 * every request still asks the database for the version, so processes behind a load balancer agree.
 *
 * Least recently used entries leave first once the bytes exceed the budget; an entry also expires after
 * `ttlMs` because answers embed signed file links that expire (files.ts signs for at least five hours).
 */
import type { FastifyReply } from 'fastify';

/**
 * Sends JSON the service has already serialised (and checked against the route's response schema):
 * Fastify sends a string with a JSON content type as it is, without serialising it again.
 */
export function sendJsonText(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

export interface AnswerCacheOptions {
  maxBytes: number;
  ttlMs: number;
}

interface Entry {
  version: number;
  body: string;
  storedAt: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly opts: AnswerCacheOptions) {}

  get enabled(): boolean {
    return this.opts.maxBytes > 0;
  }

  /** The answer stored under `key` for exactly `version`, still fresh at `now`. */
  get(key: string, version: number, now: number): string | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.version !== version || now - e.storedAt >= this.opts.ttlMs || now < e.storedAt) {
      if (e.version <= version) this.delete(key, e);
      return undefined;
    }
    // Map order is insertion order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  set(key: string, version: number, body: string, now: number): void {
    if (!this.enabled || body.length > this.opts.maxBytes / 4) return;
    const old = this.entries.get(key);
    // A slower request that read an older version must not replace a newer answer.
    if (old && old.version > version) return;
    if (old) this.delete(key, old);
    this.entries.set(key, { version, body, storedAt: now });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.delete(k, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}
