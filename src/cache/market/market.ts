import type { FusionLock } from '../../contract/fusion-locks.js';
import type { WarmestModel } from '../../domain/breakthrough.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { CurrentRow, ForecastRow } from '../resources.js';
import type { SlicedRead } from '../sliced-read.js';
import type { CacheTopic } from '../topics.js';
import { forecastsOfDate } from './date-forecasts.js';
import { type DayAheadForecast, dayAheadForecasts } from './day-ahead.js';
import { forecastsAsOf } from './day-forecasts.js';
import { dayLock } from './day-lock.js';
import {
  type CityDay,
  type DayQuote,
  dayQuotes,
  type MetarDay,
  type MetarPoint,
  metarDay,
  quoteWalkStart,
  type Venue,
} from './day-reads.js';
import { type DaySeries, type DaySeriesAsk, daySeries } from './day-series.js';
import { warmestModelAsOf } from './model-range-as-of.js';
import { newestSnapshot } from './newest-snapshot.js';
import { type BucketQuote, QuoteBook } from './quote-book.js';
import { readingsAsOf } from './readings-as-of.js';

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

/**
 * Market data for the panes and the board: the venue's quotes of a city's buckets, the METAR readings behind them,
 * the day's lock and forecasts. The reads of a city's market day take an instant (`atMs`; now by default): nothing
 * snapshotted, observed, fetched or locked after it is read, and each stays a keyset read by index.
 */
export class MarketRepository {
  constructor(private readonly q: CountedQueries) {}

  /**
   * The newest quotes of a city's markets at or before an instant, what Positions marks to (empty when
   * `mkta_buckets_history` holds none): the city's newest rows by the `(city_id, rid)` index, newest first; as of a
   * past instant the walk starts at its rows (day-reads.ts's `quoteWalkStart`).
   */
  quotes(cityId: string, rows = RECENT_QUOTE_ROWS, atMs = NOW_UNBOUNDED): QuoteBook {
    // the rows' JSON parsed here rather than six json_extract calls a row in SQL: a third of the time, the same values
    const texts = this.q.all<{ json: string }>(
      `SELECT json FROM ${MKTA} INDEXED BY ${MKTA}_city WHERE city_id = ? AND rid > ? AND (t IS NULL OR t <= ?)
       ORDER BY rid LIMIT ?`,
      cityId,
      quoteWalkStart(this.q, 'mkta', atMs),
      atMs,
      rows,
    );
    return new QuoteBook(texts.map((t) => quoteOf(JSON.parse(t.json) as Record<string, unknown>)));
  }

  /** The newest quote of each bucket of a city-day on a venue, lowest bucket first (day-reads.ts). */
  dayQuotes(venue: Venue, cityId: string, date: string, atMs = NOW_UNBOUNDED): DayQuote[] {
    return dayQuotes(this.q, venue, cityId, date, atMs);
  }

  /** The newest snapshot of a city-day's buckets on a venue, lowest bucket first (newest-snapshot.ts). */
  newestSnapshot(venue: Venue, cityId: string, date: string, atMs = NOW_UNBOUNDED): DayQuote[] {
    return newestSnapshot(this.q, venue, cityId, date, atMs);
  }

  /**
   * A city's market day through the day as of an instant, for sparklines: each venue's YES price of each bucket and
   * the desk's mu and sigma, a few dozen columns (day-series.ts). A sliced read: `yield*` it in a pane's read, or
   * `readNow` it.
   */
  daySeries(cityId: string, day: CityDay, ask: DaySeriesAsk): SlicedRead<DaySeries> {
    return daySeries(this.q, cityId, day, ask);
  }

  /** Every METAR reading of a city's local day and its running high (day-reads.ts). */
  metarDay(cityId: string, day: CityDay, atMs = NOW_UNBOUNDED): MetarDay {
    return metarDay(this.q, cityId, day, atMs);
  }

  /** The fusion lock of a city-day, or null before the service made one (day-lock.ts). */
  dayLock(cityId: string, day: CityDay, atMs = NOW_UNBOUNDED): FusionLock | null {
    return dayLock(this.q, cityId, day, atMs);
  }

  /** The newest row of each forecast layer of a city (day-forecasts.ts). */
  forecasts(cityId: string, atMs = NOW_UNBOUNDED): ForecastRow[] {
    return forecastsAsOf(this.q, cityId, atMs);
  }

  /** The warmest model of a city-day's newest `model_tmax_range` published at or before an instant (model-range-as-of.ts). */
  warmestModel(cityId: string, day: CityDay, atMs: number): WarmestModel | null {
    return warmestModelAsOf(this.q, cityId, day, atMs);
  }

  /** The newest polled row of each forecast layer of one market day of a city (date-forecasts.ts). */
  forecastsOfDate(cityId: string, date: string, atMs = NOW_UNBOUNDED): ForecastRow[] {
    return forecastsOfDate(this.q, cityId, date, atMs);
  }

  /** Each product's forecast of a city-day from `model_forecasts_daily`, once the day has begun (day-ahead.ts). */
  dayAhead(cityId: string, day: CityDay, atMs = NOW_UNBOUNDED): DayAheadForecast[] {
    return dayAheadForecasts(this.q, cityId, day, atMs);
  }

  /** What each of the four current sources read for a city, of its polls and its history (readings-as-of.ts). */
  readings(cityId: string, atMs = NOW_UNBOUNDED): CurrentRow[] {
    return readingsAsOf(this.q, cityId, atMs);
  }
}

const QUOTES = ['historical/mkta_buckets_history', 'historical/mktb_buckets_history'] as const;

/**
 * The tables each read of the repository reads, as the cache's change events name them: what a pane showing the read
 * watches (the board's, Forecasts' and Positions' lists are built from these). A new read does not compile until it
 * names its tables here; a read that starts reading another table adds it to its own list.
 */
export const MARKET_READ_TOPICS = {
  quotes: ['historical/mkta_buckets_history'],
  dayQuotes: QUOTES,
  newestSnapshot: QUOTES,
  daySeries: [...QUOTES, 'forecasts', 'historical/forecast_history'],
  metarDay: ['historical/metar_observations_history', 'current'],
  dayLock: ['fusion-locks'],
  forecasts: ['forecasts', 'historical/forecast_history'],
  forecastsOfDate: ['forecasts'],
  warmestModel: ['forecasts'],
  dayAhead: ['historical/model_forecasts_daily'],
  readings: [
    'current',
    'historical/wxa_history',
    'historical/wxb_history',
    'historical/metar_observations_history',
    'historical/pws_observations_history',
  ],
} as const satisfies Record<keyof MarketRepository, readonly CacheTopic[]>;
