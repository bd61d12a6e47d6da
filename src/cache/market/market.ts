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
export const RECENT_QUOTE_ROWS = 600;

/** Market data for the panes: the venue's quotes of a city's buckets, and the METAR readings behind them. */
export class MarketRepository {
  constructor(private readonly q: CountedQueries) {}

  /**
   * The newest quotes of a city's markets, what Positions marks to (empty when `mkta_buckets_history` holds none):
   * the city's newest rows by the `(city_id, rid)` index, newest first.
   */
  quotes(cityId: string, rows = RECENT_QUOTE_ROWS): QuoteBook {
    const quotes = this.q.all<BucketQuote>(
      `SELECT json_extract(json, '$.local_date') AS local_date, json_extract(json, '$.bucket_slug') AS bucket_slug,
         json_extract(json, '$.bucket_label') AS bucket_label, json_extract(json, '$.yes_price') AS yes_price,
         json_extract(json, '$.no_price') AS no_price, json_extract(json, '$.snapshot_at') AS snapshot_at
       FROM ${MKTA} INDEXED BY ${MKTA}_city WHERE city_id = ? ORDER BY rid LIMIT ?`,
      cityId,
      rows,
    );
    return new QuoteBook(quotes);
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
