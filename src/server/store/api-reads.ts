import type { Statement } from 'better-sqlite3';
import type { HistoricalTable } from '../../contract/historical.js';
import type { StrategyFamily } from '../../contract/strategies.js';
import { statementCache } from '../../sqlite/statement-cache.js';
import type { Db } from './open-store.js';
import { historicalSqlTable, strategySqlTable } from './schema.js';
import { VersionedMemo } from './versioned-memo.js';

export interface Page<C> {
  rows: string[];
  nextCursor: C | null;
}

export interface HistoricalFilter {
  cityId?: string;
  since?: string;
  until?: string;
  beforeId?: number;
  limit: number;
}

export interface StrategyFilter {
  cityId?: string;
  date?: string;
  open?: boolean;
  limit: number;
}

export interface LockFilter {
  cityId?: string;
  since?: string;
  resolved?: boolean;
  after?: { lockedAt: string; id: string };
  limit: number;
}

/**
 * The API's reads. Every list is keyset-paginated (never OFFSET): one row more than the page is fetched to know
 * whether a next page exists, and rows come back as the stored JSON text, ready to be joined into a body.
 */
export class ApiReads {
  private readonly prepared: (sql: string) => Statement<unknown[]>;

  private readonly totalChanges: Statement<unknown[]>;

  /** Windows' id spans (`idSpan`), while the store is unchanged: a few clients walking a few windows each. */
  private readonly spans = new VersionedMemo<[number | null, number | null]>(64, () => 1);

  constructor(private readonly db: Db) {
    this.prepared = statementCache(db);
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
  }

  /**
   * Changes whenever anything is written to the store: `data_version` moves on commits by other connections (admin
   * commands), `total_changes()` on this connection's own writes (the world).
   */
  dataVersion(): string {
    return `${this.db.pragma('data_version', { simple: true })}:${this.totalChanges.get()}`;
  }

  historical(table: HistoricalTable, f: HistoricalFilter): Page<number> {
    const name = historicalSqlTable(table);
    const where = new Where();
    if (f.cityId !== undefined) where.add('city_id = ?', f.cityId);
    if (f.cityId === undefined && f.since !== undefined && f.until !== undefined) {
      // A window on both sides would be read through the `t` index and sorted again by id for every page: the
      // whole window each time (docs/benchmarks.md, the service). Its span of ids, read from that index alone,
      // bounds a walk down the ids instead, so a page costs its own rows; `+t` keeps the planner off the index.
      const [first, last] = this.idSpan(name, f.since, f.until);
      if (first === null || last === null) return { rows: [], nextCursor: null };
      // one range on the ids (SQLite takes one bound of two apart, and would walk from the window's top each page)
      where.add('id BETWEEN ? AND ?', first, f.beforeId === undefined ? last : Math.min(last, f.beforeId - 1));
      where.add('+t >= ? AND +t <= ?', f.since, f.until);
    } else {
      if (f.since !== undefined) where.add('t >= ?', f.since);
      if (f.until !== undefined) where.add('t <= ?', f.until);
      if (f.beforeId !== undefined) where.add('id < ?', f.beforeId);
    }
    const sql = `SELECT id, json FROM ${name}${where} ORDER BY id DESC LIMIT ?`;
    const found = this.prepared(sql)
      .raw()
      .all(...where.args, f.limit + 1) as [number, string][];
    const more = found.length > f.limit;
    const page = more ? found.slice(0, f.limit) : found;
    return { rows: page.map((r) => r[1]), nextCursor: more ? (page[page.length - 1]?.[0] ?? null) : null };
  }

  /**
   * The first and last id of the rows in a window, kept while the store is unchanged: reading them scans the window's
   * entries of the time index (a nine-day window of the bucket history: about 12 ms), and a client walking the
   * window asks again for every page.
   */
  private idSpan(name: string, since: string, until: string): [number | null, number | null] {
    return this.spans.get(
      `${name} ${since} ${until}`,
      this.dataVersion(),
      () =>
        this.prepared(`SELECT min(id), max(id) FROM ${name} WHERE t >= ? AND t <= ?`).raw().get(since, until) as [
          number | null,
          number | null,
        ],
    );
  }

  strategies(family: StrategyFamily, f: StrategyFilter): string[] {
    const where = new Where();
    if (f.cityId !== undefined) where.add('city_id = ?', f.cityId);
    if (f.date !== undefined) where.add('local_date = ?', f.date);
    if (f.open !== undefined) where.add('open = ?', f.open ? 1 : 0);
    const sql = `SELECT json FROM ${strategySqlTable(family)}${where} ORDER BY id DESC LIMIT ?`;
    return this.prepared(sql)
      .pluck()
      .all(...where.args, f.limit) as string[];
  }

  fusionLocks(f: LockFilter): Page<{ lockedAt: string; id: string }> {
    const where = new Where();
    if (f.cityId !== undefined) where.add('city_id = ?', f.cityId);
    if (f.since !== undefined) where.add('locked_at >= ?', f.since);
    if (f.resolved !== undefined) where.add('resolved = ?', f.resolved ? 1 : 0);
    if (f.after !== undefined) where.add('(locked_at, id) < (?, ?)', f.after.lockedAt, f.after.id);
    const sql = `SELECT locked_at, id, json FROM fusion_locks${where} ORDER BY locked_at DESC, id DESC LIMIT ?`;
    const found = this.prepared(sql)
      .raw()
      .all(...where.args, f.limit + 1) as [string, string, string][];
    const more = found.length > f.limit;
    const page = more ? found.slice(0, f.limit) : found;
    const last = page[page.length - 1];
    return { rows: page.map((r) => r[2]), nextCursor: more && last ? { lockedAt: last[0], id: last[1] } : null };
  }

  /** `source -> json` of a city's latest observations (or forecast layers). */
  latest(kind: 'current_obs' | 'current_forecast', cityId: string): Map<string, string> {
    const column = kind === 'current_obs' ? 'source' : 'layer';
    const rows = this.prepared(`SELECT ${column}, json FROM ${kind} WHERE city_id = ?`).raw().all(cityId) as [
      string,
      string,
    ][];
    return new Map(rows);
  }
}

/** The optional filters of a list query, as SQL and its bound values. */
class Where {
  private readonly parts: string[] = [];
  readonly args: unknown[] = [];

  add(sql: string, ...values: unknown[]): void {
    this.parts.push(sql);
    this.args.push(...values);
  }

  toString(): string {
    return this.parts.length > 0 ? ` WHERE ${this.parts.join(' AND ')}` : '';
  }
}
