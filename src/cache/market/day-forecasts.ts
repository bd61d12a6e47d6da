import { FORECAST_LAYERS } from '../../contract/forecasts.js';
import type { CountedQueries } from '../db/counted-queries.js';
import type { ForecastRow } from '../resources.js';
import { NOW_UNBOUNDED } from './day-reads.js';

/** The newest row of one forecast layer of a city fetched at or before an instant. Args: city, layer, instant. */
export const FORECAST_AS_OF_SQL =
  'SELECT json FROM forecasts WHERE city_id = ? AND layer = ? AND fetched_ms <= ? ORDER BY fetched_ms DESC LIMIT 1';

/**
 * The newest row of each forecast layer of a city fetched at or before an instant: one seek a layer down the primary
 * key `(city_id, layer, fetched_ms)`, so as cheap for a past instant as for now.
 */
export function forecastsAsOf(q: CountedQueries, cityId: string, atMs = NOW_UNBOUNDED): ForecastRow[] {
  const out: ForecastRow[] = [];
  for (const layer of FORECAST_LAYERS) {
    const row = q.get<{ json: string }>(FORECAST_AS_OF_SQL, cityId, layer, atMs);
    if (row) out.push(JSON.parse(row.json) as ForecastRow);
  }
  return out;
}
