import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../../sqlite/open-database.js';

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Rows per multi-row INSERT: one statement step binds CHUNK rows (4 columns x 100 = 400 parameters). */
const CHUNK = 100;

export interface WriteResult extends WriteCounts {
  /** Event ids of the rows inserted or updated; only filled when the caller asks for them. */
  changed: (string | number)[];
}

/**
 * Writes rows of one table by key without reading them first. Rows go in chunks through a multi-row
 * `INSERT ... ON CONFLICT DO NOTHING`, whose `changes` counts the inserted rows. Only a chunk where some rows
 * already existed goes on to one `UPDATE ... FROM (VALUES ...) WHERE key = v.key AND json IS NOT v.json` for the
 * whole chunk, whose `changes` counts the updated ones (a row just inserted is equal, so it is not counted twice).
 * A backfill page is then a few statements, and so is a re-polled page: one statement a chunk rather than one a
 * row (a warm pass of every stream re-polls about 2,000 unchanged rows). In `ignore` mode existing rows are left
 * as they are (insert-or-ignore).
 *
 * The caller passes the rows as one flat argument array, `columns.length` values a row, `json` last, and runs
 * `write` inside its transaction.
 */
export class UpsertWriter {
  private readonly width: number;
  private readonly inserts = new Map<string, Statement<unknown[]>>();
  private readonly updates = new Map<string, Statement<unknown[]>>();
  private readonly mode: 'upsert' | 'ignore';

  constructor(
    private readonly db: SqliteDb,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly key: readonly string[],
    mode: 'upsert' | 'ignore',
    /** SQL expression of a row's event id, for RETURNING (e.g. `-rid`). */
    private readonly eventIdSql: string,
  ) {
    this.width = columns.length;
    this.mode = mode;
    if (columns[columns.length - 1] !== 'json') throw new Error(`${table}: json must be the last column`);
  }

  /** `ids`: the event id of each row, wanted when the caller reports changes (undefined: no change tracking). */
  write(args: unknown[], ids?: readonly (string | number)[]): WriteResult {
    const w = this.width;
    const n = args.length / w;
    const result: WriteResult = { inserted: 0, updated: 0, unchanged: 0, changed: [] };
    for (let start = 0; start < n; start += CHUNK) {
      const k = Math.min(CHUNK, n - start);
      const chunk = start === 0 && k === n ? args : args.slice(start * w, (start + k) * w);
      let inserted: number;
      if (ids) {
        const returned = this.insert(k, true).all(chunk) as (string | number)[];
        inserted = returned.length;
        if (inserted === k) for (let i = 0; i < k; i++) result.changed.push(ids[start + i] as string | number);
        else result.changed.push(...returned);
      } else {
        inserted = this.insert(k, false).run(chunk).changes;
      }
      result.inserted += inserted;
      if (inserted < k && this.mode === 'upsert') {
        const rows = this.lastOfEachKey(chunk, k);
        if (ids) {
          const returned = this.updateFrom(rows.length / w, true).all(rows) as (string | number)[];
          result.updated += returned.length;
          result.changed.push(...returned);
        } else {
          result.updated += this.updateFrom(rows.length / w, false).run(rows).changes;
        }
      }
    }
    result.unchanged = n - result.inserted - result.updated;
    return result;
  }

  /**
   * The chunk with one row a key, the last one: in one `UPDATE ... FROM` a key matched twice would take either row,
   * where writing the rows in order leaves the last (a page does not repeat an id, but nothing outside promises it).
   */
  private lastOfEachKey(chunk: unknown[], k: number): unknown[] {
    const w = this.width;
    const keyAt = this.key.map((c) => this.columns.indexOf(c));
    const last = new Map<string, number>();
    for (let i = 0; i < k; i++) last.set(JSON.stringify(keyAt.map((c) => chunk[i * w + c])), i);
    if (last.size === k) return chunk;
    return [...last.values()].sort((a, b) => a - b).flatMap((i) => chunk.slice(i * w, (i + 1) * w));
  }

  /** `UPDATE table SET rest = v.rest FROM (VALUES k rows) AS v WHERE key = v.key AND json IS NOT v.json`. */
  private updateFrom(k: number, returning: boolean): Statement<unknown[]> {
    const cacheKey = `${k}${returning ? 'r' : ''}`;
    let statement = this.updates.get(cacheKey);
    if (!statement) {
      // a VALUES list names its columns column1, column2, ... in the order of `columns`
      const v = (c: string) => `v.column${this.columns.indexOf(c) + 1}`;
      const rest = this.columns.filter((c) => !this.key.includes(c));
      const row = `(${this.columns.map(() => '?').join(', ')})`;
      const sql =
        `UPDATE ${this.table} SET ${rest.map((c) => `${c} = ${v(c)}`).join(', ')} ` +
        `FROM (VALUES ${Array.from({ length: k }, () => row).join(', ')}) AS v ` +
        `WHERE ${this.key.map((c) => `${this.table}.${c} = ${v(c)}`).join(' AND ')} AND ${this.table}.json IS NOT ${v('json')}`;
      statement = returning ? this.db.prepare(`${sql} RETURNING ${this.eventIdSql}`).pluck() : this.db.prepare(sql);
      this.updates.set(cacheKey, statement);
    }
    return statement;
  }

  private insert(k: number, returning: boolean): Statement<unknown[]> {
    const cacheKey = `${k}${returning ? 'r' : ''}`;
    let statement = this.inserts.get(cacheKey);
    if (!statement) {
      const row = `(${this.columns.map(() => '?').join(', ')})`;
      const values = Array.from({ length: k }, () => row).join(', ');
      const sql = `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${values} ON CONFLICT (${this.key.join(', ')}) DO NOTHING`;
      statement = returning ? this.db.prepare(`${sql} RETURNING ${this.eventIdSql}`).pluck() : this.db.prepare(sql);
      this.inserts.set(cacheKey, statement);
    }
    return statement;
  }
}
