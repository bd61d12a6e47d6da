import { type Cache, dailyPrune, type PruneReport } from '../cache/index.js';
import type { ServiceClock } from '../client/service-clock.js';
import { count, megabytes } from './format-numbers.js';

/** How often a long-running process asks whether the service's day has turned (one write of the cache's mark). */
const LOOK_EVERY_MS = 10 * 60_000;

/**
 * Retention once a day of the service's clock (DESIGN 3 `cache prune`: "also run by `sync` and a live monitor"), for a
 * process that keeps the cache open: looked at first when the service has answered (the clock measured, not the
 * offset the cache last kept, which may be another service's or a restarted one's), then every ten minutes; the cache
 * keeps the day of the last prune, so a `sync` daemon and a live monitor on one cache prune once between them. A
 * process whose service never answers does not prune: the service's day is not known. A line to `log` when it
 * thinned something, and a failure is a line too, never the process's end. Returns the stop, to call before the cache
 * closes (a prune under way finishes its current transaction and stops at the next pause).
 */
export function pruneDaily(
  cache: Cache,
  clock: Pick<ServiceClock, 'nowMs' | 'answered'>,
  detailDays: number | null,
  log: (line: string) => void,
): () => void {
  if (detailDays === null) return () => undefined;
  let stopped = false;
  let running = false;
  let answered = false;
  const look = () => {
    if (stopped || running || !answered) return;
    running = true;
    const pause = () =>
      new Promise<void>((resolve, reject) => setImmediate(() => (stopped ? reject(new Stopped()) : resolve())));
    dailyPrune(cache, clock.nowMs(), detailDays, pause)
      .then((report) => {
        if (report && rowsOf(report) > 0) log(pruneSummary(report, detailDays));
      })
      .catch((error: unknown) => {
        if (!(error instanceof Stopped)) log(`retention: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = false;
      });
  };
  clock.answered().then(() => {
    answered = true;
    look();
  });
  const every = setInterval(look, LOOK_EVERY_MS);
  every.unref();
  return () => {
    stopped = true;
    clearInterval(every);
  };
}

const rowsOf = (report: PruneReport) => Object.values(report.thinned).reduce((a, b) => a + b, 0);

/** One line of what a prune did: `retention: thinned 1,234 rows older than ...; 12.3 MB -> 10.1 MB`. */
export function pruneSummary(report: PruneReport, detailDays: number): string {
  return (
    `retention: thinned ${count(rowsOf(report))} rows older than ${new Date(report.cutoffMs).toISOString()} ` +
    `(detail_days ${detailDays}); ${megabytes(report.bytesBefore)} -> ${megabytes(report.bytesAfter)}`
  );
}

class Stopped extends Error {}
