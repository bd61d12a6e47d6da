import { localInstant } from '../../domain/market-times.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import { isBusy } from '../db/cache-error.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { timeBounds } from '../db/time.js';
import { Where } from '../db/where.js';
import { FORECAST_HISTORY_LOOKBACK_MS } from '../market/day-forecasts.js';
import type { BrowseFilter } from './browse-filter.js';
import { placesOf, type SettledCityDay, settledCityDays } from './settled-days.js';

/**
 * The board's record of each settled day, worked out once and kept (issue 43, table `record_days_kept`): a year's
 * record reads a row a city-day rather than pricing every hour of every day again. What a day contributes is its
 * positions under one set of rules (board/board-record.ts works them out and says which rules); this file keeps them
 * and says when a kept day no longer stands:
 * - a row it read written or changed later (a late report, a snapshot backfilled): the cache's triggers delete the
 *   kept day whose span holds the row's instant (db/migrations.ts);
 * - it settled at another value since, or its city's zone moved its hours: its value and span are checked on read;
 * - other rules (`alerts.edge_min`, `settlement`): the caller checks them.
 */

/** A settled day with the span of instants its record reads. */
export interface RecordSettledDay extends SettledCityDay {
  fromMs: number;
  toMs: number;
}

/** A kept day's record: the positions (JSON, as the caller wrote them) and what they were worked out from. */
export interface KeptRecordDay {
  city_id: string;
  local_date: string;
  rules: string;
  settled: number;
  fromMs: number;
  toMs: number;
  trades: string;
}

/**
 * The instants whose rows a settled day's record reads (board-record-days.ts): from the desk's runs of the day before
 * its 09:00 (`FORECAST_HISTORY_LOOKBACK_MS`, which also holds its midnight, where its METAR readings start) to 16:00.
 * The poll of the desk from before that span, if the day had none within it, is left out: polls are stamped when
 * they are fetched, so none arrives later stamped before a settled day.
 */
export function recordSpan(day: { local_date: string; tz: string; startMs: number }): { fromMs: number; toMs: number } {
  const nine = localInstant(day.local_date, 9, 0, day.tz);
  return {
    fromMs: Math.min(day.startMs, nine - FORECAST_HISTORY_LOOKBACK_MS),
    toMs: localInstant(day.local_date, 16, 0, day.tz),
  };
}

/** Every settled day the filter matches (settled-days.ts), with its record's span. */
export function recordSettledDays(q: CountedQueries, filter: BrowseFilter): RecordSettledDay[] {
  return settledCityDays(q, filter, placesOf(q, filter.cityId)).map((d) => ({ ...d, ...recordSpan(d) }));
}

const key = (d: { city_id: string; local_date: string }) => `${d.city_id}|${d.local_date}`;

export class KeptRecordDays {
  constructor(
    private readonly db: SqliteDb,
    private readonly q: CountedQueries,
  ) {}

  /** The kept days the filter matches, by `city_id|local_date`. */
  read(filter: BrowseFilter): Map<string, KeptRecordDay> {
    const where = new Where(filter.cityId);
    where.bounds('local_date', timeBounds('date', filter.since, filter.until));
    const rows = this.q.all<KeptRecordDay>(
      `SELECT city_id, local_date, rules, settled, from_ms AS fromMs, to_ms AS toMs, trades FROM record_days_kept${where}`,
      ...where.args,
    );
    return new Map(rows.map((r) => [key(r), r]));
  }

  /**
   * `work` reads days' rows and works out their records; what it returns is kept in the same transaction, from the same
   * snapshot, each replacing what was kept of its day. A row written by another process after the read began (a late
   * report inside a day's span) finds no kept day for its trigger to drop yet; but SQLite then refuses this
   * transaction's write (WAL's SQLITE_BUSY_SNAPSHOT: the snapshot it read is no longer the newest), so a record worked
   * out from the rows before it is never kept. Not kept either (false) when the cache cannot be written now: a
   * read-only file, or another process's write lock held past the connection's busy timeout (the caller sets it short
   * on a screen's thread). The next read then works those days out again.
   */
  keepAsRead(work: () => readonly KeptRecordDay[]): boolean {
    if (this.db.readonly) {
      work();
      return false;
    }
    let worked = false;
    try {
      this.db.transaction(() => {
        const days = work();
        worked = true;
        this.insert(days);
      })();
      return true;
    } catch (error) {
      // an error of the work itself is the caller's; one of the write only means "not kept now"
      if (!worked || !cannotWriteNow(error)) throw error;
      return false;
    }
  }

  private insert(days: readonly KeptRecordDay[]): void {
    const insert = this.db.prepare(
      `INSERT INTO record_days_kept (city_id, local_date, rules, settled, from_ms, to_ms, trades)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (city_id, local_date) DO UPDATE SET rules = excluded.rules, settled = excluded.settled,
         from_ms = excluded.from_ms, to_ms = excluded.to_ms, trades = excluded.trades`,
    );
    for (const d of days) insert.run(d.city_id, d.local_date, d.rules, d.settled, d.fromMs, d.toMs, d.trades);
  }
}

/** Another process's lock past the busy timeout, a stale snapshot, or a file that cannot be written. */
function cannotWriteNow(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return isBusy(error) || code === 'SQLITE_READONLY' || code === 'SQLITE_READONLY_DBMOVED';
}
