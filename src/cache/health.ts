import { statSync } from 'node:fs';
import type { Statement } from 'better-sqlite3';
import { sqlKind } from '../contract/alert-kinds.js';
import { HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN, STRATEGY_FAMILIES } from '../contract/names.js';
import type { SqliteDb } from '../sqlite/open-database.js';
import { historicalSqlTable, strategySqlTable } from './db/tables.js';

/** The file's own bytes and its WAL's (0 when there is none, or in memory). */
export interface CacheFileSize {
  fileBytes: number;
  walBytes: number;
}

/** Unacknowledged `notify-command-failed` alerts: how many, and the newest one's instant. */
export interface NotifyCommandFailures {
  count: number;
  newestAt: string | null;
}

/** Tables and the indexed instant (epoch ms) a row is kept at: a day of them is a range of the index. */
const INSTANT_TABLES: [table: string, column: string][] = [
  ['current_obs', 'fetched_ms'],
  ['forecasts', 'fetched_ms'],
  ['fusion_locks', 'locked_ms'],
  ...HISTORICAL_TABLES.filter((t) => HISTORICAL_TIME_COLUMN[t].kind === 'instant').map((t): [string, string] => [
    historicalSqlTable(t),
    't',
  ]),
];

/** Tables kept by local date (indexed): a day of them is the rows of one date. */
const DATE_TABLES: [table: string, column: string][] = [
  ...HISTORICAL_TABLES.filter((t) => HISTORICAL_TIME_COLUMN[t].kind === 'date').map((t): [string, string] => [
    historicalSqlTable(t),
    't',
  ]),
  ...STRATEGY_FAMILIES.map((f): [string, string] => [strategySqlTable(f), 'local_date']),
];

/** A table's name as the interface and `export` say it: `mkta_buckets_history`, not `h_mkta_buckets_history`. */
const INTERFACE_NAMES = new Map<string, string>([
  ...HISTORICAL_TABLES.map((t): [string, string] => [historicalSqlTable(t), t]),
  ...STRATEGY_FAMILIES.map((f): [string, string] => [strategySqlTable(f), f]),
]);

/**
 * What `svc-monitor status` reads of the cache itself (DESIGN 3): its size, its rows, what a day adds and a failing
 * notify command (the listener's part is `inbox.listenerHealth`). Reads only; every query is an index's end or range,
 * except the row counts, which read each table's smallest index once.
 */
export class HealthRepository {
  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
  ) {}

  fileSize(): CacheFileSize {
    if (this.db.memory) return { fileBytes: 0, walBytes: 0 };
    const bytes = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    return { fileBytes: bytes(this.db.name), walBytes: bytes(`${this.db.name}-wal`) };
  }

  /** Rows of every table of the cache, by the interface's name of the table, in name order. */
  rowsByTable(): Record<string, number> {
    const tables = this.prepared(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
      .pluck()
      .all() as string[];
    const rows: Record<string, number> = {};
    for (const table of tables) {
      // the names come from the schema itself, quoted all the same
      const count = this.prepared(`SELECT count(*) FROM "${table.replaceAll('"', '""')}"`)
        .pluck()
        .get() as number;
      rows[INTERFACE_NAMES.get(table) ?? table] = count;
    }
    return rows;
  }

  /**
   * Rows the synced tables hold for the day before `nowMs`: those kept at an instant in (now - 24 h, now], and those
   * of a date table dated the UTC day before now's (a date table gains its rows a day at a time).
   */
  rowsOfLastDay(nowMs: number): number {
    const since = nowMs - 86_400_000;
    const yesterday = new Date(since).toISOString().slice(0, 10);
    let rows = 0;
    for (const [table, column] of INSTANT_TABLES) {
      rows += this.prepared(`SELECT count(*) FROM ${table} WHERE ${column} > ? AND ${column} <= ?`)
        .pluck()
        .get(since, nowMs) as number;
    }
    for (const [table, column] of DATE_TABLES) {
      rows += this.prepared(`SELECT count(*) FROM ${table} WHERE ${column} = ?`).pluck().get(yesterday) as number;
    }
    return rows;
  }

  /** `notify-command-failed` alerts not acknowledged, raised at or after `sinceMs`. */
  notifyCommandFailures(sinceMs: number): NotifyCommandFailures {
    const kind = sqlKind('notify-command-failed');
    // one pass: with max(id), SQLite gives the bare created_at of that row (the newest)
    const { count, newestAt } = this.prepared(
      `SELECT count(*) AS count, created_at AS newestAt, max(id) FROM alerts INDEXED BY alerts_unacknowledged
       WHERE acknowledged_at IS NULL AND kind = ${kind} AND created_ms >= ?`,
    ).get(sinceMs) as { count: number; newestAt: string | null };
    return { count, newestAt };
  }
}
