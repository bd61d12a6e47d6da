import { FORECAST_LAYERS } from '../../contract/names.js';
import type { CountedQueries } from '../db/counted-queries.js';
import { historicalSqlTable } from '../db/tables.js';
import { NOW_UNBOUNDED } from '../db/time.js';
import type { ForecastRow } from '../resources.js';

/** The newest row of one forecast layer of a city fetched at or before an instant. Args: city, layer, instant. */
export const FORECAST_AS_OF_SQL =
  'SELECT fetched_ms, json FROM forecasts WHERE city_id = ? AND layer = ? AND fetched_ms <= ? ORDER BY fetched_ms DESC LIMIT 1';

const HISTORY = historicalSqlTable('forecast_history');

/**
 * The newest `forecast_history` row of a city fetched within [from, to], by the time index (the desk publishes every
 * city each hour, so the city's newest row is among the first dozen). Args: to, from, city.
 */
export const FORECAST_HISTORY_AS_OF_SQL = `SELECT t, json FROM ${HISTORY} INDEXED BY ${HISTORY}_t
  WHERE t <= ? AND t >= ? AND city_id = ? ORDER BY t DESC LIMIT 1`;

/**
 * How far back `forecast_history` is searched for the desk's forecast as of an instant: the desk publishes hourly, so a
 * day without a run is a gap in the cache, not a forecast still current; the bound keeps a city with no history rows
 * from costing a walk of the whole table.
 */
export const FORECAST_HISTORY_LOOKBACK_MS = 24 * 3_600_000;

/**
 * A `forecast_history` row as the `svc_pro_forecast` layer it records (spec 2.4 names only `id`, `city_id` and
 * `local_date`; the service writes the desk's run into it: `fetched_at`, `predicted_max_f`/`_c`, `sigma_f`/`_c`,
 * `pacing_delta`, `hottest_model`). The layer's lists and text that it does not carry (the models used, the
 * reasoning, the hourly points) are empty, so a screen shows "none" rather than fail on a missing list; its
 * `pacing_source` says where the run was read from.
 */
export function historyForecastRow(row: Record<string, unknown>): ForecastRow {
  const { id: _id, ...desk } = row;
  const absent = { models_used: [], reasoning: '', hourly: [], pacing_source: 'forecast_history' };
  return { ...absent, ...desk, layer: 'svc_pro_forecast' } as unknown as ForecastRow;
}

/**
 * The newest row of each forecast layer of a city fetched at or before an instant: one seek a layer down the primary
 * key `(city_id, layer, fetched_ms)`, so as cheap for a past instant as for now. The desk's layer may also be in
 * `forecast_history` (filled by a backfill, where `forecasts` holds only what was polled): the newer of the two wins,
 * and at the same fetched instant (the same run) the `forecasts` row, which is the whole layer. History rows older
 * than the `forecasts` row, or than `FORECAST_HISTORY_LOOKBACK_MS` before the instant, are not looked at.
 */
export function forecastsAsOf(q: CountedQueries, cityId: string, atMs = NOW_UNBOUNDED): ForecastRow[] {
  const out: ForecastRow[] = [];
  for (const layer of FORECAST_LAYERS) {
    const polled = q.get<{ fetched_ms: number; json: string }>(FORECAST_AS_OF_SQL, cityId, layer, atMs);
    const poll = polled && { ms: polled.fetched_ms, row: () => JSON.parse(polled.json) as ForecastRow };
    const history = layer === 'svc_pro_forecast' ? newerHistoryRow(q, cityId, atMs, poll?.ms) : undefined;
    const desk = deskRowAt(poll, history, atMs);
    if (desk) out.push(desk.row());
  }
  return out;
}

/**
 * The desk's forecast at an instant, of the newest poll (`forecasts`) and the newest `forecast_history` row at or
 * before it: the history row when it is newer than the poll and within `FORECAST_HISTORY_LOOKBACK_MS`, else the poll
 * (at the same fetched instant, the same run: the poll, which is the whole layer). The one place of the rule: the
 * board's read (`forecastsAsOf`) and the board's record (history/board-record-days.ts) both choose by it.
 */
export function deskRowAt<T extends { ms: number }>(
  poll: T | undefined,
  history: T | undefined,
  atMs: number,
): T | undefined {
  // as of the newest row (no instant), the lookback runs from the newest history row, which this one then is
  const recent = atMs >= NOW_UNBOUNDED || (history !== undefined && history.ms >= atMs - FORECAST_HISTORY_LOOKBACK_MS);
  const usable = history && history.ms <= atMs && recent;
  return usable && (poll === undefined || history.ms > poll.ms) ? history : poll;
}

/** The city's newest `forecast_history` row at or before `atMs` and after `afterMs`, if any, as the desk's layer. */
function newerHistoryRow(
  q: CountedQueries,
  cityId: string,
  atMs: number,
  afterMs: number | undefined,
): { ms: number; row: () => ForecastRow } | undefined {
  let to = atMs;
  if (to >= NOW_UNBOUNDED) {
    const newest = q.get<{ t: number | null }>(`SELECT max(t) AS t FROM ${HISTORY}`)?.t;
    if (newest == null) return undefined;
    to = newest;
  }
  const from = Math.max(
    to - FORECAST_HISTORY_LOOKBACK_MS,
    afterMs === undefined ? Number.MIN_SAFE_INTEGER : afterMs + 1,
  );
  if (from > to) return undefined;
  const found = q.get<{ t: number; json: string }>(FORECAST_HISTORY_AS_OF_SQL, to, from, cityId);
  return found && { ms: found.t, row: () => historyForecastRow(JSON.parse(found.json) as Record<string, unknown>) };
}
