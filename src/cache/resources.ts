import type { Statement } from 'better-sqlite3';
import type { City } from '../contract/cities.js';
import type { CurrentObservations, CurrentSource } from '../contract/current.js';
import type { EdgeEnsembleDaily, Forecasts, ModelTmaxRange, SvcProForecast } from '../contract/forecasts.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import type { HistoricalRow } from '../contract/historical.js';
import {
  CURRENT_SOURCES,
  type CurrentSourceName,
  FORECAST_LAYERS,
  type ForecastLayerName,
  HISTORICAL_TIME_COLUMN,
  type HistoricalTable,
  isHistoricalTable,
  STRATEGY_FAMILIES,
  type StrategyFamily,
} from '../contract/names.js';
import type { StrategyRecord } from '../contract/strategies.js';
import type { SqliteDb } from '../sqlite/open-database.js';
import { type Answer, AnswerMemo } from './db/answer-memo.js';
import { CacheError } from './db/cache-error.js';
import type { ChangeEvents } from './db/change-events.js';
import { historicalSqlTable, strategySqlTable } from './db/tables.js';
import { instantMs } from './db/time.js';
import { UpsertWriter, type WriteCounts } from './db/upsert-writer.js';
import type { Checkpoint, StreamRepository } from './streams.js';
import type { CacheTopic } from './topics.js';

/** A stored `/current` source: the member as received, preceded by its city and source. */
export type CurrentRow = { city_id: string; source: CurrentSourceName } & CurrentSource;
/** A stored `/forecasts` layer: the member as received, with its layer (and the snapshot's fetched_at). */
export type ForecastRow = { layer: ForecastLayerName; fetched_at: string } & (
  | SvcProForecast
  | EdgeEnsembleDaily
  | ModelTmaxRange
);

const parseAll = <T>(texts: unknown[]): T[] => (texts as string[]).map((t) => JSON.parse(t) as T);

/**
 * The API's resources as the sync writes them (cities, current observations, forecasts, strategy records, fusion
 * locks, historical rows), and the reads of them that are not a pane's list. Every write is one transaction and
 * returns what it did; after the commit, one change event names the rows that changed. A write given the `answer`
 * its rows were parsed from returns at once, every row unchanged, when the memo proves them stored as they are.
 */
export class ResourceRepository {
  private readonly writers = new Map<string, UpsertWriter>();
  private readonly memo: AnswerMemo;

  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
    private readonly streams: StreamRepository,
    private readonly changes: ChangeEvents,
  ) {
    this.memo = new AnswerMemo(db);
  }

  upsertCities(rows: City[], answer?: Answer): WriteCounts {
    if (this.memo.isStored('cities', answer)) return unchanged(rows.length);
    const { args, ids } = this.rows();
    for (const r of rows) {
      args.push(r.city_id, JSON.stringify(r));
      ids?.push(r.city_id);
    }
    const writer = this.writer('cities', ['city_id'], ['json'], 'upsert', 'city_id');
    return this.write('cities', writer, args, ids, undefined, answer);
  }

  /**
   * `/current` of one city: each source kept per distinct fetched_at (insert-or-ignore on city, source and the
   * fetched_at instant). Stored and exported as `{city_id, source, ...member}`, the member as received.
   */
  addCurrent(value: CurrentObservations, answer?: Answer): WriteCounts {
    if (this.memo.isStored('current_obs', answer)) return unchanged(CURRENT_SOURCES.length);
    const { args, ids } = this.rows();
    for (const source of CURRENT_SOURCES) {
      const member = value[source];
      const temp = typeof member.temp_f === 'number' ? member.temp_f : null;
      const json = JSON.stringify({ city_id: value.city_id, source, ...member });
      args.push(value.city_id, source, instantMs(member.fetched_at), member.fetched_at, temp, json);
      ids?.push(value.city_id);
    }
    const key = ['city_id', 'source', 'fetched_ms'];
    const writer = this.writer('current_obs', key, ['fetched_at', 'temp_f', 'json'], 'ignore');
    return this.write('current', writer, args, ids, undefined, answer);
  }

  /**
   * `/forecasts` of one city: each layer kept per distinct fetched_at; a layer without one takes the
   * svc_pro_forecast fetched_at of the same response. Stored and exported as `{city_id, layer, ...member}`, the
   * member as received, plus that `fetched_at` at the end when the member has none. A snapshot whose content
   * changed under the same fetched_at is updated (newest wins).
   */
  addForecasts(value: Forecasts, answer?: Answer): WriteCounts {
    if (this.memo.isStored('forecasts', answer)) return unchanged(FORECAST_LAYERS.length);
    const { args, ids } = this.rows();
    const snapshotAt = value.svc_pro_forecast.fetched_at;
    for (const layer of FORECAST_LAYERS) {
      const member = value[layer];
      const own = member.fetched_at;
      const fetchedAt = own ?? snapshotAt;
      const row = Object.assign({ city_id: value.city_id, layer }, member);
      const json = JSON.stringify(own === undefined ? { ...row, fetched_at: snapshotAt } : row);
      args.push(value.city_id, layer, instantMs(fetchedAt), fetchedAt, member.local_date, json);
      ids?.push(value.city_id);
    }
    const writer = this.writer('forecasts', ['city_id', 'layer', 'fetched_ms'], ['fetched_at', 'local_date', 'json']);
    return this.write('forecasts', writer, args, ids, undefined, answer);
  }

  /** Strategy records by (family, id): inserted, or updated when the JSON differs (open -> resolved). */
  upsertStrategy(family: StrategyFamily, rows: StrategyRecord[], answer?: Answer): WriteCounts {
    if (!(STRATEGY_FAMILIES as readonly string[]).includes(family)) {
      throw new CacheError(`unknown strategy family '${family}'; valid: ${STRATEGY_FAMILIES.join(', ')}`);
    }
    if (this.memo.isStored(strategySqlTable(family), answer)) return unchanged(rows.length);
    const { args, ids } = this.rows();
    for (const r of rows) {
      args.push(integerId(r.id, family), r.city_id, r.local_date, r.outcome == null ? 1 : 0, JSON.stringify(r));
      ids?.push(r.id);
    }
    const writer = this.writer(strategySqlTable(family), ['id'], ['city_id', 'local_date', 'open', 'json']);
    return this.write(family, writer, args, ids, undefined, answer);
  }

  /**
   * Fusion locks by id: inserted, or updated when the JSON differs (resolution). `checkpoint`, when given, is
   * written in the same transaction.
   */
  upsertFusionLocks(rows: FusionLock[], checkpoint?: Checkpoint): WriteCounts {
    const { args, ids } = this.rows();
    for (const r of rows) {
      const resolved = r.resolved === true ? 1 : r.resolved === false ? 0 : null;
      args.push(r.id, r.city_id, r.local_date, r.locked_at, instantMs(r.locked_at), resolved, JSON.stringify(r));
      ids?.push(r.id);
    }
    const columns = ['city_id', 'local_date', 'locked_at', 'locked_ms', 'resolved', 'json'];
    return this.write('fusion-locks', this.writer('fusion_locks', ['id'], columns), args, ids, checkpoint);
  }

  /** Historical rows of one whitelisted table by id; `checkpoint`, when given, in the same transaction. */
  upsertHistorical(
    table: HistoricalTable,
    rows: HistoricalRow[],
    checkpoint?: Checkpoint,
    answer?: Answer,
  ): WriteCounts {
    if (!isHistoricalTable(table)) throw new CacheError(`'${table}' is not a whitelisted historical table`);
    if (this.memo.isStored(historicalSqlTable(table), answer)) {
      // nothing to write but the checkpoint, which moves with the page as when its rows are written
      if (checkpoint) this.streams.setCheckpoint(checkpoint.stream, checkpoint.value);
      return unchanged(rows.length);
    }
    const { column, kind } = HISTORICAL_TIME_COLUMN[table];
    const { args, ids } = this.rows();
    for (const r of rows) {
      const time = r[column];
      const t = kind === 'instant' ? instantMs(time) : typeof time === 'string' ? time : null;
      args.push(-integerId(r.id, table), r.city_id ?? null, t, JSON.stringify(r));
      ids?.push(r.id);
    }
    const writer = this.writer(historicalSqlTable(table), ['rid'], ['city_id', 't', 'json'], 'upsert', '-rid');
    return this.write(`historical/${table}`, writer, args, ids, checkpoint, answer);
  }

  /** Every city, by id. */
  cities(): City[] {
    return parseAll(this.prepared('SELECT json FROM cities ORDER BY city_id').pluck().all());
  }

  /** The ids of every city, in order: what the per-city streams walk. */
  cityIds(): string[] {
    return this.prepared('SELECT city_id FROM cities ORDER BY city_id').pluck().all() as string[];
  }

  /** The newest snapshot of each forecast layer of a city. */
  latestForecasts(cityId: string): ForecastRow[] {
    return parseAll(this.latest('forecasts', 'layer', cityId));
  }

  /** The oldest locked_at among the unresolved locks held, as the server wrote it. */
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

  /** A flat argument array for the rows of one write, and their event ids when someone listens. */
  private rows(): { args: unknown[]; ids: (string | number)[] | undefined } {
    return { args: [], ids: this.changes.heard ? [] : undefined };
  }

  private writer(
    table: string,
    key: string[],
    rest: string[],
    mode: 'upsert' | 'ignore' = 'upsert',
    eventIdSql = key[0] as string,
  ): UpsertWriter {
    let writer = this.writers.get(table);
    if (!writer) {
      writer = new UpsertWriter(this.db, table, [...key, ...rest], key, mode, eventIdSql);
      this.writers.set(table, writer);
    }
    return writer;
  }

  private write(
    event: CacheTopic,
    writer: UpsertWriter,
    args: unknown[],
    ids: (string | number)[] | undefined,
    checkpoint?: Checkpoint,
    answer?: Answer,
  ): WriteCounts {
    let dataVersion = 0;
    // IMMEDIATE: the writer reads before it writes, so it takes the write lock first (upsert-writer.ts says why)
    const result = this.db
      .transaction(() => {
        dataVersion = this.memo.dataVersion();
        const written = writer.write(args, ids);
        if (checkpoint) this.streams.setCheckpoint(checkpoint.stream, checkpoint.value);
        return written;
      })
      .immediate();
    this.memo.written(writer.table, result.inserted + result.updated, dataVersion, answer);
    if (result.changed.length > 0) this.changes.emit({ table: event, ids: [...new Set(result.changed)] });
    return { inserted: result.inserted, updated: result.updated, unchanged: result.unchanged };
  }
}

const unchanged = (rows: number): WriteCounts => ({ inserted: 0, updated: 0, unchanged: rows });

/** An integer key, checked: SQLite would turn a missing one into a fresh rowid instead of failing. */
function integerId(id: unknown, what: string): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
    throw new CacheError(`${what} row without an integer id (${JSON.stringify(id)})`);
  }
  return id;
}
