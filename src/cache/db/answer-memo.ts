import type { Statement } from 'better-sqlite3';
import type { SqliteDb } from '../../sqlite/open-database.js';

/**
 * A response body as the service sent it, and the stream's own name for the request it answered (`no24/open`,
 * `current/paris`, `live/metar_observations_history`): a few dozen names, each holding its newest text only.
 */
export interface Answer {
  source: string;
  text: string;
}

interface Stored {
  text: string;
  table: string;
  generation: number;
  dataVersion: number;
}

/**
 * Knows, without reading a row back, that every row of an answer is stored as it is: the same source answered the
 * same text when its rows were last written to the same table, no write of this connection has changed that table
 * since (a generation counted a table), and no other connection has committed to the file since (SQLite's
 * `data_version`, which only another connection's commit moves). Then each row is unchanged: neither inserted nor
 * updated, counted so, and not written. A warm poll of a quiet stream costs its request and its validation only
 * (issue 13: a pass re-fetched about 2,200 unchanged rows; stringifying and comparing them was most of its
 * overhead). Anything else (a new text, another writer, a table changed by a backfill) goes through the writer,
 * which compares row by row.
 */
export class AnswerMemo {
  private readonly stored = new Map<string, Stored>();
  private readonly generations = new Map<string, number>();
  /** Prepared once: SQLite reads data_version at each step (unlike busy_timeout, set when a PRAGMA compiles). */
  private readonly version: Statement<unknown[]>;

  constructor(db: SqliteDb) {
    this.version = db.prepare('PRAGMA data_version').pluck();
  }

  /** Whether the rows of `answer` are stored in `table` as they are (see the class). */
  isStored(table: string, answer: Answer | undefined): boolean {
    if (!answer) return false;
    const last = this.stored.get(answer.source);
    return (
      last !== undefined &&
      last.text === answer.text &&
      last.table === table &&
      last.generation === this.generation(table) &&
      last.dataVersion === this.dataVersion()
    );
  }

  /**
   * Read inside the write's transaction, under the write lock: no other connection can commit between this read
   * and the write's own commit (which does not move it), so a later equal value proves no commit came after.
   */
  dataVersion(): number {
    return this.version.get() as number;
  }

  /** After a committed write of `table` that inserted or updated `changed` rows, from `answer` when given. */
  written(table: string, changed: number, dataVersion: number, answer: Answer | undefined): void {
    if (changed > 0) this.generations.set(table, this.generation(table) + 1);
    if (answer)
      this.stored.set(answer.source, { text: answer.text, table, generation: this.generation(table), dataVersion });
  }

  private generation(table: string): number {
    return this.generations.get(table) ?? 0;
  }
}
