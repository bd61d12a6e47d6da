import { historicalSqlTable } from '../db/tables.js';

/**
 * A table that retention thins (DESIGN 4 "retention"): its rows of a window, each with its row id, its own time (`t`),
 * its city and what else tells its series apart (`part`); of each series and whole local hour only the newest row at
 * or before HH:00 stays (every row at that instant: a snapshot's buckets, a run's dates).
 */
export interface ThinnedTable {
  /** As `export` and the API name it. */
  name: string;
  /** The rows with `t` in (from, to], in time order (a window stops at an hour all of whose rows it read). Args: from, to. */
  rowsSql: string;
  /** Deletes one row by its id. */
  deleteSql: string;
  /** The oldest `t` of the table, by its time index. */
  oldestSql: string;
  /** The time of the Nth row after an instant, by the time index: where a window of about N rows ends. Args: from, N. */
  nthAfterSql: string;
  /**
   * A historical table's rows read and written whole: the rows kept of a thinned hour are written again after the
   * hour's rows are deleted, so they fill pages of their own rather than half of the pages they shared with the rows
   * deleted (SQLite merges pages only below a third full). Args: rid; rid, city_id, t, json.
   */
  rewrite?: { selectSql: string; insertSql: string };
}

const rewrite = (name: string) => ({
  selectSql: `SELECT rid, city_id, t, json FROM ${name} WHERE rid = ?`,
  insertSql: `INSERT INTO ${name} (rid, city_id, t, json) VALUES (?, ?, ?, ?)`,
});

const nthAfter = (name: string) => `SELECT t FROM ${name} INDEXED BY ${name}_t WHERE t > ? ORDER BY t LIMIT 1 OFFSET ?`;

/** A venue's bucket snapshots: one series a city, market day and bucket (a row is one bucket's quote). */
function buckets(table: 'mkta_buckets_history' | 'mktb_buckets_history'): ThinnedTable {
  const name = historicalSqlTable(table);
  return {
    name: table,
    rowsSql: `SELECT rid AS id, t, city_id,
        json_extract(json, '$.local_date') || '|' || json_extract(json, '$.bucket_slug') AS part
      FROM ${name} INDEXED BY ${name}_t WHERE t > ? AND t <= ? ORDER BY t`,
    deleteSql: `DELETE FROM ${name} WHERE rid = ?`,
    oldestSql: `SELECT min(t) FROM ${name}`,
    nthAfterSql: nthAfter(name),
    rewrite: rewrite(name),
  };
}

/**
 * A table of polled answers (`current_obs`, `forecasts`), timed by `fetched_ms` and its `<table>_fetched` index: one
 * series a city and `part` (a source, a layer), the rows of `whole` never thinned.
 */
function polls(name: string, table: string, part: string, whole: string): ThinnedTable {
  const kept = `${part} <> '${whole}'`;
  return {
    name,
    rowsSql: `SELECT rowid AS id, fetched_ms AS t, city_id, ${part} AS part
      FROM ${table} INDEXED BY ${table}_fetched
      WHERE fetched_ms > ? AND fetched_ms <= ? AND ${kept} ORDER BY fetched_ms`,
    deleteSql: `DELETE FROM ${table} WHERE rowid = ?`,
    oldestSql: `SELECT min(fetched_ms) FROM ${table} WHERE ${kept}`,
    nthAfterSql: `SELECT fetched_ms FROM ${table} INDEXED BY ${table}_fetched WHERE fetched_ms > ? ORDER BY fetched_ms LIMIT 1 OFFSET ?`,
  };
}

const FORECAST_HISTORY = historicalSqlTable('forecast_history');

/**
 * A `/current` source's history (wxa, wxb, pws): one series a city, and the rows with a temperature apart from those
 * without, so the newest reading with a temperature at or before HH:00, which the board's reading as of an instant
 * takes (market/readings-as-of.ts), stays.
 */
function readings(table: 'wxa_history' | 'wxb_history' | 'pws_observations_history'): ThinnedTable {
  const name = historicalSqlTable(table);
  return {
    name: table,
    rowsSql: `SELECT rid AS id, t, city_id, json_type(json, '$.temp_f') IN ('integer', 'real') AS part
      FROM ${name} INDEXED BY ${name}_t WHERE t > ? AND t <= ? ORDER BY t`,
    deleteSql: `DELETE FROM ${name} WHERE rid = ?`,
    oldestSql: `SELECT min(t) FROM ${name}`,
    nthAfterSql: nthAfter(name),
    rewrite: rewrite(name),
  };
}

/**
 * What is thinned. Whatever else the cache holds stays whole: METAR readings (history and the polls' `metar_observations`
 * source: the running high is the highest of them all), `model_tmax_range` (a BREAKTHROUGH is judged against the
 * models published before each reading, at any minute), daily tables, strategy records, locks, webhook events and
 * alerts.
 */
export const THINNED_TABLES: readonly ThinnedTable[] = [
  buckets('mkta_buckets_history'),
  buckets('mktb_buckets_history'),
  readings('wxa_history'),
  readings('wxb_history'),
  readings('pws_observations_history'),
  {
    // the desk's runs: one series a city (a run's rows for several dates share its instant, and stay together)
    name: 'forecast_history',
    rowsSql: `SELECT rid AS id, t, city_id, '' AS part
      FROM ${FORECAST_HISTORY} INDEXED BY ${FORECAST_HISTORY}_t WHERE t > ? AND t <= ? ORDER BY t`,
    deleteSql: `DELETE FROM ${FORECAST_HISTORY} WHERE rid = ?`,
    oldestSql: `SELECT min(t) FROM ${FORECAST_HISTORY}`,
    nthAfterSql: nthAfter(FORECAST_HISTORY),
    rewrite: rewrite(FORECAST_HISTORY),
  },
  // `/current` polls: one series a city and source
  polls('current', 'current_obs', 'source', 'metar_observations'),
  // `/forecasts` polls: one series a city and layer
  polls('forecasts', 'forecasts', 'layer', 'model_tmax_range'),
];
