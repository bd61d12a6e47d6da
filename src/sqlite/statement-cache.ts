import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

/** Prepares each distinct SQL text once per connection and hands back the same statement after that. */
export function statementCache(db: Database.Database): (sql: string) => Statement<unknown[]> {
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
