import type { MarketUnit } from '../../contract/common.js';
import { forecastIn } from '../../domain/desk-forecast.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { FORECAST_HISTORY_LOOKBACK_MS } from './day-forecasts.js';
import {
  type CityDay,
  cityQuotePage,
  type DayQuote,
  dayQuoteOf,
  quoteStartSql,
  text,
  type Venue,
} from './day-reads.js';

/**
 * A city's market day through the day, for sparklines (issue 45 item 4): each venue's YES price of each bucket and
 * the desk's mu and sigma, sampled at a few dozen instants. A venue snapshots every minute, so a day is about 1,440
 * snapshots a venue; a sparkline draws ~30 columns, so the read seeks one snapshot a column (two index probes and a
 * page of rows) rather than walking the day: its cost follows the columns asked for, not the venues' cadence.
 */

/** One bucket through the day: its YES price on each venue at each column, null where that venue had no snapshot. */
export interface BucketSeries {
  /** The venue's slug and label, as written (the same key as the board's buckets: slug, else label). */
  slug: string | null;
  label: string | null;
  mkta: (number | null)[];
  mktb: (number | null)[];
}

/**
 * A market day through the day, column by column: column i is the instant `fromMs + (i + 1) * stepMs` (its end), and
 * holds the newest figure at or before it. Every array has `columns` entries.
 */
export interface DaySeries {
  fromMs: number;
  toMs: number;
  stepMs: number;
  columns: number;
  /**
   * Each bucket either venue quoted at some column, in the order first met (mkta's lowest first, then any only mktb or
   * a later snapshot lists): find a bucket by its slug, else its label, as the board's buckets are matched. A
   * venue's price at a column is its newest snapshot at or before the column's end taken within the column (after its
   * start); none there (the venue silent, the stream failing, a day thinned to hourly snapshots): null, a gap, never
   * an older price carried forward as if it were current.
   */
  buckets: BucketSeries[];
  /**
   * The desk's forecast of this day in force at each column's end (the newest version fetched at or before it, of the
   * `forecasts` polls and `forecast_history`), in the market's unit from the API's own aliases; null before the
   * day's first version. A version stands until the next replaces it, so it is carried forward.
   */
  mu: (number | null)[];
  sigma: (number | null)[];
}

/** What `daySeries` is asked. */
export interface DaySeriesAsk {
  /** The instant the day is read as of (the board's now, or a replayed instant): nothing after it is read. */
  atMs: number;
  /** The unit mu and sigma are given in: the market's. */
  unit: MarketUnit;
  /** How many columns (default 32: a sparkline of the Forecasts pane's width). */
  columns?: number;
  /**
   * The span sampled, (fromMs, toMs]. Default: the local day up to `atMs` (its whole day once it is over); before the
   * day begins (a market listed the evening before), the `BEFORE_DAY_MS` up to `atMs`.
   */
  fromMs?: number;
  toMs?: number;
}

export const DEFAULT_SERIES_COLUMNS = 32;

/** The span of a day's series read before the day has begun: a market is listed from 10:00 the day before. */
export const BEFORE_DAY_MS = 12 * 3_600_000;

/** How far back the start of a column's walk is looked for first: two of the venues' one-minute snapshots. */
const START_PROBE_MS = 2 * 60_000;

/** Rows a page of a column's walk: a snapshot is 11 buckets, and the next day's market interleaves. */
const SERIES_PAGE = 32;

/** Pages a column's walk reads at most: a city quiet for a column ends it sooner, on a row older than the column. */
const SERIES_PAGES = 4;

/** The lowest rid (newest id) of a venue's rows snapshotted at or before an instant: one seek. Args: instant. */
const newestAtOrBeforeSql = (venue: Venue): string => {
  const name = historicalSqlTable(`${venue}_buckets_history`);
  return `SELECT rid FROM ${name} INDEXED BY ${name}_t WHERE t <= ? ORDER BY t DESC, rid LIMIT 1`;
};

/**
 * Where a column's walk of the city's rows starts (a bound for `rid > ?`): the newest id among the venue's rows of
 * the last two minutes before the column's end (a snapshot's rows all in), else the newest row at or before it. The
 * service's ids follow its writes, so the city's rows at or before the instant are at or past it (a row written long
 * after its own time is missed, as the live streams would miss it).
 */
function columnStart(q: CountedQueries, venue: Venue, endMs: number): number | null {
  const recent = q.get<{ rid: number | null }>(quoteStartSql(venue), endMs - START_PROBE_MS, endMs)?.rid;
  const rid = recent ?? q.get<{ rid: number }>(newestAtOrBeforeSql(venue), endMs)?.rid;
  return rid == null ? null : rid - 1;
}

/**
 * A venue's snapshot of a city-day newest at or before `endMs` and after `startMs`, lowest bucket first; empty when
 * it took none in (startMs, endMs].
 */
function snapshotIn(
  q: CountedQueries,
  venue: Venue,
  cityId: string,
  date: string,
  startMs: number,
  endMs: number,
): DayQuote[] {
  const out: DayQuote[] = [];
  let after = columnStart(q, venue, endMs);
  let snapshot: string | null = null;
  // newest first: a row older than the column (the venue took no snapshot of the city in it) or of an older snapshot
  // of the day ends the walk
  walk: for (let page = 0; after !== null && page < SERIES_PAGES; page++) {
    const rows = cityQuotePage(q, venue, cityId, after, endMs, SERIES_PAGE);
    for (const r of rows) {
      const at = text(r.snapshot_at);
      const ms = at === null ? Number.NaN : Date.parse(at);
      if (ms <= startMs) break walk;
      if (text(r.local_date) !== date || !Number.isFinite(ms)) continue;
      snapshot ??= at;
      if (at !== snapshot) break walk;
      out.push(dayQuoteOf(r));
    }
    after = rows.length < SERIES_PAGE ? null : (rows[rows.length - 1]?.rid ?? null);
  }
  // the venue lists its buckets lowest first, in ascending ids
  return out.sort((a, b) => a.id - b.id);
}

/** The desk's versions of a city-day polled (`forecasts`), by the `(city_id, local_date, layer)` index. */
const POLLED_VERSIONS_SQL = `SELECT fetched_ms AS ms, json FROM forecasts INDEXED BY forecasts_date
  WHERE city_id = ? AND local_date = ? AND layer = 'svc_pro_forecast' AND fetched_ms <= ? ORDER BY fetched_ms`;

const HISTORY = historicalSqlTable('forecast_history');

/**
 * The desk's runs of a city in a span of `forecast_history` by the time index (every city's hourly runs: a few
 * hundred rows a day), the day's picked out by its `local_date`. Args: from, to, city, date.
 */
const HISTORY_VERSIONS_SQL = `SELECT t AS ms, json FROM ${HISTORY} INDEXED BY ${HISTORY}_t
  WHERE t >= ? AND t <= ? AND city_id = ? AND json_extract(json, '$.local_date') = ? ORDER BY t`;

/** The desk's forecast of the day in the unit, one version an instant, oldest first (a poll over its history row). */
function deskVersions(
  q: CountedQueries,
  cityId: string,
  date: string,
  unit: MarketUnit,
  fromMs: number,
  toMs: number,
): { ms: number; mu: number; sigma: number }[] {
  const byMs = new Map<number, { mu: number; sigma: number }>();
  const read = (rows: { ms: number; json: string }[]) => {
    for (const r of rows) {
      const shown = forecastIn(JSON.parse(r.json), unit);
      if (shown && !byMs.has(r.ms)) byMs.set(r.ms, shown);
    }
  };
  // the polls first: at the same instant, the same run, the poll is the whole layer
  read(q.all(POLLED_VERSIONS_SQL, cityId, date, toMs));
  // a run published before the span is the one in force at its start: looked for back to the desk's lookback
  read(q.all(HISTORY_VERSIONS_SQL, fromMs - FORECAST_HISTORY_LOOKBACK_MS, toMs, cityId, date));
  return [...byMs.entries()].map(([ms, v]) => ({ ms, ...v })).sort((a, b) => a.ms - b.ms);
}

/** The span sampled: the ask's, else the local day up to the instant, else (before it begins) the hours before it. */
function spanOf(day: CityDay, ask: DaySeriesAsk): { fromMs: number; toMs: number } {
  const toMs = ask.toMs ?? Math.min(ask.atMs, day.endMs);
  const fromMs = ask.fromMs ?? (toMs > day.startMs ? day.startMs : toMs - BEFORE_DAY_MS);
  return { fromMs, toMs: Math.min(toMs, ask.atMs) };
}

/**
 * A city's market day through the day as of an instant (`DaySeries`): `columns` snapshots a venue, each found by two
 * index probes and a page of the city's rows, and the desk's versions of the day in two range reads.
 */
export function daySeries(q: CountedQueries, cityId: string, day: CityDay, ask: DaySeriesAsk): DaySeries {
  const columns = Math.max(1, Math.floor(ask.columns ?? DEFAULT_SERIES_COLUMNS));
  const { fromMs, toMs } = spanOf(day, ask);
  const stepMs = Math.max(0, toMs - fromMs) / columns;
  const ends = Array.from({ length: columns }, (_, i) => fromMs + (i + 1) * stepMs);
  const buckets = new Map<string, BucketSeries>();
  for (const venue of ['mkta', 'mktb'] as const)
    ends.forEach((end, i) => {
      for (const quote of snapshotIn(q, venue, cityId, day.date, end - stepMs, end)) {
        const key = quote.bucket_slug ?? quote.bucket_label ?? `#${quote.id}`;
        let series = buckets.get(key);
        if (!series) {
          const none = () => ends.map(() => null);
          series = { slug: quote.bucket_slug, label: quote.bucket_label, mkta: none(), mktb: none() };
          buckets.set(key, series);
        }
        series[venue][i] = quote.yes_price;
      }
    });
  const versions = deskVersions(q, cityId, day.date, ask.unit, fromMs, toMs);
  const inForce = ends.map((end) => versions.filter((v) => v.ms <= end).at(-1) ?? null);
  return {
    fromMs,
    toMs,
    stepMs,
    columns,
    buckets: [...buckets.values()],
    mu: inForce.map((v) => v?.mu ?? null),
    sigma: inForce.map((v) => v?.sigma ?? null),
  };
}
