import type { Statement } from 'better-sqlite3';
import type { City } from '../contract/cities.js';
import type { CurrentSource, CurrentSourceName } from '../contract/current.js';
import type { EdgeEnsembleDaily, ForecastLayerName, ModelTmaxRange, SvcProForecast } from '../contract/forecasts.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import type { HistoricalRow, HistoricalTable } from '../contract/historical.js';
import type { StrategyFamily, StrategyRecord } from '../contract/strategies.js';
import { Where } from './export.js';
import { historicalSqlTable, strategySqlTable } from './schema.js';
import { instantMs } from './time.js';

/** A stored `/current` source: the member as received, preceded by its city and source. */
export type CurrentRow = { city_id: string; source: CurrentSourceName } & CurrentSource;
/** A stored `/forecasts` layer: the member as received, with its layer (and the snapshot's fetched_at). */
export type ForecastRow = { layer: ForecastLayerName; fetched_at: string } & (
  | SvcProForecast
  | EdgeEnsembleDaily
  | ModelTmaxRange
);

export interface ListOptions {
  cityId?: string;
  limit?: number;
}

const parseAll = <T>(texts: unknown[]): T[] => (texts as string[]).map((t) => JSON.parse(t) as T);

/** The reads the TUI makes; every list comes from an index, newest first unless said otherwise. */
export class CacheReads {
  constructor(private readonly prepared: (sql: string) => Statement<unknown[]>) {}

  cities(): City[] {
    return parseAll(this.prepared('SELECT json FROM cities ORDER BY city_id').pluck().all());
  }

  /** The newest snapshot of each source of a city. */
  latestCurrent(cityId: string): CurrentRow[] {
    return parseAll(this.latest('current_obs', 'source', cityId));
  }

  /** The newest snapshot of each forecast layer of a city. */
  latestForecasts(cityId: string): ForecastRow[] {
    return parseAll(this.latest('forecasts', 'layer', cityId));
  }

  /** Every kept observation of a city in a window (instants, inclusive), oldest first: the offline chart. */
  currentSeries(
    cityId: string,
    window: { since?: string; until?: string; source?: CurrentSourceName } = {},
  ): { source: CurrentSourceName; fetched_at: string; temp_f: number | null }[] {
    const where = new Where(cityId);
    if (window.source !== undefined) where.add('source = ?', window.source);
    where.bounds('fetched_ms', {
      since: instantMs(window.since) ?? undefined,
      until: instantMs(window.until) ?? undefined,
    });
    const sql = `SELECT source, fetched_at, temp_f FROM current_obs${where} ORDER BY fetched_ms`;
    return this.prepared(sql).all(...where.args) as { source: CurrentSourceName; fetched_at: string; temp_f: number }[];
  }

  strategies(family: StrategyFamily, opts: ListOptions & { open?: boolean } = {}): StrategyRecord[] {
    const where = new Where(opts.cityId);
    if (opts.open !== undefined) where.add('open = ?', opts.open ? 1 : 0);
    const sql = `SELECT json FROM ${strategySqlTable(family)}${where} ORDER BY id DESC LIMIT ?`;
    return parseAll(
      this.prepared(sql)
        .pluck()
        .all(...where.args, opts.limit ?? -1),
    );
  }

  fusionLocks(opts: ListOptions & { resolved?: boolean } = {}): FusionLock[] {
    const where = new Where(opts.cityId);
    if (opts.resolved !== undefined) where.add('resolved = ?', opts.resolved ? 1 : 0);
    const sql = `SELECT json FROM fusion_locks${where} ORDER BY locked_ms DESC, id DESC LIMIT ?`;
    return parseAll(
      this.prepared(sql)
        .pluck()
        .all(...where.args, opts.limit ?? -1),
    );
  }

  /** A page of a historical table, id descending; `beforeId` continues after the last id of the previous page. */
  historical(table: HistoricalTable, opts: ListOptions & { beforeId?: number } = {}): HistoricalRow[] {
    const where = new Where(opts.cityId);
    if (opts.beforeId !== undefined) where.add('rid > ?', -opts.beforeId);
    const sql = `SELECT json FROM ${historicalSqlTable(table)}${where} ORDER BY rid LIMIT ?`;
    return parseAll(
      this.prepared(sql)
        .pluck()
        .all(...where.args, opts.limit ?? 100),
    );
  }

  /** Rows held of a historical table (a full count: for status lines, not for every frame). */
  historicalCount(table: HistoricalTable): number {
    return this.prepared(`SELECT count(*) FROM ${historicalSqlTable(table)}`)
      .pluck()
      .get() as number;
  }

  newestLockedAt(): string | undefined {
    return this.prepared('SELECT locked_at FROM fusion_locks ORDER BY locked_ms DESC, id DESC LIMIT 1').pluck().get() as
      | string
      | undefined;
  }

  oldestUnresolvedLockedAt(): string | undefined {
    return this.prepared('SELECT locked_at FROM fusion_locks WHERE resolved = 0 ORDER BY locked_ms, id LIMIT 1')
      .pluck()
      .get() as string | undefined;
  }

  private latest(table: string, member: string, cityId: string): unknown[] {
    const sql = `SELECT json FROM ${table} AS a WHERE city_id = ? AND fetched_ms =
      (SELECT max(fetched_ms) FROM ${table} AS b WHERE b.city_id = a.city_id AND b.${member} = a.${member})`;
    return this.prepared(sql).pluck().all(cityId);
  }
}
