import type { Cache } from '../cache.js';
import { THINNED_TABLES } from './thinned-tables.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** What a prune did: the rows thinned a table, the file's size before and after, and how its work was cut. */
export interface PruneReport {
  /** Rows older than this (the service's clock minus `detail_days`) were thinned. */
  cutoffMs: number;
  /** Rows deleted, by table (every thinned table named, 0 included). */
  thinned: Record<string, number>;
  /** The file and its WAL, in bytes (0 in memory). */
  bytesBefore: number;
  bytesAfter: number;
  /** The cache was not yet `auto_vacuum = INCREMENTAL` and was converted by a VACUUM first. */
  converted: boolean;
  /**
   * Transactions the thinning took, and the longest of them or of the steps giving pages back (ms): what a writer
   * beside it waited at most.
   */
  transactions: number;
  longestTransactionMs: number;
  /** The most rows one transaction of thinning deleted (its cap, plus the rest of the hour it reached). */
  mostDeletedInATransaction: number;
  /** The WAL was truncated at the end; false when a reader held it (a later checkpoint truncates it). */
  walTruncated: boolean;
}

export interface PruneOptions {
  /** The service's clock (DESIGN 4 "the monitor's clock"). */
  nowMs: number;
  /** `retention.detail_days`: days kept whole. */
  detailDays: number;
  /**
   * `all` reads every row older than the cutoff (`cache prune`); `since-last` starts a little before where the last
   * prune stopped (the daily prune: a day's rows, not a year's). Default `all`.
   */
  scope?: 'all' | 'since-last';
  /** Convert a cache that is not yet incremental (a whole-file VACUUM). Default true. */
  convert?: boolean;
  /** Awaited between transactions, so the process's event loop runs (default: the next turn of the loop). */
  pause?: () => Promise<void>;
  /**
   * Rows a transaction of thinning deletes at most (it stops at the last whole hour before this many): when given, kept
   * as it is; by default it starts at DELETES_FIRST and follows how long the transactions take.
   */
  deletesPerTransaction?: number;
}

/** A transaction of thinning aims at this long: a sync or listener beside it waits no more (DESIGN 4: 50 ms). */
const TARGET_TRANSACTION_MS = 25;
/**
 * The rows a transaction deletes at most, first and at its bounds: deleting a row, writing again the rows its hour keeps
 * and the triggers' probes are a transaction's cost, so capping them bounds every transaction before it runs (a
 * window over rows already thinned may read many rows, and deletes none). An hour's own rows are never split.
 */
const DELETES_FIRST = 500;
const MIN_DELETES = 50;
const MAX_DELETES = 4_000;
/** The rows a transaction reads, first and at its bounds; a window is never shorter than an hour (a series' hour). */
const FIRST_WINDOW_ROWS = 1_000;
const MIN_WINDOW_ROWS = 200;
const MAX_WINDOW_ROWS = 50_000;
const MIN_WINDOW_MS = HOUR;
/** The daily prune reads again this much before where the last one stopped: a late report, a backfill of the days. */
const SINCE_LAST_REACH_MS = 2 * DAY;
/** Free pages given back in the first step (1 MiB of 4 KiB pages); the next ones sized by how long it took. */
const PAGES_A_STEP = 256;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Retention (DESIGN 4 "retention"): every row older than `detailDays` days of the service's clock is thinned to the
 * hour (thinned-tables.ts says what, retention.ts how), in transactions of about 25 ms with the event loop let run
 * between them; then the free pages go back to the file system (incremental vacuum, in steps) and the WAL is truncated
 * so it does not stay at its 64 MiB high-water mark. Idempotent: a second prune of the same instant deletes nothing.
 * The year-long benchmark and `cache prune` call this; `dailyPrune` calls it once a day of the service's clock.
 */
export async function pruneCache(cache: Cache, options: PruneOptions): Promise<PruneReport> {
  const { retention } = cache;
  const pause = options.pause ?? nextTurn;
  const bytesBefore = fileBytes(cache);
  const fixedDeletes = options.deletesPerTransaction;
  const cutoffMs = options.nowMs - options.detailDays * DAY;
  const report: PruneReport = {
    cutoffMs,
    thinned: {},
    bytesBefore,
    bytesAfter: bytesBefore,
    converted: false,
    transactions: 0,
    longestTransactionMs: 0,
    mostDeletedInATransaction: 0,
    walTruncated: false,
  };
  if (retention.autoVacuum() !== 2 && options.convert !== false && cache.file !== ':memory:') {
    retention.convertToIncremental();
    report.converted = true;
  }
  const zones = retention.zones();
  for (const table of THINNED_TABLES) {
    let thinned = 0;
    const oldest = retention.oldest(table);
    const mark = retention.mark(table.name);
    let from = oldest === null ? cutoffMs : oldest - 1;
    if (options.scope === 'since-last' && mark !== null) from = Math.max(from, mark - SINCE_LAST_REACH_MS);
    let rows = FIRST_WINDOW_ROWS;
    let deletes = fixedDeletes ?? DELETES_FIRST;
    while (from < cutoffMs) {
      // a window of about `rows` rows (an hour at least), by the time index: a stretch with no rows and a dense one
      // cost the same read; of it, the hours up to `deletes` rows to delete are thinned, and the next window starts
      // after the last of them
      const end = retention.windowEnd(table, from, rows);
      const to = Math.min(Math.max(end ?? cutoffMs, from + MIN_WINDOW_MS), cutoffMs);
      const started = performance.now();
      const done = retention.thinWindow(table, from, to, zones, deletes);
      const took = performance.now() - started;
      thinned += done.deleted;
      report.transactions++;
      report.longestTransactionMs = Math.max(report.longestTransactionMs, took);
      report.mostDeletedInATransaction = Math.max(report.mostDeletedInATransaction, done.deleted);
      // the next transaction sized so it takes about the target: its deletions when they cut this one short, else
      // the rows it reads
      const capped = done.toMs < to;
      if (took > TARGET_TRANSACTION_MS) {
        if (capped || done.deleted > deletes / 2) deletes = Math.max(MIN_DELETES, deletes / 2);
        else rows = Math.max(MIN_WINDOW_ROWS, rows / 2);
      } else if (took < TARGET_TRANSACTION_MS / 4) {
        if (capped) deletes = Math.min(MAX_DELETES, deletes * 2);
        else rows = Math.min(MAX_WINDOW_ROWS, rows * 2);
      }
      if (fixedDeletes !== undefined) deletes = fixedDeletes;
      from = done.toMs;
      await pause();
    }
    report.thinned[table.name] = thinned;
    if (cutoffMs > (mark ?? Number.NEGATIVE_INFINITY)) retention.setMark(table.name, cutoffMs);
  }
  // the free pages back in steps sized as the thinning's transactions are (moving a page costs more than deleting a row)
  let pages = PAGES_A_STEP;
  while (retention.autoVacuum() === 2 && retention.freePages() > 0) {
    const started = performance.now();
    retention.giveBack(pages);
    const took = performance.now() - started;
    report.longestTransactionMs = Math.max(report.longestTransactionMs, took);
    if (took > TARGET_TRANSACTION_MS) pages = Math.max(16, pages / 2);
    else if (took < TARGET_TRANSACTION_MS / 4) pages = Math.min(16 * PAGES_A_STEP, pages * 2);
    await pause();
  }
  // never waits: a reader holding the WAL (the monitor) would make a TRUNCATE block every writer meanwhile
  report.walTruncated = retention.truncateWal();
  report.bytesAfter = fileBytes(cache);
  return report;
}

/** The file and its WAL on disk, in bytes. */
function fileBytes(cache: Cache): number {
  const { fileBytes, walBytes } = cache.health.fileSize();
  return fileBytes + walBytes;
}

/** The day of the service's clock (days since the epoch, UTC) of the last daily prune. */
const DAILY_MARK = '@daily';

/**
 * The prune a `sync` daemon and a live monitor run once a day of the service's clock (DESIGN 3 `cache`): it reads the
 * days since the last prune only, and never converts the file (a whole-file VACUUM is `cache prune`'s, said when it
 * runs). The day is claimed in the cache in one statement, so two processes on one cache prune once a day between
 * them; a day other than the one kept is claimed, earlier too (a service restarted with an earlier `--start`, another
 * service), so a clock that moved back does not stop pruning until the day it had reached. Null retention
 * (`detail_days: null`) keeps everything. Returns the report, or null when it was not the day's first.
 */
export async function dailyPrune(
  cache: Cache,
  nowMs: number,
  detailDays: number | null,
  pause?: () => Promise<void>,
): Promise<PruneReport | null> {
  if (detailDays === null) return null;
  if (!cache.retention.claim(DAILY_MARK, Math.floor(nowMs / DAY))) return null;
  return pruneCache(cache, { nowMs, detailDays, scope: 'since-last', convert: false, pause });
}
