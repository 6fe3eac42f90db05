/**
 * The desk's answers kept per staff user and portal until tickets or read marks change: the counts
 * (tickets per view, unread per view) and the inbox pages. Every inbox page and every unread poll of
 * every agent read the page and counted the six views again (up to INBOX_COUNT_CAP index entries
 * each), although most polls find nothing changed: at a million tickets that bounded the inbox's
 * answers a second (bench/RESULTS.md, session 6).
 *
 * Fresh by notification, bounded by time: the desk's NOTIFY (migration 0009) fires at the commit of
 * any write to tickets or staff read marks, in every process sharing the database, and clears every
 * entry (migration 0024 adds deleted tickets, group members and memberships); a change made through
 * this process clears them when its answer is sent (staff.routes.ts), before the NOTIFY comes back.
 * What no notification covers (a company or type renamed, a lost listener) shows within
 * DESK_CACHE_TTL_MS. Nothing is kept while the listener is not in place.
 */
import type { Database } from '../../db/client';
import { deskSignalOf, type EventSignal } from '../../platform/event-signal';

export const DESK_CACHE_TTL_MS = 5000;

export class DeskCache {
  /** Moves at every change: a value read before it is never stored after it. */
  private generation = 0;
  private readonly entries = new Map<string, { until: number; value: unknown }>();

  constructor(
    private readonly signal: EventSignal,
    /** Entries at most; past it the cache starts again empty (a page is ~25 KB). */
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    signal.subscribe(() => this.clear());
  }

  /** Forgets every value, and any value being read now (it may predate the change). */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** The value kept under `key`, or `read()`'s answer (kept when nothing changed meanwhile). */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && kept.until > this.now()) return kept.value as T;
    const generation = this.generation;
    const value = await read();
    if (generation === this.generation && this.signal.isListening) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { until: this.now() + DESK_CACHE_TTL_MS, value });
    }
    return value;
  }
}

export interface DeskCaches {
  /** Counts per view and unread counts: a few numbers per staff user and portal. */
  counts: DeskCache;
  /** Inbox pages (views, filters, searches, cursors): ~25 KB each, 2,000 at most (~50 MB). */
  pages: DeskCache;
  /** Clears both (a change made through this process). */
  clear(): void;
}

const caches = new WeakMap<Database, DeskCaches>();

/** The caches of a database in this process. */
export function deskCachesOf(database: Database): DeskCaches {
  let c = caches.get(database);
  if (!c) {
    const signal = deskSignalOf(database);
    const counts = new DeskCache(signal, 10_000);
    const pages = new DeskCache(signal, 2_000);
    c = { counts, pages, clear: () => (counts.clear(), pages.clear()) };
    caches.set(database, c);
  }
  return c;
}
