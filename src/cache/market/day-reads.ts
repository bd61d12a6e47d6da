import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';

/** The two venues whose bucket prices the cache keeps (`mkta_buckets_history`, `mktb_buckets_history`). */
export type Venue = 'mkta' | 'mktb';

/**
 * The newest quote of one bucket of a city-day on a venue. Only `id`, `city_id` and `local_date` are promised by a
 * real service, so every field the screen shows may be null: the row is still shown, with dashes.
 */
export interface DayQuote {
  id: number;
  bucket_slug: string | null;
  bucket_label: string | null;
  yes_price: number | null;
  no_price: number | null;
  snapshot_at: string | null;
}

/** A city's local day: its date and the instants it spans, [startMs, endMs). */
export interface CityDay {
  date: string;
  startMs: number;
  endMs: number;
}

/** A METAR reading of the chart: from `/current` polls and `metar_observations_history`. */
export interface MetarPoint {
  ms: number;
  temp_f: number;
  temp_c: number | null;
}

/** The METAR readings of a city's local day, oldest first, and the running high so far in both units. */
export interface MetarDay {
  points: MetarPoint[];
  /**
   * Null before the day's first reading. `since`: the instant of the reading that first reached it (of °C where the
   * readings carry it): what the board knows from that instant on, and a venue's price taken before it does not.
   */
  high: { f: number; c: number | null; since: number } | null;
}

/** Rows a keyset page of a city's quotes reads: a bit under one hour of both tails and nine buckets, twice over. */
export const QUOTE_PAGE = 256;

/**
 * A city's quote rows newer than `rid` (newest first: `rid = -id`) snapshotted at or before an instant (`t`, its
 * `snapshot_at`; a row without one counts as of any instant), by the `(city_id, rid)` index. The day of a row is only
 * in its JSON, so the reader walks newest first and stops once it meets an older day. Args: city, rid, instant, limit.
 */
export const cityQuotePageSql = (venue: Venue): string =>
  `SELECT rid, json_extract(json, '$.local_date') AS local_date, json_extract(json, '$.bucket_slug') AS bucket_slug,
     json_extract(json, '$.bucket_label') AS bucket_label, json_extract(json, '$.yes_price') AS yes_price,
     json_extract(json, '$.no_price') AS no_price, json_extract(json, '$.snapshot_at') AS snapshot_at
   FROM ${historicalSqlTable(`${venue}_buckets_history`)} INDEXED BY ${historicalSqlTable(`${venue}_buckets_history`)}_city
   WHERE city_id = ? AND rid > ? AND (t IS NULL OR t <= ?) ORDER BY rid LIMIT ?`;

const METAR = historicalSqlTable('metar_observations_history');

/** One day of METAR history across all cities by the `t` index (about 48 readings a city), filtered to the city. */
export const METAR_DAY_SQL = `SELECT t AS ms, json_extract(json, '$.temp_f') AS temp_f, json_extract(json, '$.temp_c') AS temp_c
  FROM ${METAR} INDEXED BY ${METAR}_t WHERE t >= ? AND t < ? AND city_id = ? ORDER BY t`;

/** The METAR readings polled from `/current` within the day, by the `current_obs_fetched` index. */
export const POLLED_METAR_DAY_SQL = `SELECT fetched_ms AS ms, temp_f, json_extract(json, '$.temp_c') AS temp_c
  FROM current_obs INDEXED BY current_obs_fetched
  WHERE fetched_ms >= ? AND fetched_ms < ? AND city_id = ? AND source = 'metar_observations' ORDER BY fetched_ms`;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A row of `cityQuotePageSql`: its rowid and the quote's fields as json_extract gives them. */
export type QuoteRow = Record<string, unknown> & { rid: number };

/** DESIGN 4's lookback of the live history streams: a report can arrive this much later than its own time. */
export const LATE_REPORT_MS = 2 * 3_600_000;

/** Whether a venue holds a quote snapshotted after an instant: one probe of the time index. Args: instant. */
export const quotedAfterSql = (venue: Venue): string => {
  const name = historicalSqlTable(`${venue}_buckets_history`);
  return `SELECT 1 AS later FROM ${name} INDEXED BY ${name}_t WHERE t > ? LIMIT 1`;
};

/** The newest id (lowest rid) of a venue's quotes snapshotted within (from, to], off the time index. Args: from, to. */
export const quoteStartSql = (venue: Venue): string => {
  const name = historicalSqlTable(`${venue}_buckets_history`);
  return `SELECT min(rid) AS rid FROM ${name} INDEXED BY ${name}_t WHERE t > ? AND t <= ?`;
};

/**
 * Where a walk of a city's quotes as of a past instant starts: the rows snapshotted after it are stepped over
 * without being read. The `(city_id, rid)` index holds no time, so the bound comes from the time index, read alone
 * (no row opened): the newest id among the rows snapshotted within `LATE_REPORT_MS` before the instant. The service's
 * ids follow its writes, so every row at or before the instant is at or past it, but for one written more than the
 * lookback after its own time (the live streams would miss that one too). Rows after the instant that the walk then
 * still meets are filtered out by `t`, as before. With nothing after the instant (the live screen, `NOW_UNBOUNDED`)
 * there is nothing to step over: one probe of the index. Returns a bound for `rid > ?`.
 */
export function quoteWalkStart(q: CountedQueries, venue: Venue, atMs: number): number {
  const none = Number.MIN_SAFE_INTEGER;
  if (atMs >= NOW_UNBOUNDED) return none;
  // kept for the instant while the venue's newest id is the same (a row written since, late or not, has a newer id):
  // a board reads it for every city
  const newest = q.get<{ rid: number | null }>(newestQuoteSql(venue))?.rid ?? null;
  const memo = starts.get(q) ?? new Map<string, number>();
  starts.set(q, memo);
  const key = `${venue}|${atMs}|${newest}`;
  const kept = memo.get(key);
  if (kept !== undefined) return kept;
  let start = none;
  if (q.get(quotedAfterSql(venue), atMs)) {
    const row = q.get<{ rid: number | null }>(quoteStartSql(venue), atMs - LATE_REPORT_MS, atMs);
    // nothing quoted in the lookback: every row of the city is walked, the later ones filtered out
    if (row?.rid != null) start = row.rid - 1;
  }
  if (memo.size >= 16) memo.clear();
  memo.set(key, start);
  return start;
}

/** The walks' starts by instant, a few for each cache's connection (its CountedQueries). */
const starts = new WeakMap<CountedQueries, Map<string, number>>();

/** The newest id a venue holds (its lowest rid): one step to the first row of the table's b-tree. */
const newestQuoteSql = (venue: Venue): string =>
  `SELECT min(rid) AS rid FROM ${historicalSqlTable(`${venue}_buckets_history`)}`;

/** One keyset page of a city's quote rows on a venue after `after` (rid), snapshotted at or before `atMs`. */
export const cityQuotePage = (
  q: CountedQueries,
  venue: Venue,
  cityId: string,
  after: number,
  atMs: number,
  limit: number,
): QuoteRow[] => q.all<QuoteRow>(cityQuotePageSql(venue), cityId, after, atMs, limit);

/** A quote row as the screens read it: a field of the wrong type is null, never a NaN. */
export const dayQuoteOf = (r: QuoteRow): DayQuote => ({
  id: -r.rid,
  bucket_slug: text(r.bucket_slug),
  bucket_label: text(r.bucket_label),
  yes_price: num(r.yes_price),
  no_price: num(r.no_price),
  snapshot_at: text(r.snapshot_at),
});

/**
 * A city-day's quote rows on one venue as of an instant, newest first, a keyset page at a time (each page the day's
 * rows of it): the city's rows by the `(city_id, rid)` index from `quoteWalkStart`, until a page holds a row of an
 * older day (the day's rows are all behind; another market's rows interleave, so the page is finished first) or the
 * rows run out. The walk `dayQuotes` and `newestSnapshot` share; a reader stops it sooner by leaving the loop.
 */
export function* dayQuotePages(
  q: CountedQueries,
  venue: Venue,
  cityId: string,
  date: string,
  atMs: number,
  pageSize: number,
  maxPages = 40,
): Generator<QuoteRow[]> {
  let after = quoteWalkStart(q, venue, atMs);
  for (let page = 0; page < maxPages; page++) {
    const rows = cityQuotePage(q, venue, cityId, after, atMs, pageSize);
    yield rows.filter((r) => text(r.local_date) === date);
    const older = rows.some((r) => {
      const day = text(r.local_date);
      return day !== null && day < date;
    });
    const last = rows[rows.length - 1];
    if (older || rows.length < pageSize || !last) return;
    after = last.rid;
  }
}

/**
 * The newest quote of each bucket of a city-day on one venue as of an instant (snapshotted at or before it), lowest
 * bucket first (the venue lists its buckets in that order, so a snapshot's rows ascend in id). A bucket is known by
 * its slug, else its label; a row naming neither stands alone. Newest means highest id, the service's own order,
 * which holds when `snapshot_at` is missing.
 */
export function dayQuotes(
  q: CountedQueries,
  venue: Venue,
  cityId: string,
  date: string,
  atMs = NOW_UNBOUNDED,
  maxPages = 40,
): DayQuote[] {
  const newest = new Map<string, DayQuote>();
  for (const rows of dayQuotePages(q, venue, cityId, date, atMs, QUOTE_PAGE, maxPages))
    for (const r of rows) {
      const quote = dayQuoteOf(r);
      const key = quote.bucket_slug ?? quote.bucket_label ?? `#${quote.id}`;
      if (!newest.has(key)) newest.set(key, quote);
    }
  return [...newest.values()].sort((a, b) => a.id - b.id);
}

/** A METAR reading as read from history or a poll: its instant and its fields as json_extract gives them. */
export interface MetarRow {
  ms: number;
  temp_f: unknown;
  temp_c: unknown;
}

/**
 * Readings of history and polls as one series, oldest first: one a distinct instant, history first. A reading
 * without a number for `temp_f` cannot be charted and is left out.
 */
export function metarPoints(history: readonly MetarRow[], polled: readonly MetarRow[]): MetarPoint[] {
  const byMs = new Map<number, MetarPoint>();
  for (const p of [...history, ...polled]) {
    const f = num(p.temp_f);
    if (f !== null && !byMs.has(p.ms)) byMs.set(p.ms, { ms: p.ms, temp_f: f, temp_c: num(p.temp_c) });
  }
  return [...byMs.values()].sort((a, b) => a.ms - b.ms);
}

/** The running high of readings in both units (°C among those that carry it); null without a reading. */
export function metarHigh(points: readonly MetarPoint[]): MetarDay['high'] {
  if (points.length === 0) return null;
  let f = Number.NEGATIVE_INFINITY;
  let c: number | null = null;
  let fSince = 0;
  let cSince = 0;
  for (const p of points) {
    if (p.temp_f > f) [f, fSince] = [p.temp_f, p.ms];
    if (p.temp_c !== null && (c === null || p.temp_c > c)) [c, cSince] = [p.temp_c, p.ms];
  }
  return { f, c, since: c === null ? fSince : cSince };
}

/**
 * Every METAR reading of a city's local day up to an instant (history and polls, `metarPoints`) and the running
 * high. A reading without `observed_at` has no place on the day's axis.
 */
export function metarDay(q: CountedQueries, cityId: string, day: CityDay, atMs = NOW_UNBOUNDED): MetarDay {
  const endMs = Math.min(day.endMs, atMs + 1);
  const read = (sql: string) => q.all<MetarRow>(sql, day.startMs, endMs, cityId);
  const points = metarPoints(read(METAR_DAY_SQL), read(POLLED_METAR_DAY_SQL));
  return { points, high: metarHigh(points) };
}
