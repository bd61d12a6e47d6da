import Database from 'better-sqlite3';
import { type CacheTopic, TABLE_TOPICS } from '../../src/cache/topics.js';

interface Run {
  db: Database.Database;
  sql: string;
  args: unknown[];
}

const STATEMENT = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<string, unknown>;
const RUNS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * The SQL tables `read` really reads or writes, as SQLite compiled its statements: every statement run meanwhile (on
 * any connection) is recorded with its arguments, then compiled again under EXPLAIN, and each b-tree it opens (a table
 * or one of its indexes, `OpenRead`/`OpenWrite` by root page) named by sqlite_schema. No parse of the SQL text: a
 * subquery, a join, an INDEXED BY or a view counts as SQLite runs it. Test-only: it wraps better-sqlite3's statements
 * while `read` runs.
 */
export function tablesRead(read: () => unknown): string[] {
  const runs: Run[] = [];
  const originals = RUNS.map((name) => STATEMENT[name] as (...args: unknown[]) => unknown);
  RUNS.forEach((name, i) => {
    const original = originals[i] as (...args: unknown[]) => unknown;
    STATEMENT[name] = function (this: { database: Database.Database; source: string }, ...args: unknown[]) {
      runs.push({ db: this.database, sql: this.source, args });
      return original.apply(this, args);
    };
  });
  try {
    read();
  } finally {
    RUNS.forEach((name, i) => {
      STATEMENT[name] = originals[i];
    });
  }
  const tables = new Set<string>();
  const seen = new Set<string>();
  for (const { db, sql, args } of runs) {
    const key = `${sql}\u0000${JSON.stringify(args)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const byRoot = new Map(
      (db.prepare('SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0').all() as Root[]).map((r) => [
        r.rootpage,
        r.tbl_name,
      ]),
    );
    for (const op of db.prepare(`EXPLAIN ${sql}`).all(...args) as Op[]) {
      // p3 0: the main database (1 is temp); p2 the b-tree's root page
      if ((op.opcode === 'OpenRead' || op.opcode === 'OpenWrite') && op.p3 === 0) {
        const table = byRoot.get(op.p2);
        if (table !== undefined && table !== 'sqlite_schema') tables.add(table);
      }
    }
  }
  return [...tables].sort();
}

interface Root {
  rootpage: number;
  tbl_name: string;
}

interface Op {
  opcode: string;
  p2: number;
  p3: number;
}

/** Every table of the schema of the connection `read` first runs a statement on. */
export function schemaTables(read: () => unknown): string[] {
  let db: Database.Database | undefined;
  const original = STATEMENT.all as (...args: unknown[]) => unknown;
  STATEMENT.all = function (this: { database: Database.Database }, ...args: unknown[]) {
    db ??= this.database;
    return original.apply(this, args);
  };
  try {
    read();
  } finally {
    STATEMENT.all = original;
  }
  if (!db) throw new Error('the read ran no statement');
  return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]).sort();
}

/** What `read` queried, as topics, and the tables it queried that no change event announces (TABLE_TOPICS' null). */
export function topicsRead(read: () => unknown): { topics: CacheTopic[]; unannounced: string[] } {
  const topics = new Set<CacheTopic>();
  const unannounced: string[] = [];
  for (const table of tablesRead(read)) {
    const topic = TABLE_TOPICS[table];
    if (topic === undefined) throw new Error(`table ${table} has no entry in TABLE_TOPICS (src/cache/topics.ts)`);
    if (topic === null) unannounced.push(table);
    else topics.add(topic);
  }
  return { topics: [...topics].sort(), unannounced };
}

/** The topics `read` queried that `declared` leaves out: a pane watching `declared` misses their changes. */
export function undeclaredTopics(declared: readonly CacheTopic[], read: () => unknown): CacheTopic[] {
  return topicsRead(read).topics.filter((topic) => !declared.includes(topic));
}
