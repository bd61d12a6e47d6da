import type { MarketUnit } from '../../contract/common.js';
import { forecastIn } from '../../domain/desk-forecast.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import type { SlicedRead } from '../sliced-read.js';
import { FORECAST_HISTORY_LOOKBACK_MS } from './day-forecasts.js';
import { type CityDay, type DayQuote, dayQuoteOf, text, type Venue } from './day-reads.js';

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
 * A market day through the day, column by column on a fixed grid: column i ends at `fromMs + (i + 1) * stepMs`, the
 * ends on whole steps from the day's local midnight, and holds the newest figure at or before its end (never after the
 * instant read as of: the last column, the current one, runs to that instant). A fixed grid keeps a sparkline still
 * from one read to the next: a past column holds the same snapshot until a step later, when the whole line moves one
 * column left. Every array has `columns` entries, oldest first.
 */
export interface DaySeries {
  fromMs: number;
  /** The last column's end: the day's end once it is over, else the grid's first end at or after the instant. */
  toMs: number;
  stepMs: number;
  columns: number;
  /**
   * Each bucket either venue quoted at some column, in the order first met (mkta's lowest first, then any only mktb or
   * a later snapshot lists): find a bucket by its slug, else its label, as the board's buckets are matched. A venue's
   * price at a column is its newest snapshot at or before the column's end taken within the column (after its start);
   * none there (the venue silent, the stream failing, a day thinned to hourly snapshots, a column not begun): null, a
   * gap, never an older price carried forward as if it were current.
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
  /** How many columns, the newest last (default 32: a sparkline of the Forecasts pane's width). */
  columns?: number;
  /**
   * A column's span (default 15 minutes: 32 columns are the last 8 hours; 45 minutes show a whole day in 32). A
   * divisor of a day keeps every day's grid on the same local times.
   */
  stepMs?: number;
}

export const DEFAULT_SERIES_COLUMNS = 32;
export const DEFAULT_SERIES_STEP_MS = 15 * 60_000;

/**
 * How many ids newer than the newest row at or before a column's end its walk starts: a venue writes a snapshot of
 * every city's markets in one batch (30 cities x 2 markets x 11 buckets = 660 rows), its ids in the service's order,
 * so the city's rows of that instant may be a little newer than the row the time index finds. Rows after the end that
 * the walk then meets are filtered out by `t`, without reading their JSON.
 */
const START_SLACK_IDS = 1024;

/**
 * Rows a page of a column's walk: a snapshot is 11 buckets a market, and the next day's market interleaves (listed
 * from the day before), so a page holds the city's whole snapshot and the first row of the one before.
 */
const SERIES_PAGE = 24;

/** Pages a column's walk reads at most: a city quiet for a column ends it sooner, on a row older than the column. */
const SERIES_PAGES = 4;

/** The lowest rid (newest id) of a venue's rows snapshotted at or before an instant: one seek. Args: instant. */
const newestAtOrBeforeSql = (venue: Venue): string => {
  const name = historicalSqlTable(`${venue}_buckets_history`);
  return `SELECT rid FROM ${name} INDEXED BY ${name}_t WHERE t <= ? ORDER BY t DESC, rid LIMIT 1`;
};

/**
 * A page of a city's rows on a venue after `rid`, snapshotted at or before an instant, newest first, by the
 * `(city_id, rid)` index: the time as stored and the JSON, parsed only for the rows a column keeps (a third of the
 * time of json_extract, market.ts's quotes says). Args: city, rid, instant, limit.
 */
const seriesPageSql = (venue: Venue): string => {
  const name = historicalSqlTable(`${venue}_buckets_history`);
  return `SELECT rid, t, json FROM ${name} INDEXED BY ${name}_city
    WHERE city_id = ? AND rid > ? AND (t IS NULL OR t <= ?) ORDER BY rid LIMIT ?`;
};

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
  const newest = q.get<{ rid: number }>(newestAtOrBeforeSql(venue), endMs)?.rid;
  let after = newest == null ? null : newest - 1 - START_SLACK_IDS;
  let snapshotMs: number | null = null;
  // newest first: a row older than the column (the venue took no snapshot of the city in it) or of an instant older
  // than the snapshot found (of either market: a venue writes a snapshot's rows together, so it is whole) ends it
  walk: for (let page = 0; after !== null && page < SERIES_PAGES; page++) {
    const rows = q.all<{ rid: number; t: number | null; json: string }>(
      seriesPageSql(venue),
      cityId,
      after,
      endMs,
      SERIES_PAGE,
    );
    for (const r of rows) {
      if (r.t === null) continue;
      if (r.t <= startMs || (snapshotMs !== null && r.t < snapshotMs)) break walk;
      const row = JSON.parse(r.json) as Record<string, unknown>;
      if (text(row.local_date) !== date) continue;
      snapshotMs ??= r.t;
      out.push(dayQuoteOf({ ...row, rid: r.rid }));
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

/** The grid's last end: the day's end once it is over, else the first whole step from its midnight at or after `atMs`. */
function lastEndOf(day: CityDay, atMs: number, stepMs: number): number {
  if (atMs >= day.endMs) return day.endMs;
  return day.startMs + Math.ceil((atMs - day.startMs) / stepMs) * stepMs;
}

/**
 * A city's market day through the day as of an instant (`DaySeries`), a step a column and venue so a pane runs it in
 * slices (`readSliced`; `readNow` at once): each column a venue's snapshot found by two index probes and a page of the
 * city's rows (about 0.3 ms on a cache of 30 cities at a snapshot a minute), then the desk's versions in two range
 * reads.
 */
export function* daySeries(q: CountedQueries, cityId: string, day: CityDay, ask: DaySeriesAsk): SlicedRead<DaySeries> {
  const columns = Math.max(1, Math.floor(ask.columns ?? DEFAULT_SERIES_COLUMNS));
  const stepMs = Math.max(60_000, ask.stepMs ?? DEFAULT_SERIES_STEP_MS);
  const toMs = lastEndOf(day, ask.atMs, stepMs);
  const fromMs = toMs - columns * stepMs;
  const ends = Array.from({ length: columns }, (_, i) => fromMs + (i + 1) * stepMs);
  const buckets = new Map<string, BucketSeries>();
  for (const venue of ['mkta', 'mktb'] as const)
    for (const [i, end] of ends.entries()) {
      // the current column runs to the instant, no further
      const to = Math.min(end, ask.atMs);
      for (const quote of to > end - stepMs ? snapshotIn(q, venue, cityId, day.date, end - stepMs, to) : []) {
        const key = quote.bucket_slug ?? quote.bucket_label ?? `#${quote.id}`;
        let series = buckets.get(key);
        if (!series) {
          const none = () => ends.map(() => null);
          series = { slug: quote.bucket_slug, label: quote.bucket_label, mkta: none(), mktb: none() };
          buckets.set(key, series);
        }
        series[venue][i] = quote.yes_price;
      }
      yield;
    }
  const versions = deskVersions(q, cityId, day.date, ask.unit, fromMs, Math.min(toMs, ask.atMs));
  const inForce = ends.map((end) => versions.filter((v) => v.ms <= Math.min(end, ask.atMs)).at(-1) ?? null);
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
