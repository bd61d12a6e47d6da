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
 * already existed goes on to one `UPDATE ... WHERE key = ? AND json IS NOT ?` per row, whose `changes` counts the
 * updated ones (a row just inserted is equal, so it is not counted twice). A backfill page is then a few
 * statements; a re-polled page costs one indexed UPDATE a row that changes nothing. In `ignore` mode existing
 * rows are left as they are (insert-or-ignore).
 *
 * The caller passes the rows as one flat argument array, `columns.length` values a row, `json` last, and runs
 * `write` inside its transaction.
 */
export class UpsertWriter {
  private readonly width: number;
  private readonly inserts = new Map<string, Statement<unknown[]>>();
  private readonly update: Statement<unknown[]> | undefined;
  private readonly updateOrder: number[];

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
    if (columns[columns.length - 1] !== 'json') throw new Error(`${table}: json must be the last column`);
    const rest = columns.filter((c) => !key.includes(c));
    this.updateOrder = [...rest, ...key].map((c) => columns.indexOf(c));
    this.update =
      mode === 'upsert'
        ? db.prepare(
            `UPDATE ${table} SET ${rest.map((c) => `${c} = ?`).join(', ')} WHERE ${key.map((c) => `${c} = ?`).join(' AND ')} AND json IS NOT ?`,
          )
        : undefined;
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
      if (inserted < k && this.update) {
        for (let i = 0; i < k; i++) {
          if (!this.updateRow(chunk, i * w)) continue;
          result.updated++;
          if (ids) result.changed.push(ids[start + i] as string | number);
        }
      }
    }
    result.unchanged = n - result.inserted - result.updated;
    return result;
  }

  private updateRow(chunk: unknown[], offset: number): boolean {
    const row = this.updateOrder.map((c) => chunk[offset + c]);
    row.push(chunk[offset + this.width - 1]);
    return (this.update as Statement<unknown[]>).run(row).changes > 0;
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
