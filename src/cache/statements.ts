import type { Statement } from 'better-sqlite3';
import type { CacheDb } from './open-cache.js';

/** Prepares each distinct SQL text once per connection and hands back the same statement after that. */
export function statementCache(db: CacheDb): (sql: string) => Statement<unknown[]> {
  const statements = new Map<string, Statement<unknown[]>>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
