import type { Cache } from '../cache.js';
import { isBusy } from './cache-error.js';

/** Where the lock's error is told apart from a fault (cache-error.ts); here too for the listener's imports. */
export { isBusy };

// Writes that meet another process's write lock wait from a timer, never inside SQLite on the event loop: the
// webhook listener's commits, its kill notifications' marks and the trader alert pass all write this way.

/**
 * How long one write of the listener waits inside SQLite for another connection's write lock. SQLite waits by
 * sleeping in the calling thread, which is the event loop: with the cache's 5 s, a `sync` or a sqlite3 shell
 * holding the lock froze every request. 20 ms rides over a commit of the product's own processes (a few ms each)
 * and keeps any other request's answer within tens of milliseconds; a longer hold is waited out from a timer.
 */
const LISTENER_BUSY_TIMEOUT_MS = 20;
/** The first pause before a write that met the lock is tried again; doubled after each miss, up to the cap. */
const BUSY_RETRY_FIRST_MS = 10;
/** At most this between tries: a released lock is taken within a fifth of a second, at ~10% of the loop's time. */
const BUSY_RETRY_MAX_MS = 200;

/**
 * Runs writes on the cache with the listener's short busy timeout, then puts back the connection's own (the monitor
 * shares its connection with the sync engine, whose waits stay as they were).
 */
export function shortBusyWrites(cache: Pick<Cache, 'withBusyTimeout'>): <T>(write: () => T) => T {
  return (write) => cache.withBusyTimeout(LISTENER_BUSY_TIMEOUT_MS, write);
}

/** The pause after `previous` (none yet: the first). */
export const nextBusyPause = (previous?: number): number =>
  previous === undefined ? BUSY_RETRY_FIRST_MS : Math.min(previous * 2, BUSY_RETRY_MAX_MS);

/**
 * One write that may meet the lock: tried now, then again from a timer with backoff while the lock is held, until
 * `deadline` (epoch ms) would pass; then the busy error is the rejection. Any other error rejects at once.
 */
export function writeWhenFree<T>(run: <R>(write: () => R) => R, write: () => T, deadline: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const attempt = (pause?: number) => {
      try {
        resolve(run(write));
      } catch (error) {
        const next = nextBusyPause(pause);
        if (!isBusy(error) || Date.now() + next >= deadline) reject(error);
        // not unref'd: a process with a write still to make must not end for want of work
        else setTimeout(() => attempt(next), next);
      }
    };
    attempt();
  });
}
