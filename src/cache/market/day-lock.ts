import type { FusionLock } from '../../contract/fusion-locks.js';
import type { CountedQueries } from '../db/counted-queries.js';
import type { CityDay } from './day-reads.js';

/**
 * The fusion lock of a city-day, if the service made one: the lock is made on its day (at the peak hour), so the
 * `(city_id, locked_ms)` index reads only that city's locks of that day. The newest wins if there are several.
 */
export function dayLock(q: CountedQueries, cityId: string, day: CityDay): FusionLock | null {
  const row = q.get<{ json: string }>(
    `SELECT json FROM fusion_locks INDEXED BY fusion_locks_city
     WHERE city_id = ? AND locked_ms >= ? AND locked_ms < ? AND local_date = ? ORDER BY locked_ms DESC, id DESC LIMIT 1`,
    cityId,
    day.startMs,
    day.endMs,
    day.date,
  );
  return row ? (JSON.parse(row.json) as FusionLock) : null;
}
