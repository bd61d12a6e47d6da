import { type Cache, dailyPrune } from '../cache/index.js';

/** How often a long-running process asks whether the service's day has turned (one read of the cache's mark). */
const LOOK_EVERY_MS = 10 * 60_000;

/**
 * Retention once a day of the service's clock (DESIGN 3 `cache prune`: "also run by `sync` and a live monitor"), for a
 * process that keeps the cache open: looked at once soon after the start, then every ten minutes; the cache keeps the
 * day of the last prune, so a `sync` daemon and a live monitor on one cache prune once between them. A line to `log`
 * when it thinned something, and a failure is a line too, never the process's end. Returns the stop, to call before
 * the cache closes (a prune under way finishes its current transaction and stops at the next pause).
 */
export function pruneDaily(
  cache: Cache,
  nowMs: () => number,
  detailDays: number | null | undefined,
  log: (line: string) => void,
): () => void {
  if (detailDays === null) return () => undefined;
  let stopped = false;
  let running = false;
  const look = () => {
    if (stopped || running) return;
    running = true;
    const pause = () =>
      new Promise<void>((resolve, reject) => setImmediate(() => (stopped ? reject(new Stopped()) : resolve())));
    dailyPrune(cache, nowMs(), detailDays, log, pause)
      .catch((error: unknown) => {
        if (!(error instanceof Stopped)) log(`retention: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(look, 1_000);
  const every = setInterval(look, LOOK_EVERY_MS);
  first.unref();
  every.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
  };
}

class Stopped extends Error {}
