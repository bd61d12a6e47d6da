import { FORECAST_LAYERS } from '../../contract/names.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { ForecastRow } from '../resources.js';

/**
 * The newest polled row of one forecast layer of a city-day fetched at or before an instant, by the `(city_id,
 * local_date, layer)` index. Args: city, date, layer, instant.
 */
export const FORECAST_OF_DATE_SQL = `SELECT json FROM forecasts INDEXED BY forecasts_date
  WHERE city_id = ? AND local_date = ? AND layer = ? AND fetched_ms <= ? ORDER BY fetched_ms DESC LIMIT 1`;

/**
 * The newest polled row of each forecast layer of one market day (`date`) of a city, fetched at or before an instant.
 * `forecastsAsOf` (day-forecasts.ts) gives each layer's newest row whatever its day: once the service forecasts the
 * next day (a market listed from 10:00 the day before), or before it has rolled over at midnight, the newest row of
 * a layer is of another day than the one a trader looks at, and this read finds that day's own. Only the polls:
 * `forecast_history` has no date of its own to seek by, and the day read here is the live or next one.
 */
export function forecastsOfDate(q: CountedQueries, cityId: string, date: string, atMs = NOW_UNBOUNDED): ForecastRow[] {
  const out: ForecastRow[] = [];
  for (const layer of FORECAST_LAYERS) {
    const row = q.get<{ json: string }>(FORECAST_OF_DATE_SQL, cityId, date, layer, atMs);
    if (row) out.push(JSON.parse(row.json) as ForecastRow);
  }
  return out;
}
