import type { MarketUnit } from '../../contract/common.js';
import type { HistoricalTable } from '../../contract/historical.js';
import { localDay } from '../../domain/city-time.js';
import { settledValueOf } from '../../domain/settlement.js';
import { marketUnitOf } from '../../domain/units.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { timeBounds } from '../db/time.js';
import { Where } from '../db/where.js';
import type { BrowseFilter } from './browse-filter.js';

/**
 * The settled city-days of the cache and the reads bounded by their hours, shared by History's summaries: the
 * calibration (calibration-days.ts) and the board's record (board-record-days.ts).
 */

export interface Place {
  tz: string;
  unit: MarketUnit;
}

/** A settled city-day: the whole degree it settled at in the market's unit, and the instants it spans. */
export interface SettledCityDay {
  city_id: string;
  local_date: string;
  unit: MarketUnit;
  settled: number;
  tz: string;
  startMs: number;
  endMs: number;
}

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
export const j = (path: string) => `json_extract(json, '$.${path}')`;

/** A closed range [from, to] of instants. */
export type Range = [number, number];

/** Overlapping and adjoining ranges merged, in time order: a city's consecutive days are one range. */
export function merged(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/**
 * Rows of a historical table within the spans of each day, of its own city, a city at a time, oldest first. The time
 * index holds no city, so each of a city's spans (merged where they meet) is read in two seeks: the ids its instants
 * hold, from the time index alone (no row is opened; cities of one zone share the spans, and so this read), then the
 * city's rows within those ids and the span by the `(city_id, rid)` index. Only the wanted rows are read out, however
 * much history, how many other days, hours or cities the cache holds.
 */
export function rowsIn<T, D extends { city_id: string }>(
  q: CountedQueries,
  table: HistoricalTable,
  columns: string,
  days: readonly D[],
  spans: (d: D) => Range[],
): T[] {
  const name = historicalSqlTable(table);
  const out: T[] = [];
  const byCity = new Map<string, Range[]>();
  for (const d of days) byCity.set(d.city_id, [...(byCity.get(d.city_id) ?? []), ...spans(d)]);
  const ids = new Map<string, { lo: number | null; hi: number | null } | undefined>();
  const idsIn = ([from, to]: Range) => {
    const key = `${from}|${to}`;
    if (!ids.has(key))
      ids.set(
        key,
        q.get<{ lo: number | null; hi: number | null }>(
          `SELECT min(rid) AS lo, max(rid) AS hi FROM ${name} INDEXED BY ${name}_t WHERE t >= ? AND t <= ?`,
          from,
          to,
        ),
      );
    return ids.get(key);
  };
  for (const [city, ranges] of byCity)
    for (const range of merged(ranges)) {
      const within = idsIn(range);
      if (within?.lo == null || within.hi == null) continue;
      // a row at a time, not spread into push: a city's year of rows overflows the stack as arguments
      for (const row of q.all<T>(
        `SELECT t, city_id, ${columns} FROM ${name} INDEXED BY ${name}_city
         WHERE city_id = ? AND rid >= ? AND rid <= ? AND t >= ? AND t <= ? ORDER BY t`,
        city,
        within.lo,
        within.hi,
        range[0],
        range[1],
      ))
        out.push(row);
    }
  return out;
}

/** Every cached city's zone and market unit (`cityId`: that city only). */
export function placesOf(q: CountedQueries, cityId?: string): Map<string, Place> {
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
 * The settled city-days the filter matches and the whole degree each settled at: a resolved fusion lock's
 * `actual_tmax` (spec 2.6: filled when the market resolves), its °C METAR high settled as the venue settles;
 * else the day's `forecast_accuracy_daily.actual_max` (in °C, or in °F in a °F market). `newestDates`: without a
 * start date, only the newest this many local dates with a settled day. City first, then date.
 */
export function settledCityDays(
  q: CountedQueries,
  filter: BrowseFilter,
  places: Map<string, Place>,
  newestDates?: number,
): SettledCityDay[] {
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
        : settledValueOf(unit, r.unit === 'C' ? actual : null, r.unit === 'F' ? actual : null);
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
    const value = unit === undefined ? null : settledValueOf(unit, num(r.c), num(r.f));
    if (value !== null) settled.set(`${r.city_id}|${r.local_date}`, { city_id: r.city_id, date: r.local_date, value });
  }
  let list = [...settled.values()].filter((s) => places.has(s.city_id));
  if (filter.since === undefined && newestDates !== undefined) {
    const newest = [...new Set(list.map((s) => s.date))].sort().slice(-newestDates);
    list = list.filter((s) => s.date >= (newest[0] ?? ''));
  }
  return list
    .sort((a, b) => (a.city_id < b.city_id ? -1 : a.city_id > b.city_id ? 1 : a.date < b.date ? -1 : 1))
    .map((s) => {
      const { tz, unit } = places.get(s.city_id) as Place;
      return {
        city_id: s.city_id,
        local_date: s.date,
        unit,
        settled: s.value,
        tz,
        ...localDay(s.date, tz),
      };
    });
}
