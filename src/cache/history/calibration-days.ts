import type { MarketUnit } from '../../contract/common.js';
import type { HistoricalTable } from '../../contract/historical.js';
import type { SettledDay, SnapshotQuote } from '../../domain/calibration-summary.js';
import { instantAtLocal, localDate, localDay, localHour } from '../../domain/city-time.js';
import { highForecastOf } from '../../domain/desk-forecast.js';
import { roundHalfUp, settledValue, usableForecast } from '../../domain/settlement.js';
import { fToC, marketUnitOf } from '../../domain/units.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { timeBounds } from '../db/time.js';
import { Where } from '../db/where.js';
import type { Venue } from '../market/day-reads.js';
import type { BrowseFilter } from './browse-filter.js';

const HOUR = 3_600_000;
/** Without a start date the calibration covers the newest this many local dates with a settled day. */
export const CALIBRATION_DATES = 30;
/** The desk publishes every hour: a forecast older than this at 12:00 is not the one current then. */
const FORECAST_LOOKBACK = 3 * HOUR;
/** The venues snapshot every hour: the price at 12:00 is the newest snapshot of the hour before. */
const QUOTE_LOOKBACK = HOUR;

interface Place {
  tz: string;
  unit: MarketUnit;
}

/** A settled city-day and the instants it is read at. */
interface Day extends SettledDay {
  tz: string;
  startMs: number;
  endMs: number;
  noonMs: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const j = (path: string) => `json_extract(json, '$.${path}')`;

/** A closed range [from, to] of instants. */
type Range = [number, number];

/** Overlapping and adjoining ranges merged, in time order: a city's consecutive days are one range. */
function merged(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * Rows of a historical table within each day's span of its own city, oldest first a city at a time. The time index
 * holds no city, so the days' spans of all cities are merged into a few ranges, and each range read in two seeks: the
 * ids its instants hold, from the time index alone (no row is opened), then each city's rows within those ids and
 * its own spans by the `(city_id, rid)` index. Only the wanted rows are read out, however much history, how many
 * other days or other cities the cache holds.
 */
function rowsIn<T>(
  q: CountedQueries,
  table: HistoricalTable,
  columns: string | ((cityId: string) => string),
  days: readonly Day[],
  span: (d: Day) => Range,
): T[] {
  const name = historicalSqlTable(table);
  const out: T[] = [];
  const byCity = new Map<string, Range[]>();
  for (const d of days) {
    const ranges = byCity.get(d.city_id);
    if (ranges) ranges.push(span(d));
    else byCity.set(d.city_id, [span(d)]);
  }
  const cities = [...byCity].map(([city, ranges]) => ({ city, ranges: merged(ranges) }));
  for (const [from, to] of merged(days.map(span))) {
    const ids = q.get<{ lo: number | null; hi: number | null }>(
      `SELECT min(rid) AS lo, max(rid) AS hi FROM ${name} INDEXED BY ${name}_t WHERE t >= ? AND t <= ?`,
      from,
      to,
    );
    if (ids?.lo == null || ids.hi == null) continue;
    for (const { city, ranges } of cities) {
      for (const [own, ownTo] of ranges) {
        if (own < from || ownTo > to) continue;
        out.push(
          ...q.all<T>(
            `SELECT t, city_id, ${typeof columns === 'string' ? columns : columns(city)} FROM ${name} INDEXED BY ${name}_city
             WHERE city_id = ? AND rid >= ? AND rid <= ? AND t >= ? AND t <= ? ORDER BY t`,
            city,
            ids.lo,
            ids.hi,
            own,
            ownTo,
          ),
        );
      }
    }
  }
  return out;
}

function placesOf(q: CountedQueries, cityId?: string): Map<string, Place> {
  const where = new Where(cityId);
  const rows = q.all<{ city_id: string; tz: unknown; country: unknown }>(
    `SELECT city_id, ${j('tz')} AS tz, ${j('country')} AS country FROM cities${where}`,
    ...where.args,
  );
  const places = new Map<string, Place>();
  for (const r of rows) {
    const tz = text(r.tz);
    if (tz) places.set(r.city_id, { tz, unit: marketUnitOf(text(r.country) ?? undefined) });
  }
  return places;
}

/**
 * The whole degree a day settled at in the market's unit, from its high in °C (a whole-°C METAR high, converted and
 * rounded as the venue settles, DESIGN 4) or, without it, in °F.
 */
function settledOf(unit: MarketUnit, c: number | null, f: number | null): number | null {
  if (c !== null) return settledValue(roundHalfUp(c), unit);
  if (f === null) return null;
  return unit === 'F' ? roundHalfUp(f) : roundHalfUp(fToC(f));
}

/**
 * The settled city-days the filter matches and the whole degree each settled at: a resolved fusion lock's
 * `actual_tmax` (spec 2.6: filled when the market resolves), its °C METAR high settled as the venue settles;
 * else the day's `forecast_accuracy_daily.actual_max` (in °C, or in °F in a °F market).
 */
function settledDays(q: CountedQueries, filter: BrowseFilter, places: Map<string, Place>): Day[] {
  const dates = timeBounds('date', filter.since, filter.until);
  const settled = new Map<string, { city_id: string; date: string; value: number }>();
  const scores = new Where(filter.cityId);
  scores.bounds('t', dates);
  const scored = q.all<{ city_id: string; local_date: string; unit: unknown; actual: unknown }>(
    `SELECT city_id, t AS local_date, ${j('unit')} AS unit, ${j('actual_max')} AS actual
     FROM ${historicalSqlTable('forecast_accuracy_daily')}${scores}`,
    ...scores.args,
  );
  for (const r of scored) {
    const actual = num(r.actual);
    const unit = places.get(r.city_id)?.unit;
    const value =
      unit === undefined || (r.unit !== 'C' && r.unit !== unit)
        ? null
        : settledOf(unit, r.unit === 'C' ? actual : null, r.unit === 'F' ? actual : null);
    if (value !== null && typeof r.local_date === 'string')
      settled.set(`${r.city_id}|${r.local_date}`, { city_id: r.city_id, date: r.local_date, value });
  }
  const locks = new Where(filter.cityId);
  locks.add('resolved = 1');
  locks.bounds('local_date', dates);
  const resolved = q.all<{ city_id: string; local_date: string; f: unknown; c: unknown }>(
    `SELECT city_id, local_date, ${j('actual_tmax_f')} AS f, ${j('actual_tmax_c')} AS c FROM fusion_locks${locks}`,
    ...locks.args,
  );
  for (const r of resolved) {
    const unit = places.get(r.city_id)?.unit;
    const value = unit === undefined ? null : settledOf(unit, num(r.c), num(r.f));
    if (value !== null) settled.set(`${r.city_id}|${r.local_date}`, { city_id: r.city_id, date: r.local_date, value });
  }
  let list = [...settled.values()].filter((s) => places.has(s.city_id));
  if (filter.since === undefined) {
    const newest = [...new Set(list.map((s) => s.date))].sort().slice(-CALIBRATION_DATES);
    list = list.filter((s) => s.date >= (newest[0] ?? ''));
  }
  return list
    .sort((a, b) => (a.city_id < b.city_id ? -1 : a.city_id > b.city_id ? 1 : a.date < b.date ? -1 : 1))
    .map((s) => {
      const { tz, unit } = places.get(s.city_id) as Place;
      const { startMs, endMs } = localDay(s.date, tz);
      return {
        city_id: s.city_id,
        local_date: s.date,
        unit,
        settled: s.value,
        forecast: null,
        readings: [],
        noonQuotes: {},
        tz,
        startMs,
        endMs,
        noonMs: instantAtLocal(s.date, 12, 0, tz),
      };
    });
}

/** Every METAR reading of each settled day, on its local clock, in °C (the whole degrees the venue settles on). */
function addReadings(q: CountedQueries, days: Day[], byKey: Map<string, Day>): void {
  // one number a reading: only it is read out of the JSON
  const rows = rowsIn<{ t: number; city_id: string; value: unknown }>(
    q,
    'metar_observations_history',
    `coalesce(${j('temp_c')}, (${j('temp_f')} - 32) * 5.0 / 9) AS value`,
    days,
    (d) => [d.startMs, d.endMs - 1],
  );
  let d: Day | undefined;
  const tzOf = new Map(days.map((day) => [day.city_id, day.tz]));
  for (const r of rows) {
    // rows come a city at a time, in time order: the day of the last reading usually holds the next one
    if (!d || d.city_id !== r.city_id || r.t < d.startMs || r.t >= d.endMs) {
      const tz = tzOf.get(r.city_id);
      d = tz === undefined ? undefined : byKey.get(`${r.city_id}|${localDate(r.t, tz)}`);
      if (!d || r.t < d.startMs || r.t >= d.endMs) continue;
    }
    const v = num(r.value);
    if (v !== null) d.readings.push({ hour: localHour(r.t, d.tz), value: v });
  }
}

/**
 * The desk's forecast current at 12:00 local: its newest `forecast_history` row for the day by then, as DESIGN 4
 * prices it (the `_c` aliases), when usable.
 */
function addForecasts(q: CountedQueries, days: Day[], byKey: Map<string, Day>): void {
  const rows = rowsIn<{ t: number; city_id: string; local_date: unknown } & Record<string, unknown>>(
    q,
    'forecast_history',
    `${j('local_date')} AS local_date, ${j('predicted_max_c')} AS mu_c, ${j('sigma_c')} AS sigma_c`,
    days,
    (d) => [d.noonMs - FORECAST_LOOKBACK, d.noonMs],
  );
  const at = new Map<Day, number>();
  for (const r of rows) {
    const d = byKey.get(`${r.city_id}|${text(r.local_date)}`);
    if (!d || r.t > d.noonMs || r.t < d.noonMs - FORECAST_LOOKBACK || (at.get(d) ?? -1) > r.t) continue;
    const forecast = usableForecast(
      highForecastOf({ predicted_max_c: r.mu_c as number, sigma_c: r.sigma_c as number }),
    );
    if (forecast === null) continue;
    d.forecast = forecast;
    at.set(d, r.t);
  }
}

/** Each venue's newest snapshot of the day's buckets at or before 12:00 local (one row a bucket, the newest id). */
function addQuotes(q: CountedQueries, venue: Venue, days: Day[], byKey: Map<string, Day>): void {
  const rows = rowsIn<{ t: number; city_id: string; rid: number; local_date: unknown } & Record<string, unknown>>(
    q,
    `${venue}_buckets_history`,
    `rid, ${j('local_date')} AS local_date, ${j('bucket_slug')} AS slug, ${j('bucket_label')} AS label,
     ${j('yes_price')} AS yes_price`,
    days,
    (d) => [d.noonMs - QUOTE_LOOKBACK + 1, d.noonMs],
  );
  const snapshots = new Map<Day, { t: number; quotes: Map<string, SnapshotQuote & { rid: number }> }>();
  for (const r of rows) {
    const d = byKey.get(`${r.city_id}|${text(r.local_date)}`);
    if (!d || r.t > d.noonMs || r.t <= d.noonMs - QUOTE_LOOKBACK) continue;
    let snap = snapshots.get(d);
    if (snap && snap.t > r.t) continue;
    if (!snap || snap.t < r.t) {
      snap = { t: r.t, quotes: new Map() };
      snapshots.set(d, snap);
    }
    const quote = { bucket_slug: text(r.slug), bucket_label: text(r.label), yes_price: num(r.yes_price), rid: r.rid };
    const key = quote.bucket_slug ?? quote.bucket_label ?? `#${r.rid}`;
    const held = snap.quotes.get(key);
    if (!held || held.rid > r.rid) snap.quotes.set(key, quote);
  }
  // in id order: the order the venue lists its buckets in
  for (const [d, snap] of snapshots)
    d.noonQuotes[venue] = [...snap.quotes.values()]
      .sort((a, b) => b.rid - a.rid)
      .map(({ rid: _rid, ...quote }) => quote);
}

/**
 * What the calibration of the History pane's summaries is computed from (domain/calibration-summary.ts): each settled
 * city-day the filter matches (without a start date, the newest `CALIBRATION_DATES` dates), its METAR readings, the
 * desk's forecast and each venue's prices at 12:00 local. Every read is bounded by the settled days' own hours.
 *
 * `known` holds days read before (the caller keeps it while its view is open): a day found there, settled at the same
 * value, is not read again, so a re-read after a change costs the settled days' list and the days newly settled.
 */
export function calibrationDays(
  q: CountedQueries,
  filter: BrowseFilter,
  venues: readonly Venue[],
  known?: Map<string, SettledDay>,
): SettledDay[] {
  const places = placesOf(q, filter.cityId);
  const days = settledDays(q, filter, places);
  const key = (d: { city_id: string; local_date: string }) => `${d.city_id}|${d.local_date}`;
  const fresh = days.filter((d) => known?.get(key(d))?.settled !== d.settled);
  if (fresh.length > 0) {
    const byKey = new Map<string, Day>();
    for (const d of fresh) byKey.set(key(d), d);
    addReadings(q, fresh, byKey);
    addForecasts(q, fresh, byKey);
    for (const venue of venues) addQuotes(q, venue, fresh, byKey);
    for (const { tz: _tz, startMs: _s, endMs: _e, noonMs: _n, ...day } of fresh) known?.set(key(day), day);
  }
  return days.map((d) => {
    const { tz: _tz, startMs: _s, endMs: _e, noonMs: _n, ...day } = d;
    return known?.get(key(d)) ?? day;
  });
}
