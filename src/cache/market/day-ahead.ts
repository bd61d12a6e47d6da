import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { CityDay } from './day-reads.js';
import { text } from './day-reads.js';

/**
 * One product's forecast of a city-day's high from `model_forecasts_daily`: a model (`gfs`, `icon`...) or a blend
 * (`svc_pro`, `edge_ensemble`, `model_mean`, DESIGN 4). Only the prediction: the row also carries the day's actual
 * high and bucket, which are known only once the day is over, so they are never read.
 */
export interface DayAheadForecast {
  model: string;
  /** The predicted high in each unit; null where the row does not carry it as a number. */
  predicted_max_c: number | null;
  predicted_max_f: number | null;
}

const TABLE = historicalSqlTable('model_forecasts_daily');

/**
 * A city-day's rows of `model_forecasts_daily`, newest first, by the time index (its `local_date`: one date holds a
 * row a product a city). Args: date, city.
 */
export const DAY_AHEAD_SQL = `SELECT rid, json_extract(json, '$.model') AS model,
    json_extract(json, '$.predicted_max_c') AS c, json_extract(json, '$.predicted_max_f') AS f
  FROM ${TABLE} INDEXED BY ${TABLE}_t WHERE t = ? AND city_id = ? ORDER BY rid`;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Each product's forecast of a city-day as of an instant: the day's `model_forecasts_daily` rows (the newest of each
 * product, in the order the service wrote them), once the day has begun. A date row's own time is its date (DESIGN 4), which begins at the city's local
 * midnight: before it the day's row does not exist yet. The forecasts are the ones made for the day before it began
 * (the service writes the row after the day, with its outcome, which is not read).
 */
export function dayAheadForecasts(
  q: CountedQueries,
  cityId: string,
  day: CityDay,
  atMs = NOW_UNBOUNDED,
): DayAheadForecast[] {
  if (day.startMs > atMs) return [];
  const newest = new Map<string, DayAheadForecast & { rid: number }>();
  for (const r of q.all<{ rid: number; model: unknown; c: unknown; f: unknown }>(DAY_AHEAD_SQL, day.date, cityId)) {
    const model = text(r.model);
    const c = num(r.c);
    const f = num(r.f);
    if (model === null || newest.has(model) || (c === null && f === null)) continue;
    newest.set(model, { rid: r.rid, model, predicted_max_c: c, predicted_max_f: f });
  }
  // rid = -id: the highest rid is the oldest id, the first written
  return [...newest.values()].sort((a, b) => b.rid - a.rid).map(({ rid: _rid, ...p }) => p);
}
