import type { WarmestModel } from '../../domain/breakthrough.js';
import type { CountedQueries } from '../db/counted-queries.js';
import type { CityDay } from './day-reads.js';

/**
 * How long before its day a `model_tmax_range` of it may be published: a service that forecasts the next market day
 * before the city's midnight (the reference service does from the peak hour + 2 h of the day before) publishes its
 * range then. Bounds the walk back when the day has no range yet. The read is by the day's `local_date`, so the range
 * of tomorrow, the newest poll of the evening, never judges today's readings.
 */
const PUBLISHED_BEFORE_DAY_MS = 36 * 3_600_000;

/**
 * The warmest model's Tmax of a city-day's newest `model_tmax_range` published strictly before an instant (its
 * `fetched_ms`), down the primary key `(city_id, layer, fetched_ms)` from the instant. Args: city, date, from,
 * instant. Strictly: the service publishes a range at the same :00 or :30 as a reading, and the monitor polls the
 * forecasts minutes after the METAR; a range of the reading's own instant would judge it in a replay and not live.
 */
export const WARMEST_MODEL_AS_OF_SQL = `SELECT json_extract(json, '$.tmax_max_c') AS c, json_extract(json, '$.tmax_max_f') AS f
  FROM forecasts WHERE city_id = ? AND layer = 'model_tmax_range' AND local_date = ? AND fetched_ms >= ? AND fetched_ms < ?
  ORDER BY fetched_ms DESC LIMIT 1`;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The models as they were at an instant (a METAR reading that set a running high): the warmest Tmax of the day's
 * newest `model_tmax_range` published before it, never one published at or after it (DESIGN 4, BREAKTHROUGH). Ranges are kept
 * whole by retention (retention/thinned-tables.ts), so this reads the same on a thinned day. Null: none by then.
 */
export function warmestModelAsOf(q: CountedQueries, cityId: string, day: CityDay, atMs: number): WarmestModel | null {
  const row = q.get<{ c: unknown; f: unknown }>(
    WARMEST_MODEL_AS_OF_SQL,
    cityId,
    day.date,
    day.startMs - PUBLISHED_BEFORE_DAY_MS,
    atMs,
  );
  if (!row) return null;
  const warmest = { c: num(row.c), f: num(row.f) };
  return warmest.c === null && warmest.f === null ? null : warmest;
}
