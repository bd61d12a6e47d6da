import Database from 'better-sqlite3';
import type { AlertRow, Cache, EdgeTradeView, ExportFilter, InsurancePickView } from '../../src/cache/index.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalTable } from '../../src/contract/historical.js';
import type { StrategyFamily, StrategyRecord } from '../../src/contract/strategies.js';

/**
 * The rows of one export NAME, parsed: how a test reads what the cache holds. The cache lists stored rows one way,
 * `cache.export` (what `svc-monitor export` prints), in the API's order: newest first.
 */
export function exported<T = Record<string, unknown>>(cache: Cache, name: string, filter?: ExportFilter): T[] {
  return cache.export.rows(name, filter).map((text) => JSON.parse(text) as T);
}

/** Every stored alert, newest first. */
export const storedAlerts = (cache: Cache): AlertRow[] => exported<AlertRow>(cache, 'alerts');

/** The records of a family not settled yet (outcome null), newest first. */
export const openRecords = <T extends StrategyRecord = StrategyRecord>(cache: Cache, family: StrategyFamily): T[] =>
  exported<T>(cache, family).filter((record) => record.outcome == null);

/** The fusion locks held, newest first. */
export const storedLocks = (cache: Cache): FusionLock[] => exported<FusionLock>(cache, 'fusion-locks');

/** The insurance picks held (created and kill merged), newest first. */
export const storedPicks = (cache: Cache): InsurancePickView[] => exported<InsurancePickView>(cache, 'insurance-picks');

/** The edge trades held (entry and exit merged), newest first. */
export const storedTrades = (cache: Cache): EdgeTradeView[] => exported<EdgeTradeView>(cache, 'edge-trades');

/**
 * SQL of a test's own over the cache's file (its typed columns, say), on a read-only connection of its own: what
 * another process would see. Closed again after `read`.
 */
export function readCacheFile<T>(cache: Cache, read: (db: Database.Database) => T): T {
  const db = new Database(cache.file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The first row of one export NAME (the newest), read lazily: a 100,000-row table is not read for it. */
export function newestExported<T = Record<string, unknown>>(cache: Cache, name: string): T | undefined {
  const rows = cache.export.iterate(name);
  try {
    const first = rows.next();
    return first.done ? undefined : (JSON.parse(first.value) as T);
  } finally {
    rows.return?.();
  }
}

/** Rows held of a historical table, counted in SQL. */
export const historicalCount = (cache: Cache, table: HistoricalTable): number =>
  readCacheFile(cache, (db) => db.prepare(`SELECT count(*) FROM h_${table}`).pluck().get() as number);
