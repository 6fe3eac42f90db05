/**
 * Wakes whoever waits for new events (long-polling feed readers, the webhook worker) when a
 * transaction that wrote events commits: the `events_notify` statement trigger of migration 0004
 * NOTIFYs `sportello_events`, and one LISTEN per database (PostgreSQL: its own connection, outside the
 * pool) resolves the waiters of this process. Waiters never hold a pool connection, and always wake
 * after their own timeout too, so a lost notification costs at most one poll interval.
 *
 * A lost LISTEN connection (PostgreSQL restarted) is made again with back-off (db/client.ts). Whatever
 * was notified meanwhile is lost, so both edges of the gap count as a notification ("anything may
 * have changed"): subscribers clear their caches and waiters look again, and while the gap lasts
 * `isListening` is false, so caches keep nothing.
 */
import type { Database } from '../db/client';

export const EVENTS_CHANNEL = 'sportello_events';
/** The staff desk's channel (migration 0009): tickets or staff read marks changed. */
export const DESK_CHANNEL = 'sportello_desk';

export class EventSignal {
  private waiters = new Set<() => void>();
  private subscribers = new Set<() => void>();
  private listening: Promise<void> | undefined;
  private stop: (() => Promise<void>) | undefined;
  private connected = false;
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly channel: string = EVENTS_CHANNEL,
  ) {}

  /** Starts listening (once); a failure leaves waiters to their timeouts. */
  private ensureListening(): Promise<void> {
    this.listening ??= this.database
      .listen(
        this.channel,
        () => this.notify(),
        (listening) => {
          this.connected = listening;
          this.notify();
        },
      )
      .then((stop) => {
        if (this.closed) return stop();
        this.stop = stop;
      })
      .catch(() => {});
    return this.listening;
  }

  /** Whether notifications arrive (the LISTEN is in place): until then a subscriber hears nothing. */
  get isListening(): boolean {
    return this.connected && !this.closed;
  }

  /**
   * Calls `fn` at every notification until the returned function is called, and starts listening.
   * Subscribers run before any waiter resumes, so a cache they clear is clear for the waiters.
   */
  subscribe(fn: () => void): () => void {
    this.subscribers.add(fn);
    void this.ensureListening();
    return () => this.subscribers.delete(fn);
  }

  /** Resolves every current waiter (also called in-process, e.g. by tests). */
  notify(): void {
    for (const fn of this.subscribers) fn();
    const list = [...this.waiters];
    this.waiters.clear();
    for (const w of list) w();
  }

  /** Resolves on the next notification or after `ms`, whichever comes first. */
  async wait(ms: number): Promise<void> {
    await this.ensureListening();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.notify();
    await this.stop?.();
  }
}

const signals = new WeakMap<Database, EventSignal>();

/** The one signal of a database in this process. */
export function eventSignalOf(database: Database): EventSignal {
  let s = signals.get(database);
  if (!s) {
    s = new EventSignal(database);
    signals.set(database, s);
  }
  return s;
}

const deskSignals = new WeakMap<Database, EventSignal>();

/** The one desk signal of a database in this process (the staff desk's unread long-poll waits on it). */
export function deskSignalOf(database: Database): EventSignal {
  let s = deskSignals.get(database);
  if (!s) {
    s = new EventSignal(database, DESK_CHANNEL);
    deskSignals.set(database, s);
  }
  return s;
}
