import type Database from 'better-sqlite3';

/** What an SQLite file says about itself, read without writing anything: its header's marks and its schema's names. */
export interface FileIdentity {
  /** `PRAGMA application_id`: 0 when no program marked the file. */
  applicationId: number;
  /** `PRAGMA user_version`: the schema version its program migrated it to (0: none). */
  version: number;
  /** Its tables, by name, sorted. */
  tables: string[];
  /** Everything in its schema (tables, indexes, views, triggers), by name. */
  names: string[];
}

/**
 * Reads the file's identity. Only reads: nothing may be written to a file (not even `journal_mode`, which rewrites
 * the header) before its owner's rules said from this that the file is theirs or empty. An SQLite error (not a
 * database, damaged) passes to the caller, who words it.
 */
export function readFileIdentity(db: Database.Database): FileIdentity {
  // one read transaction (a deferred BEGIN writes nothing): the header's marks and the schema from the same commit,
  // or another process setting the file up in between shows its tables without its mark, "another program's"
  const read = () => {
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    const schema = db.prepare('SELECT type, name FROM sqlite_schema ORDER BY name').all() as {
      type: string;
      name: string;
    }[];
    return { applicationId, version, schema };
  };
  const { applicationId, version, schema } = db.inTransaction ? read() : db.transaction(read).deferred();
  return {
    applicationId,
    version,
    tables: schema.filter((entry) => entry.type === 'table').map((entry) => entry.name),
    names: schema.map((entry) => entry.name),
  };
}
