import type { FusionLock } from '../../contract/fusion-locks.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { dayLock } from './day-lock.js';
import {
  type CityDay,
  type DayQuote,
  dayQuotes,
  type MetarDay,
  type MetarPoint,
  metarDay,
  type Venue,
} from './day-reads.js';
import { newestSnapshot } from './newest-snapshot.js';
import { type BucketQuote, QuoteBook } from './quote-book.js';

export type { MetarPoint };

const MKTA = historicalSqlTable('mkta_buckets_history');

/**
 * Rows of a city's newest quotes to read: 11 buckets an hour is 264 a day, so this covers every market of the last
 * two days, which is as old as an open position gets.
 */
const RECENT_QUOTE_ROWS = 600;

/** A value as SQLite's json_extract gives it: null when absent, 1/0 for true/false, JSON text for an object. */
function extracted(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
}

/** A quote row's fields, each as json_extract gives it. */
const quoteOf = (row: Record<string, unknown>): BucketQuote =>
  ({
    local_date: extracted(row.local_date),
    bucket_slug: extracted(row.bucket_slug),
    bucket_label: extracted(row.bucket_label),
    yes_price: extracted(row.yes_price),
    no_price: extracted(row.no_price),
    snapshot_at: extracted(row.snapshot_at),
  }) as BucketQuote;

/** Market data for the panes: the venue's quotes of a city's buckets, and the METAR readings behind them. */
export class MarketRepository {
  constructor(private readonly q: CountedQueries) {}

  /**
   * The newest quotes of a city's markets, what Positions marks to (empty when `mkta_buckets_history` holds none):
   * the city's newest rows by the `(city_id, rid)` index, newest first.
   */
  quotes(cityId: string, rows = RECENT_QUOTE_ROWS): QuoteBook {
    // the rows' JSON parsed here rather than six json_extract calls a row in SQL: a third of the time, the same values
    const texts = this.q.all<{ json: string }>(
      `SELECT json FROM ${MKTA} INDEXED BY ${MKTA}_city WHERE city_id = ? ORDER BY rid LIMIT ?`,
      cityId,
      rows,
    );
    return new QuoteBook(texts.map((t) => quoteOf(JSON.parse(t.json) as Record<string, unknown>)));
  }

  /** The newest quote of each bucket of a city-day on a venue, lowest bucket first (day-reads.ts). */
  dayQuotes(venue: Venue, cityId: string, date: string): DayQuote[] {
    return dayQuotes(this.q, venue, cityId, date);
  }

  /** The newest snapshot of a city-day's buckets on a venue, lowest bucket first (newest-snapshot.ts). */
  newestSnapshot(venue: Venue, cityId: string, date: string): DayQuote[] {
    return newestSnapshot(this.q, venue, cityId, date);
  }

  /** Every METAR reading of a city's local day and its running high (day-reads.ts). */
  metarDay(cityId: string, day: CityDay): MetarDay {
    return metarDay(this.q, cityId, day);
  }

  /** The fusion lock of a city-day, or null before the service made one (day-lock.ts). */
  dayLock(cityId: string, day: CityDay): FusionLock | null {
    return dayLock(this.q, cityId, day);
  }
}
