import type { MarketUnit } from '../../contract/common.js';
import type { DeskAliases } from '../../domain/desk-forecast.js';
import { localInstant } from '../../domain/market-times.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { deskRowAt, FORECAST_HISTORY_LOOKBACK_MS, historyForecastRow } from '../market/day-forecasts.js';
import {
  type DayQuote,
  dayQuoteOf,
  type MetarDay,
  type MetarPoint,
  type MetarRow,
  metarHigh,
  metarPoints,
  type QuoteRow,
  type Venue,
} from '../market/day-reads.js';
import type { BrowseFilter } from './browse-filter.js';
import { j, merged, placesOf, type Range, rowsIn, type SettledCityDay, settledCityDays, text } from './settled-days.js';

/** DESIGN 4 "the board's record": every whole local hour from 09:00 to 16:00 of a settled day. */
export const RECORD_HOURS = [9, 10, 11, 12, 13, 14, 15, 16] as const;

/**
 * "At that hour" for a venue's prices: its newest snapshot taken within the half hour before HH:00, (HH:00 - 30 min,
 * HH:00]. The venues snapshot every half hour; an hour without one gives no trade, rather than a trade at an older
 * price nobody could have had then.
 */
export const RECORD_QUOTE_WINDOW_MS = 30 * 60_000;

/**
 * What the board showed of a settled day at one whole local hour: the board as of HH:00 (DESIGN 4). Of a day no venue
 * quoted at any of these hours (no trade can come of it) only that is read: its desk and high stay null.
 */
export interface RecordHour {
  hour: number;
  atMs: number;
  /** The desk's run current then (forecasts or forecast_history, as the board reads it), if it is for this day. */
  desk: DeskAliases | null;
  /** The running METAR high then, in both units (history and polls, as the board reads it). */
  high: MetarDay['high'];
  /** Each venue's snapshot of the day's buckets at that hour (`RECORD_QUOTE_WINDOW_MS`); empty without one. */
  quotes: Record<Venue, DayQuote[]>;
}

/** A settled city-day as the board's record reads it: how it settled, and the board at each hour. */
export interface RecordDay {
  city_id: string;
  local_date: string;
  unit: MarketUnit;
  /** The whole degree it settled at, in the market's unit. */
  settled: number;
  hours: RecordHour[];
}

interface Day extends SettledCityDay {
  hours: RecordHour[];
}

const key = (d: { city_id: string; local_date: string }) => `${d.city_id}|${d.local_date}`;
const lastAt = (d: Day) => (d.hours[d.hours.length - 1] as RecordHour).atMs;
const firstAt = (d: Day) => (d.hours[0] as RecordHour).atMs;

/** The running high at each hour, from the day's readings up to HH:00: history and polls, as the board reads them. */
function addHighs(q: CountedQueries, days: Day[]): void {
  const history = rowsIn<MetarRow & { city_id: string; t: number }, Day>(
    q,
    'metar_observations_history',
    `t AS ms, ${j('temp_f')} AS temp_f, ${j('temp_c')} AS temp_c`,
    days,
    (d) => [[d.startMs, lastAt(d)]],
  );
  const polled: (MetarRow & { city_id: string })[] = [];
  // a row at a time, not spread into push: a year's polls overflow the stack as arguments
  for (const [from, to] of merged(days.map((d): Range => [d.startMs, lastAt(d)])))
    for (const row of q.all<MetarRow & { city_id: string }>(
      `SELECT city_id, fetched_ms AS ms, temp_f, ${j('temp_c')} AS temp_c FROM current_obs INDEXED BY current_obs_fetched
       WHERE fetched_ms >= ? AND fetched_ms <= ? AND source = 'metar_observations'`,
      from,
      to,
    ))
      polled.push(row);
  const rowsOf = byDay(days, (history as (MetarRow & { city_id: string; t?: number })[]).concat(polled));
  for (const d of days) {
    const rows = rowsOf.get(d) ?? { history: [], polled: [] };
    const points = metarPoints(rows.history, rows.polled);
    // the hours in time order, each high that of the readings up to it
    let upTo = 0;
    for (const h of d.hours) {
      while (upTo < points.length && (points[upTo] as MetarPoint).ms <= h.atMs) upTo++;
      h.high = metarHigh(points.slice(0, upTo));
    }
  }
}

/** Each reading sorted to the settled day of its city whose hours it falls in; history rows carry `t`. */
function byDay(
  days: readonly Day[],
  rows: readonly (MetarRow & { city_id: string; t?: number })[],
): Map<Day, { history: MetarRow[]; polled: MetarRow[] }> {
  // each city's days in time order, searched by halves: a reading falls in at most one day's hours
  const byCity = groupBy(days, (d) => d.city_id);
  for (const list of byCity.values()) list.sort((a, b) => a.startMs - b.startMs);
  const out = new Map<Day, { history: MetarRow[]; polled: MetarRow[] }>();
  for (const r of rows) {
    const list = byCity.get(r.city_id) ?? [];
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((list[mid] as Day).startMs <= r.ms) lo = mid;
      else hi = mid - 1;
    }
    const d = list[lo];
    if (!d || r.ms < d.startMs || r.ms > lastAt(d)) continue;
    let lists = out.get(d);
    if (!lists) {
      lists = { history: [], polled: [] };
      out.set(d, lists);
    }
    (r.t === undefined ? lists.polled : lists.history).push(r);
  }
  return out;
}

type Timed<T> = { ms: number; row: () => T };

/** A row parsed when first asked for, once: an hour's run is usually the hour before's too. */
function once<T>(parse: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= parse();
    return value;
  };
}

/**
 * The desk's run at each hour, chosen as the board chooses it (market/day-forecasts.ts `deskRowAt`): the newest poll
 * of the city at or before HH:00 (its polls around the days, and the one before them, by the primary key) against the
 * newest `forecast_history` row then (those of the day's hours and the lookback before them, by the time index). It
 * counts only when it is for the day itself, as on the board.
 */
function addDesks(q: CountedQueries, days: Day[]): void {
  const layer = 'svc_pro_forecast';
  const polls = new Map<string, Timed<DeskAliases & { local_date?: string }>[]>();
  for (const [cityId, list] of groupBy(days, (d) => d.city_id)) {
    const from = Math.min(...list.map(firstAt)) - FORECAST_HISTORY_LOOKBACK_MS;
    const to = Math.max(...list.map(lastAt));
    const before = q.all<{ fetched_ms: number; json: string }>(
      'SELECT fetched_ms, json FROM forecasts WHERE city_id = ? AND layer = ? AND fetched_ms < ? ORDER BY fetched_ms DESC LIMIT 1',
      cityId,
      layer,
      from,
    );
    const within = q.all<{ fetched_ms: number; json: string }>(
      'SELECT fetched_ms, json FROM forecasts WHERE city_id = ? AND layer = ? AND fetched_ms >= ? AND fetched_ms <= ? ORDER BY fetched_ms',
      cityId,
      layer,
      from,
      to,
    );
    polls.set(
      cityId,
      [...before, ...within].map((r) => ({ ms: r.fetched_ms, row: once(() => JSON.parse(r.json)) })),
    );
  }
  const history = rowsIn<{ t: number; city_id: string; json: string }, Day>(
    q,
    'forecast_history',
    'json',
    days,
    (d) => [[firstAt(d) - FORECAST_HISTORY_LOOKBACK_MS, lastAt(d)]],
  );
  const runs = groupBy(
    history.map((r) => ({
      city_id: r.city_id,
      ms: r.t,
      row: once(
        () =>
          historyForecastRow(JSON.parse(r.json) as Record<string, unknown>) as DeskAliases & { local_date?: string },
      ),
    })),
    (r) => r.city_id,
  );
  for (const d of days) {
    const own = polls.get(d.city_id) ?? [];
    const ran = runs.get(d.city_id) ?? [];
    for (const h of d.hours) {
      // the day's own run: after the day's peak the desk forecasts the next day, and the board keeps the day's last
      // (market-day.ts), so the record's late hours are priced as the board showed them
      const desk = deskRowAt(
        newestOfDay(own, h.atMs, d.local_date),
        newestOfDay(ran, h.atMs, d.local_date),
        h.atMs,
      )?.row() as (DeskAliases & { local_date?: unknown }) | undefined;
      h.desk = desk ?? null;
    }
  }
}

/** How far back from an hour a run of the day itself is looked for past runs of another day. */
const OWN_RUN_LOOKBACK_MS = 12 * 3_600_000;

/** The newest of time-ordered runs at or before an instant that is for `date` (a run of another day is passed over). */
function newestOfDay<T extends { ms: number; row: () => { local_date?: unknown } }>(
  sorted: readonly T[],
  atMs: number,
  date: string,
): T | undefined {
  let i = -1;
  while (i + 1 < sorted.length && (sorted[i + 1] as T).ms <= atMs) i++;
  for (; i >= 0; i--) {
    const e = sorted[i] as T;
    if (atMs - e.ms > OWN_RUN_LOOKBACK_MS) return undefined;
    if (e.row().local_date === date) return e;
  }
  return undefined;
}

function groupBy<T>(list: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) {
    const k = keyOf(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * Each venue's snapshot of each day at each hour: the rows taken within the hour's window, of the day's market, and of
 * them the newest snapshot's, lowest id first (the venue's order). A window is read once for every city whose hour it
 * is, by the time index (the cities of a zone share their hours, and the venues snapshot every city at once); the
 * rows of other cities in it are passed over unparsed. Only those windows are read.
 */
function addQuotes(q: CountedQueries, venue: Venue, days: Day[]): void {
  const name = historicalSqlTable(`${venue}_buckets_history`);
  const windows = new Map<number, Map<string, { d: Day; h: RecordHour }>>();
  for (const d of days)
    for (const h of d.hours) {
      const cities = windows.get(h.atMs) ?? new Map<string, { d: Day; h: RecordHour }>();
      cities.set(d.city_id, { d, h });
      windows.set(h.atMs, cities);
    }
  const newest = new Map<RecordHour, { t: number; rows: QuoteRow[] }>();
  for (const [at, cities] of windows) {
    const rows = q.all<{ t: number; city_id: string; rid: number; json: string }>(
      `SELECT t, city_id, rid, json FROM ${name} INDEXED BY ${name}_t WHERE t > ? AND t <= ?`,
      at - RECORD_QUOTE_WINDOW_MS,
      at,
    );
    for (const { t, city_id, rid, json } of rows) {
      const wanted = cities.get(city_id);
      if (!wanted) continue;
      // the rows' JSON parsed here rather than six json_extract calls a row in SQL (market.ts's quotes says why)
      const quote = JSON.parse(json) as Record<string, unknown>;
      if (text(quote.local_date) !== wanted.d.local_date) continue;
      const held = newest.get(wanted.h);
      if (held && held.t > t) continue;
      quote.rid = rid;
      if (held && held.t === t) held.rows.push(quote as QuoteRow);
      else newest.set(wanted.h, { t, rows: [quote as QuoteRow] });
    }
  }
  for (const [h, snap] of newest) h.quotes[venue] = snap.rows.map(dayQuoteOf).sort((a, b) => a.id - b.id);
}

/**
 * What the board's record (board/board-record.ts) is computed from: every settled city-day the filter matches
 * (settled-days.ts: the whole cache, not only the calibration's newest dates), each with the board as of each whole
 * hour from 09:00 to 16:00 local: the desk's run, the running high and both venues' snapshots then. Every read is
 * bounded by those days' own hours.
 */
export function boardRecordDays(
  q: CountedQueries,
  filter: BrowseFilter,
  venues: readonly Venue[] = ['mkta', 'mktb'],
  known?: Map<string, RecordDay>,
): RecordDay[] {
  return recordDaysOf(q, settledCityDays(q, filter, placesOf(q, filter.cityId)), venues, known);
}

/**
 * The board at each record hour of the given settled days (`boardRecordDays`, of days already listed: those whose
 * kept record no longer stands, kept-record-days.ts).
 *
 * `known` holds days read before (the caller keeps it while its view is open): a day found there, settled at the same
 * value, is not read again, so a re-read after a change costs the days newly settled.
 */
export function recordDaysOf(
  q: CountedQueries,
  days: readonly SettledCityDay[],
  venues: readonly Venue[] = ['mkta', 'mktb'],
  known?: Map<string, RecordDay>,
): RecordDay[] {
  const fresh: Day[] = days
    .filter((d) => known?.get(key(d))?.settled !== d.settled)
    .map((d) => ({
      ...d,
      hours: RECORD_HOURS.map((hour) => ({
        hour,
        atMs: localInstant(d.local_date, hour, 0, d.tz),
        desk: null,
        high: null,
        quotes: { mkta: [], mktb: [] },
      })),
    }));
  const read = new Map<string, RecordDay>();
  if (fresh.length > 0) {
    for (const venue of venues) addQuotes(q, venue, fresh);
    // a day no venue quoted at any of its hours can make no trade: its forecasts and readings are not read
    const quoted = fresh.filter((d) => d.hours.some((h) => venues.some((v) => h.quotes[v].length > 0)));
    addHighs(q, quoted);
    addDesks(q, quoted);
    for (const { city_id, local_date, unit, settled, hours } of fresh) {
      const day = { city_id, local_date, unit, settled, hours };
      read.set(key(day), day);
      known?.set(key(day), day);
    }
  }
  // a day kept is handed back as the same object: a caller can keep what it worked out of it (board-record.ts)
  return days.map((d) => (read.get(key(d)) ?? known?.get(key(d))) as RecordDay);
}
