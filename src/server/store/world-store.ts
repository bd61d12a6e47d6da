import type { Statement } from 'better-sqlite3';
import type { CurrentSourceName } from '../../contract/current.js';
import type { EventType } from '../../contract/events.js';
import type { ForecastLayerName } from '../../contract/forecasts.js';
import type { FusionLock } from '../../contract/fusion-locks.js';
import { HISTORICAL_TABLES, type HistoricalTable } from '../../contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily, type StrategyRecord } from '../../contract/strategies.js';
import { statementCache } from '../../sqlite/statement-cache.js';
import { contractProblem } from './event-contract.js';
import type { Db } from './open-store.js';
import { historicalSqlTable, strategySqlTable } from './schema.js';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The world's writes. Ids are handed out here, in insertion order, so a replayed world numbers rows identically. */
export class WorldStore {
  private readonly nextId = new Map<string, number>();
  private readonly prepared: (sql: string) => Statement<unknown[]>;

  constructor(readonly db: Db) {
    this.prepared = statementCache(db);
    for (const table of [...HISTORICAL_TABLES.map(historicalSqlTable), ...STRATEGY_FAMILIES.map(strategySqlTable)]) {
      const max = db.prepare(`SELECT coalesce(max(id), 0) FROM ${table}`).pluck().get() as number;
      this.nextId.set(table, max + 1);
    }
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  insertHistorical<R extends { city_id: string }>(table: HistoricalTable, t: string, row: R): number {
    const name = historicalSqlTable(table);
    const id = this.take(name);
    this.prepared(`INSERT INTO ${name} (id, city_id, t, json) VALUES (?, ?, ?, ?)`).run(
      id,
      row.city_id,
      t,
      JSON.stringify({ id, ...row }),
    );
    return id;
  }

  setCurrent(cityId: string, source: CurrentSourceName, value: object): void {
    this.prepared(
      'INSERT INTO current_obs (city_id, source, json) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET json = excluded.json',
    ).run(cityId, source, JSON.stringify(value));
  }

  setForecast(cityId: string, layer: ForecastLayerName, value: object): void {
    this.prepared(
      'INSERT INTO current_forecast (city_id, layer, json) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET json = excluded.json',
    ).run(cityId, layer, JSON.stringify(value));
  }

  insertStrategy<R extends StrategyRecord>(family: StrategyFamily, row: WithoutId<R>): R {
    const name = strategySqlTable(family);
    const full = { id: this.take(name), ...row } as R;
    this.prepared(`INSERT INTO ${name} (id, city_id, local_date, open, json) VALUES (?, ?, ?, ?, ?)`).run(
      full.id,
      full.city_id,
      full.local_date,
      full.outcome === null ? 1 : 0,
      JSON.stringify(full),
    );
    return full;
  }

  openStrategies<R extends StrategyRecord>(family: StrategyFamily, cityId: string): R[] {
    const name = strategySqlTable(family);
    return (
      this.prepared(`SELECT json FROM ${name} WHERE open = 1 AND city_id = ? ORDER BY id`)
        .pluck()
        .all(cityId) as string[]
    ).map((json) => JSON.parse(json) as R);
  }

  updateStrategy(family: StrategyFamily, row: StrategyRecord): void {
    const name = strategySqlTable(family);
    this.prepared(`UPDATE ${name} SET open = ?, json = ? WHERE id = ?`).run(
      row.outcome === null ? 1 : 0,
      JSON.stringify(row),
      row.id,
    );
  }

  upsertLock(lock: FusionLock): void {
    this.prepared(
      `INSERT INTO fusion_locks (id, city_id, local_date, locked_at, resolved, json) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET resolved = excluded.resolved, json = excluded.json`,
    ).run(lock.id, lock.city_id, lock.local_date, lock.locked_at, lock.resolved ? 1 : 0, JSON.stringify(lock));
  }

  unresolvedLocks(cityId: string): FusionLock[] {
    return (
      this.prepared('SELECT json FROM fusion_locks WHERE resolved = 0 AND city_id = ? ORDER BY locked_at')
        .pluck()
        .all(cityId) as string[]
    ).map((json) => JSON.parse(json) as FusionLock);
  }

  /** Open engine positions and closed ones alike live here; `open` tells them apart. */
  putEdgePosition(id: number, cityId: string, date: string, open: boolean, value: object): void {
    this.prepared(
      `INSERT INTO edge_positions (engine_trade_id, city_id, local_date, open, json) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET open = excluded.open, json = excluded.json`,
    ).run(id, cityId, date, open ? 1 : 0, JSON.stringify(value));
  }

  openEdgePositions<T>(cityId: string): T[] {
    return (
      this.prepared('SELECT json FROM edge_positions WHERE open = 1 AND city_id = ? ORDER BY engine_trade_id')
        .pluck()
        .all(cityId) as string[]
    ).map((json) => JSON.parse(json) as T);
  }

  nextEdgeTradeId(): number {
    return (this.prepared('SELECT coalesce(max(engine_trade_id), 0) FROM edge_positions').pluck().get() as number) + 1;
  }

  /**
   * The world's outgoing events, in order; webhook delivery fans them out. A payload that breaks the contract is a
   * bug in the world and is refused here, before anything could send it.
   */
  addWorldEvent(eventId: string, eventType: EventType, createdAt: string, payload: object): number {
    const problem = contractProblem(eventType, payload);
    if (problem) throw new Error(`world event ${eventType} ${eventId} breaks the contract: ${problem}`);
    const json = JSON.stringify(payload);
    const result = this.prepared(
      'INSERT INTO world_events (event_id, event_type, created_at, json) VALUES (?, ?, ?, ?)',
    ).run(eventId, eventType, createdAt, json);
    // the outbox row is written in the same transaction as the event: queued means it will be delivered or failed
    this.prepared(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload, next_attempt_at, created_at)
       SELECT id, ?, ?, ?, ?, ? FROM webhooks
       WHERE status = 'active' AND (events IS NULL OR EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ?))`,
    ).run(eventId, eventType, json, Date.parse(createdAt), createdAt, eventType);
    return Number(result.lastInsertRowid);
  }

  private take(table: string): number {
    const id = this.nextId.get(table) ?? 1;
    this.nextId.set(table, id + 1);
    return id;
  }
}
