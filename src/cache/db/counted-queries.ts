import type { Statement } from 'better-sqlite3';

/** Queries run and rows read by the panes: what a windowed list costs, for tests and benchmarks. */
export interface ReadStats {
  queries: number;
  rows: number;
}

/**
 * The panes' statements, counted. Every pane read goes through here, so "a list of a million rows reads only its
 * visible rows" is something a test can check rather than a promise.
 */
export class CountedQueries {
  readonly stats: ReadStats = { queries: 0, rows: 0 };

  constructor(private readonly shared: (sql: string) => Statement<unknown[]>) {}

  /**
   * The statement cache is shared with the other repositories, and a statement's mode (`pluck`, `raw`) sticks to
   * it: a marked copy of the text gets this class its own statements, in their default (row object) mode.
   */
  private prepared(sql: string): Statement<unknown[]> {
    return this.shared(`${sql} /* panes */`);
  }

  all<T>(sql: string, ...args: unknown[]): T[] {
    const rows = this.prepared(sql).all(...args) as T[];
    this.stats.queries++;
    this.stats.rows += rows.length;
    return rows;
  }

  get<T>(sql: string, ...args: unknown[]): T | undefined {
    const row = this.prepared(sql).get(...args) as T | undefined;
    this.stats.queries++;
    if (row !== undefined) this.stats.rows++;
    return row;
  }

  /**
   * Rows one at a time, for scans that stop as soon as they have enough. The connection is busy until the
   * iteration ends (or the loop breaks), so callers must not query inside the loop.
   */
  *iterate<T>(sql: string, ...args: unknown[]): Generator<T> {
    this.stats.queries++;
    for (const row of this.prepared(sql).iterate(...args)) {
      this.stats.rows++;
      yield row as T;
    }
  }
}
