import type { FusionLock } from '../../contract/fusion-locks.js';
import { lockAsOf } from '../../domain/market-times.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { CityDay } from './day-reads.js';

/**
 * The fusion lock of a city-day as it stood at an instant, if the service made one by then: the lock is made on its
 * day (at the peak hour), so the `(city_id, locked_ms)` index reads only that city's locks of that day, up to the
 * instant. The newest wins if there are several. The cache keeps the lock as now, resolved or not; it resolves after
 * its day (domain/market-times.ts), so before the day's end it is read unresolved.
 */
export function dayLock(q: CountedQueries, cityId: string, day: CityDay, atMs = NOW_UNBOUNDED): FusionLock | null {
  const row = q.get<{ json: string }>(
    `SELECT json FROM fusion_locks INDEXED BY fusion_locks_city
     WHERE city_id = ? AND locked_ms >= ? AND locked_ms < ? AND local_date = ? ORDER BY locked_ms DESC, id DESC LIMIT 1`,
    cityId,
    day.startMs,
    Math.min(day.endMs, atMs + 1),
    day.date,
  );
  return row ? (lockAsOf(JSON.parse(row.json) as FusionLock, day.endMs, atMs) ?? null) : null;
}
