import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import {
  type CityDay,
  type DayQuote,
  dayQuotes,
  type MetarDay,
  type MetarPoint,
  metarDay,
  type Venue,
} from './day-reads.js';
import { type BucketQuote, QuoteBook } from './quote-book.js';

export type { MetarPoint };

/**
 * Rows of a city's newest quotes to read: 11 buckets an hour is 264 a day, so this covers every market of the last
 * two days, which is as old as an open position gets.
 */
export const RECENT_QUOTE_ROWS = 600;

/** Market data for the panes: the venue's quotes of a city's buckets, and the METAR readings behind them. */
export class MarketRepository {
  constructor(private readonly q: CountedQueries) {}

  /** The newest quotes of a city's markets (empty when `mkta_buckets_history` was never backfilled). */
  quotes(cityId: string, rows = RECENT_QUOTE_ROWS): QuoteBook {
    const quotes = this.q.all<BucketQuote>(
      `SELECT json_extract(json, '$.local_date') AS local_date, json_extract(json, '$.bucket_slug') AS bucket_slug,
         json_extract(json, '$.bucket_label') AS bucket_label, json_extract(json, '$.yes_price') AS yes_price,
         json_extract(json, '$.no_price') AS no_price, json_extract(json, '$.snapshot_at') AS snapshot_at
       FROM ${historicalSqlTable('mkta_buckets_history')} WHERE city_id = ? ORDER BY rid LIMIT ?`,
      cityId,
      rows,
    );
    return new QuoteBook(quotes);
  }

  /** The newest quote of each bucket of a city-day on a venue, lowest bucket first (day-reads.ts). */
  dayQuotes(venue: Venue, cityId: string, date: string): DayQuote[] {
    return dayQuotes(this.q, venue, cityId, date);
  }

  /** Every METAR reading of a city's local day and its running high (day-reads.ts). */
  metarDay(cityId: string, day: CityDay): MetarDay {
    return metarDay(this.q, cityId, day);
  }

  /** METAR readings of a city from `sinceMs` on, oldest first, one a distinct instant. */
  metarSince(cityId: string, sinceMs: number): MetarPoint[] {
    const polled = this.q.all<{ ms: number; temp_f: number; temp_c: number | null }>(
      `SELECT fetched_ms AS ms, temp_f, json_extract(json, '$.temp_c') AS temp_c FROM current_obs
       WHERE city_id = ? AND source = 'metar_observations' AND fetched_ms >= ? ORDER BY fetched_ms`,
      cityId,
      sinceMs,
    );
    const table = historicalSqlTable('metar_observations_history');
    const history = this.q.all<{ ms: number; temp_f: number; temp_c: number | null }>(
      `SELECT t AS ms, json_extract(json, '$.temp_f') AS temp_f, json_extract(json, '$.temp_c') AS temp_c
       FROM ${table} INDEXED BY ${table}_t WHERE t >= ? AND city_id = ? ORDER BY t`,
      sinceMs,
      cityId,
    );
    const byMs = new Map<number, MetarPoint>();
    for (const p of [...history, ...polled]) if (typeof p.temp_f === 'number') byMs.set(p.ms, p);
    return [...byMs.values()].sort((a, b) => a.ms - b.ms);
  }
}
