import type { Statement } from 'better-sqlite3';
import type { City } from '../contract/cities.js';
import { CURRENT_SOURCES, type CurrentObservations } from '../contract/current.js';
import { FORECAST_LAYERS, type Forecasts } from '../contract/forecasts.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import {
  HISTORICAL_TIME_COLUMN,
  type HistoricalRow,
  type HistoricalTable,
  isHistoricalTable,
} from '../contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily, type StrategyRecord } from '../contract/strategies.js';
import { type ExportFilter, exportIterate } from './export.js';
import { type InboxEntry, InboxRepo, type IntakeOutcome, inboxChanges, type RejectedWebhook } from './inbox.js';
import { type AlertRow, MetaRepo, type NewAlert, type StreamState } from './meta.js';
import { type CacheDb, CacheError } from './open-cache.js';
import { PaneReads } from './pane-reads.js';
import { CacheReads } from './reads.js';
import { historicalSqlTable, strategySqlTable } from './schema.js';
import { statementCache } from './statements.js';
import { instantMs } from './time.js';
import { UpsertWriter, type WriteCounts } from './upsert.js';

export type { StreamName, StreamState } from './meta.js';
export type { WriteCounts } from './upsert.js';

/**
 * A committed change: `table` is the export NAME of what changed (`cities`, `current`, `forecasts`, `no24`,
 * `yescore`, `svc-max-picks`, `fusion-locks`, `historical/<table>`, `alerts`) or `streams`; `ids` are the row ids
 * (city_id for cities, current and forecasts; the record, lock, row or alert id; the stream name).
 */
export interface ChangeEvent {
  table: string;
  ids: (string | number)[];
}

export interface Checkpoint {
  stream: string;
  value: string;
}

type Listener = (event: ChangeEvent) => void;

/**
 * The monitor's cache: the only SQL of the monitor. Every write method is one transaction and returns what it did;
 * after the commit, listeners get one change event when rows changed. Reads for the TUI are on `reads`.
 */
export class Cache {
  readonly db: CacheDb;
  /** The TUI's reads (lists, latest snapshots, chart series). */
  readonly reads: CacheReads;
  private readonly prepared: (sql: string) => Statement<unknown[]>;
  private readonly meta: MetaRepo;
  /** The webhook inbox's reads: picks, trades, events. */
  readonly inbox: InboxRepo;
  /** The terminal UI's pane reads: the Signals feed, positions, alerts, browsing, quotes (counted). */
  readonly panes: PaneReads;
  private readonly listeners = new Set<Listener>();
  private readonly writers = new Map<string, UpsertWriter>();

  constructor(db: CacheDb) {
    this.db = db;
    this.prepared = statementCache(db);
    this.meta = new MetaRepo(this.prepared);
    this.reads = new CacheReads(this.prepared);
    this.inbox = new InboxRepo(this.prepared, this.meta);
    this.panes = new PaneReads(this.prepared);
  }

  /**
   * Subscribes to change events; returns the unsubscribe function. Listeners run synchronously after the commit;
   * one that throws does not stop the others, and the first error is rethrown to the writer (the data is
   * committed either way).
   */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  upsertCities(rows: City[]): WriteCounts {
    const { args, ids } = this.rows();
    for (const r of rows) {
      args.push(r.city_id, JSON.stringify(r));
      ids?.push(r.city_id);
    }
    return this.write('cities', this.writer('cities', ['city_id'], ['json'], 'upsert', 'city_id'), args, ids);
  }

  /**
   * `/current` of one city: each source kept per distinct fetched_at (insert-or-ignore on city, source and the
   * fetched_at instant). Stored and exported as `{city_id, source, ...member}`, the member as received.
   */
  addCurrent(value: CurrentObservations): WriteCounts {
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
    return this.write('current', writer, args, ids);
  }

  /**
   * `/forecasts` of one city: each layer kept per distinct fetched_at; a layer without one takes the
   * svc_pro_forecast fetched_at of the same response. Stored and exported as `{city_id, layer, ...member}`, the
   * member as received, plus that `fetched_at` at the end when the member has none. A snapshot whose content
   * changed under the same fetched_at is updated (newest wins).
   */
  addForecasts(value: Forecasts): WriteCounts {
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
    return this.write('forecasts', writer, args, ids);
  }

  /** Strategy records by (family, id): inserted, or updated when the JSON differs (open -> resolved). */
  upsertStrategy(family: StrategyFamily, rows: StrategyRecord[]): WriteCounts {
    if (!(STRATEGY_FAMILIES as readonly string[]).includes(family)) {
      throw new CacheError(`unknown strategy family '${family}'; valid: ${STRATEGY_FAMILIES.join(', ')}`);
    }
    const { args, ids } = this.rows();
    for (const r of rows) {
      args.push(integerId(r.id, family), r.city_id, r.local_date, r.outcome == null ? 1 : 0, JSON.stringify(r));
      ids?.push(r.id);
    }
    const writer = this.writer(strategySqlTable(family), ['id'], ['city_id', 'local_date', 'open', 'json']);
    return this.write(family, writer, args, ids);
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
  upsertHistorical(table: HistoricalTable, rows: HistoricalRow[], checkpoint?: Checkpoint): WriteCounts {
    if (!isHistoricalTable(table)) throw new CacheError(`'${table}' is not a whitelisted historical table`);
    const { column, kind } = HISTORICAL_TIME_COLUMN[table];
    const { args, ids } = this.rows();
    for (const r of rows) {
      const time = r[column];
      const t = kind === 'instant' ? instantMs(time) : typeof time === 'string' ? time : null;
      args.push(-integerId(r.id, table), r.city_id ?? null, t, JSON.stringify(r));
      ids?.push(r.id);
    }
    const writer = this.writer(historicalSqlTable(table), ['rid'], ['city_id', 't', 'json'], 'upsert', '-rid');
    return this.write(`historical/${table}`, writer, args, ids, checkpoint);
  }

  /**
   * Accepted webhook deliveries, all in one transaction (the receiver's group commit): each is stored or found a
   * duplicate, in order. Change events follow the commit; a listener that throws is reported as a process
   * warning, never to the caller, whose events are committed.
   */
  intakeWebhooks(entries: readonly InboxEntry[]): IntakeOutcome[] {
    const outcomes = this.db.transaction(() => entries.map((entry) => this.inbox.intake(entry)))();
    const stored = entries.filter((_, i) => outcomes[i] === 'stored');
    if (stored.length === 0) return outcomes;
    // a listener's failure must not reach the receiver (it would refuse events that are committed), nor keep the
    // other changes from being announced
    for (const change of inboxChanges(stored)) {
      try {
        this.emit(change);
      } catch (error) {
        process.emitWarning(
          `a cache change listener failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return outcomes;
  }

  /** A signed delivery that was not accepted: its bytes kept and a warning alert, in one transaction. */
  rejectWebhook(rejected: RejectedWebhook, alertMessage: string): void {
    const id = this.db.transaction(() => {
      this.inbox.reject(rejected);
      return this.meta.addAlert({
        severity: 'warning',
        kind: 'webhook-rejected',
        ref: rejected.deliveryId,
        created_at: rejected.receivedAt,
        message: alertMessage,
      });
    })();
    this.emit({ table: 'alerts', ids: [id] });
  }

  /**
   * SQLite's `data_version`: it changes when another connection (a `sync` or `listen` in another process) commits
   * to the file. Change events only come from this connection's own writes; the TUI polls this for the rest.
   */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  getCheckpoint(stream: string): string | undefined {
    return this.meta.getCheckpoint(stream);
  }

  setCheckpoint(stream: string, value: string): void {
    this.meta.setCheckpoint(stream, value);
  }

  /** The newest locked_at held, as the server wrote it. */
  newestLockedAt(): string | undefined {
    return this.reads.newestLockedAt();
  }

  /** The oldest locked_at among the unresolved locks held, as the server wrote it. */
  oldestUnresolvedLockedAt(): string | undefined {
    return this.reads.oldestUnresolvedLockedAt();
  }

  recordStreamSuccess(stream: string, at: string, rows: number): void {
    this.meta.recordStreamSuccess(stream, at, rows);
    this.emit({ table: 'streams', ids: [stream] });
  }

  recordStreamError(stream: string, at: string, error: string): void {
    this.meta.recordStreamError(stream, at, error);
    this.emit({ table: 'streams', ids: [stream] });
  }

  streamStates(): StreamState[] {
    return this.meta.streamStates();
  }

  addAlert(alert: NewAlert): number {
    const id = this.meta.addAlert(alert);
    this.emit({ table: 'alerts', ids: [id] });
    return id;
  }

  alerts(opts?: { unacknowledged?: boolean }): AlertRow[] {
    return this.meta.alerts(opts);
  }

  /** Whether an alert of this kind about this ref was raised already. */
  hasAlert(kind: string, ref: string): boolean {
    return this.meta.hasAlert(kind, ref);
  }

  acknowledgeAlert(id: number, at: string): boolean {
    const done = this.meta.acknowledgeAlert(id, at);
    if (done) this.emit({ table: 'alerts', ids: [id] });
    return done;
  }

  /**
   * Rows for `svc-monitor export NAME`: the exact JSON texts stored, newest version of each row, in API order
   * (cities by city_id; current and forecasts by fetched_at, city, then member order; strategies and historical
   * by id desc; locks by locked_at desc, id desc; alerts by id desc). `cityId` filters city_id; `since`/`until`
   * (inclusive, YYYY-MM-DD or an ISO instant) bound the DESIGN.md section 4 column of a historical table,
   * local_date of strategies, locked_at of locks, fetched_at of current and forecasts, created_at of alerts,
   * received_at of webhook events, market_date of picks and edge trades; they do not apply to cities. Unknown NAME
   * or a bad date: CacheError.
   */
  exportRows(name: string, filter?: ExportFilter): string[] {
    return [...exportIterate(this.prepared, name, filter)];
  }

  /** `exportRows` lazily, for large tables; the cache cannot be written until the iteration ends. */
  exportIterate(name: string, filter?: ExportFilter): IterableIterator<string> {
    return exportIterate(this.prepared, name, filter);
  }

  /** A flat argument array for the rows of one write, and their event ids when someone listens. */
  private rows(): { args: unknown[]; ids: (string | number)[] | undefined } {
    return { args: [], ids: this.listeners.size > 0 ? [] : undefined };
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
    event: string,
    writer: UpsertWriter,
    args: unknown[],
    ids: (string | number)[] | undefined,
    checkpoint?: Checkpoint,
  ): WriteCounts {
    const result = this.db.transaction(() => {
      const written = writer.write(args, ids);
      if (checkpoint) this.meta.setCheckpoint(checkpoint.stream, checkpoint.value);
      return written;
    })();
    if (result.changed.length > 0) this.emit({ table: event, ids: [...new Set(result.changed)] });
    return { inserted: result.inserted, updated: result.updated, unchanged: result.unchanged };
  }

  /** Every listener hears every event; the first failure is rethrown after all of them ran. */
  private emit(event: ChangeEvent): void {
    let failure: unknown;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }
}

/** An integer key, checked: SQLite would turn a missing one into a fresh rowid instead of failing. */
function integerId(id: unknown, what: string): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
    throw new CacheError(`${what} row without an integer id (${JSON.stringify(id)})`);
  }
  return id;
}
