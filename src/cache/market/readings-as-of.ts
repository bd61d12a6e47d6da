import { CURRENT_SOURCES, type CurrentSourceName, type HistoricalTable } from '../../contract/names.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { CurrentRow } from '../resources.js';

/** The history table that keeps each `/current` source's readings (spec 2.4). */
export const SOURCE_HISTORY: Record<CurrentSourceName, HistoricalTable> = {
  wxa_current: 'wxa_history',
  wxb_current: 'wxb_history',
  metar_observations: 'metar_observations_history',
  pws_observations: 'pws_observations_history',
};

/**
 * How far back a source's history is searched for its reading as of an instant: the sources report every half hour,
 * so a reading older than this is a gap in the cache, not what the source says now; the bound keeps a city with no
 * history rows from costing a walk of the whole table.
 */
export const READING_LOOKBACK_MS = 6 * 3_600_000;

/** The newest poll of a source of a city at or before an instant. Args: city, source, instant. */
export const POLLED_READING_SQL = `SELECT fetched_ms AS ms, json FROM current_obs
  WHERE city_id = ? AND source = ? AND fetched_ms <= ? ORDER BY fetched_ms DESC LIMIT 1`;

/**
 * The newest history row of a city with a temperature, its own time (`observed_at` or `fetched_at`, DESIGN 4) within
 * [from, to], by the time index: every city reports each half hour, so the city's newest row is among the first few
 * dozen. Args: to, from, city.
 */
export const readingHistorySql = (table: HistoricalTable): string => {
  const name = historicalSqlTable(table);
  return `SELECT t AS ms, json FROM ${name} INDEXED BY ${name}_t
    WHERE t <= ? AND t >= ? AND city_id = ? AND json_type(json, '$.temp_f') IN ('integer', 'real')
    ORDER BY t DESC LIMIT 1`;
};

/**
 * What each of the four sources read for a city as of an instant (now by default): of its newest poll (`/current`)
 * and its history table's newest row at or before the instant (searched `READING_LOOKBACK_MS` back), the newer, and
 * at the same instant the poll. A history row stands as the source's member with `fetched_at` its own time, the
 * instant it is read as of; a source with neither is left out. Never a row after the instant: one seek down the poll's
 * primary key and one down the history's time index a source, as cheap for a past instant as for now.
 */
export function readingsAsOf(q: CountedQueries, cityId: string, atMs = NOW_UNBOUNDED): CurrentRow[] {
  const out: CurrentRow[] = [];
  for (const source of CURRENT_SOURCES) {
    const polled = q.get<{ ms: number; json: string }>(POLLED_READING_SQL, cityId, source, atMs);
    const history = historyReading(q, SOURCE_HISTORY[source], cityId, atMs);
    if (history && (!polled || history.ms > polled.ms)) {
      const { id: _id, local_date: _date, ...row } = JSON.parse(history.json) as Record<string, unknown>;
      out.push({ ...row, city_id: cityId, source, fetched_at: new Date(history.ms).toISOString() } as CurrentRow);
    } else if (polled) out.push(JSON.parse(polled.json) as CurrentRow);
  }
  return out;
}

/** A table's newest reading of a city within the lookback before `atMs` (live: before its newest row). */
function historyReading(
  q: CountedQueries,
  table: HistoricalTable,
  cityId: string,
  atMs: number,
): { ms: number; json: string } | undefined {
  let to = atMs;
  if (to >= NOW_UNBOUNDED) {
    const newest = q.get<{ t: number | null }>(`SELECT max(t) AS t FROM ${historicalSqlTable(table)}`)?.t;
    if (newest == null) return undefined;
    to = newest;
  }
  return q.get<{ ms: number; json: string }>(readingHistorySql(table), to, to - READING_LOOKBACK_MS, cityId);
}
