import type { Statement } from 'better-sqlite3';
import { zoneOffsetMs } from '../../domain/city-time.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import { THINNING_MARK } from '../db/migrations.js';
import type { ThinnedTable } from './thinned-tables.js';
import { backupTo, cacheProblems } from './upkeep.js';

const HOUR = 3_600_000;

/**
 * The instant of the whole local hour that closes the hour a row falls in: its HH:00 at or after it (a row at 10:00
 * sharp is 10:00's, one at 10:00:01 is 11:00's), in the city's zone, so half-hour and 45-minute zones have their own.
 */
export function localHourEnd(ms: number, tz: string): number {
  const offset = zoneOffsetMs(tz, ms);
  return Math.ceil((ms + offset) / HOUR) * HOUR - offset;
}

/**
 * Rows of a window read for thinning reach this far before it: a series' hour is (HH:00 - 1 h, HH:00], and a day that
 * changes its clock can stretch a local hour to two.
 */
const GROUP_REACH_MS = 2 * HOUR;

/** The latest of `ends` before `ms`; null when none is. */
function lastEndBefore(ends: ReadonlySet<number>, ms: number): number | null {
  let last: number | null = null;
  for (const end of ends) if (end < ms && (last === null || end > last)) last = end;
  return last;
}

/** The SQL of retention (DESIGN 4): the cities' zones, the thinning of a window, the marks and the file's space. */
export class RetentionRepository {
  constructor(
    private readonly db: SqliteDb,
    private readonly prepared: (sql: string) => Statement<unknown[]>,
  ) {}

  /** Each city's zone, as the cities list gives it; a city without one is not thinned (its hours are unknown). */
  zones(): Map<string, string> {
    const rows = this.prepared("SELECT city_id, json_extract(json, '$.tz') AS tz FROM cities").all() as {
      city_id: string;
      tz: unknown;
    }[];
    return new Map(rows.flatMap((r) => (typeof r.tz === 'string' && r.tz !== '' ? [[r.city_id, r.tz]] : [])));
  }

  /** The oldest time of a thinned table's rows; null when it has none. */
  oldest(table: ThinnedTable): number | null {
    const value = this.prepared(table.oldestSql).pluck().get();
    return typeof value === 'number' ? value : null;
  }

  /** Where a window of about `rows` rows after `fromMs` ends; null when fewer rows follow. */
  windowEnd(table: ThinnedTable, fromMs: number, rows: number): number | null {
    const value = this.prepared(table.nthAfterSql)
      .pluck()
      .get(fromMs, Math.max(0, Math.floor(rows) - 1));
    return typeof value === 'number' ? value : null;
  }

  mark(name: string): number | null {
    const value = this.prepared('SELECT value FROM retention_marks WHERE name = ?').pluck().get(name);
    return typeof value === 'number' ? value : null;
  }

  /**
   * The instant before which rows were thinned to the hour (the newest cutoff a prune reached, of any thinned table);
   * null when nothing was. Time travel steps by the hour before it.
   */
  thinnedBefore(): number | null {
    const value = this.prepared("SELECT max(value) FROM retention_marks WHERE name NOT LIKE '@%'").pluck().get();
    return typeof value === 'number' ? value : null;
  }

  setMark(name: string, value: number): void {
    this.prepared(
      'INSERT INTO retention_marks (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    ).run(name, value);
  }

  /**
   * Takes `value` for the mark `name` unless it holds it already, in one statement: true for the one process whose
   * write changed it (two processes on one cache cannot both take the same day).
   */
  claim(name: string, value: number): boolean {
    return (
      this.prepared(
        `INSERT INTO retention_marks (name, value) VALUES (?, ?)
          ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE value <> excluded.value`,
      ).run(name, value).changes === 1
    );
  }

  /**
   * Thins the series' hours that end within (from, to] (`to` at most the retention's cutoff) in one transaction: of
   * each city's series and local hour, the rows older than its newest are deleted. Once `maxDeletes` rows are to be
   * deleted it stops at the last whole hour read (every row of an hour ending before the row it stopped at has been
   * read, the rows being read in time order) and thins the hours up to there only; an hour is never split, so a
   * single hour of more rows is thinned whole. Returns the rows deleted and where it stopped (`to`, or the end of the
   * last hour thinned): the next window starts there.
   */
  thinWindow(
    table: ThinnedTable,
    fromMs: number,
    toMs: number,
    zones: ReadonlyMap<string, string>,
    maxDeletes = Number.POSITIVE_INFINITY,
  ): { deleted: number; toMs: number } {
    const rows = this.prepared(table.rowsSql);
    const remove = this.prepared(table.deleteSql);
    return this.db
      .transaction(() => {
        // the board's kept days stay (migrations.ts THINNING_MARK): set and deleted inside this transaction, never
        // committed, so only this connection's writes pass the triggers by
        this.setMark(THINNING_MARK, 1);
        const newest = new Map<string, { t: number; end: number; ids: number[]; older: number[] }>();
        const ends = new Set<number>();
        let toDelete = 0;
        let stopMs = toMs;
        for (const r of rows.iterate(fromMs - GROUP_REACH_MS, toMs) as Iterable<{
          id: number;
          t: number;
          city_id: string | null;
          part: string | null;
        }>) {
          if (toDelete >= maxDeletes) {
            const whole = lastEndBefore(ends, r.t);
            if (whole !== null) {
              stopMs = whole;
              break;
            }
          }
          const tz = r.city_id === null ? undefined : zones.get(r.city_id);
          if (tz === undefined) continue;
          const end = localHourEnd(r.t, tz);
          // an hour that ends before the window was thinned by the window before; one after it, by the next
          if (end <= fromMs || end > toMs) continue;
          ends.add(end);
          const key = `${r.city_id}\u0000${r.part ?? ''}\u0000${end}`;
          const group = newest.get(key);
          if (!group) newest.set(key, { t: r.t, end, ids: [r.id], older: [] });
          else if (r.t > group.t) {
            toDelete += group.ids.length;
            group.older.push(...group.ids);
            group.t = r.t;
            group.ids = [r.id];
          } else if (r.t === group.t) group.ids.push(r.id);
          else {
            toDelete++;
            group.older.push(r.id);
          }
        }
        let deleted = 0;
        const kept: number[] = [];
        for (const group of newest.values()) {
          if (group.older.length === 0 || group.end > stopMs) continue;
          for (const id of group.older) deleted += remove.run(id).changes;
          kept.push(...group.ids);
        }
        if (table.rewrite) this.rewrite(table.rewrite, remove, kept);
        this.prepared('DELETE FROM retention_marks WHERE name = ?').run(THINNING_MARK);
        return { deleted, toMs: stopMs };
      })
      .immediate();
  }

  /** The rows `ids` deleted and written again, in key order (ThinnedTable's `rewrite` says why). */
  private rewrite(sql: { selectSql: string; insertSql: string }, remove: Statement<unknown[]>, ids: number[]): void {
    const select = this.prepared(sql.selectSql).raw(true);
    const rows = ids.map((id) => select.get(id) as unknown[]).filter((row) => row !== undefined);
    for (const id of ids) remove.run(id);
    const insert = this.prepared(sql.insertSql);
    for (const row of rows.sort((a, b) => (a[0] as number) - (b[0] as number))) insert.run(...row);
  }

  /** `PRAGMA auto_vacuum`: 0 none, 1 full, 2 incremental. */
  autoVacuum(): number {
    return this.db.pragma('auto_vacuum', { simple: true }) as number;
  }

  /**
   * Makes the file give space back (`auto_vacuum = INCREMENTAL`): the mode of a file that has tables changes only by a
   * VACUUM, which rewrites the whole file under the write lock (a cache from before retention, once).
   */
  convertToIncremental(): void {
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.exec('VACUUM');
  }

  /** Pages on the file's free list: space an incremental vacuum can give back. */
  freePages(): number {
    return this.db.pragma('freelist_count', { simple: true }) as number;
  }

  /** Gives back up to `pages` free pages to the file system (their truncation reaches the file at a checkpoint). */
  giveBack(pages: number): void {
    this.db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
  }

  /**
   * Copies the WAL into the file and truncates it, if that can be done at once: with no wait for the write lock or a
   * reader (busy_timeout 0), since a TRUNCATE checkpoint waiting for a reader (the monitor) holds the write lock
   * meanwhile and would block every writer (sync, listen) for up to the cache's 5 s busy timeout. When it cannot, SQLite
   * copies what it can without blocking (as PASSIVE does) and the WAL is truncated by a later checkpoint
   * (journal_size_limit). Returns whether it was truncated.
   */
  truncateWal(): boolean {
    if (this.db.memory) return true;
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      return result?.busy === 0;
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** What is wrong with the cache (`cache check`, upkeep.ts); empty when nothing is. */
  problems(): string[] {
    return cacheProblems(this.db);
  }

  /** An online copy into a new file (`cache backup`, upkeep.ts). */
  backup(destination: string): Promise<void> {
    return backupTo(this.db, destination);
  }
}
