import Database from 'better-sqlite3';

export type SqliteDb = Database.Database;

/** A program's schema, as its files are opened: its mark, its migrations and its rules for telling its own files. */
export interface Schema {
  /** Written into the header with the first migration: tells the program's files from every other SQLite file. */
  applicationId: number;
  /** One entry per `user_version`: migration `i` brings a file from version `i` to `i + 1`. */
  migrations: readonly string[];
  /**
   * What the file is, from reads alone (file-identity.ts): its schema version (0: empty, to be set up) and whether it
   * carries `applicationId` yet. Throws the program's own error, in its own words, when the file is not its own or
   * is newer than the program. Runs before anything is written, and again under the write lock before migrating.
   */
  identify(db: SqliteDb): { version: number; marked: boolean };
}

export interface OpenOptions {
  /** Checks of the program's own after the file is identified and before anything is written to it. */
  beforeWrite?(db: SqliteDb, version: number): void;
  /** WAL mode, for files that several processes write; a reader that must not write leaves the file as it is. */
  wal: boolean;
  /** Connection settings, set once the file is identified. */
  pragmas: readonly string[];
  /** What a failed migration becomes (unchanged when not given). */
  migrationFailure?(error: unknown): unknown;
}

/**
 * Opens an SQLite file (it must exist; `:memory:` opens a private in-memory database) the way both of the package's
 * SQLite users do: the file is identified before anything is written to it, so a file of another program is
 * refused unchanged; then WAL and the connection's pragmas; then the migrations it lacks, under the write lock.
 * On any failure the connection is closed and the error passes to the caller.
 */
export function openDatabase(path: string, schema: Schema, options: OpenOptions): SqliteDb {
  // Processes that set up one new file at the same instant (two `listen`, a `sync` beside the monitor) can meet a
  // lock that SQLite reports at once instead of waiting it out (seen about once in 45 three-way starts, in the WAL
  // switch and migration of a new file). Opening is idempotent (identify again, migrate under the write lock), so a
  // busy open is tried again from the start, for up to OPEN_BUSY_MS.
  const started = Date.now();
  for (;;) {
    try {
      return openOnce(path, schema, options);
    } catch (error) {
      const busy = error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY');
      if (!busy || Date.now() - started > OPEN_BUSY_MS) throw error;
      Atomics.wait(pause, 0, 0, 25 + Math.floor(Math.random() * 50));
    }
  }
}

/** How long an open meets a busy file before it gives up and says the file is locked. */
const OPEN_BUSY_MS = 10_000;
/** Opening is synchronous (better-sqlite3): the wait between tries blocks, as SQLite's own busy wait does. */
const pause = new Int32Array(new SharedArrayBuffer(4));

function openOnce(path: string, schema: Schema, options: OpenOptions): SqliteDb {
  const db = new Database(path, { fileMustExist: path !== ':memory:' });
  try {
    const found = schema.identify(db);
    options.beforeWrite?.(db, found.version);
    if (options.wal) db.pragma('journal_mode = WAL');
    for (const pragma of options.pragmas) db.pragma(pragma);
    if (found.version < schema.migrations.length || !found.marked) {
      try {
        migrate(db, schema);
      } catch (error) {
        throw options.migrationFailure ? options.migrationFailure(error) : error;
      }
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Brings the schema up to date and marks the file as the program's. The file is identified again under the write
 * lock, so two processes opening a new file at once set it up once, and a file that changed hands in between is
 * refused rather than migrated.
 */
function migrate(db: SqliteDb, schema: Schema): void {
  db.transaction(() => {
    const { version } = schema.identify(db);
    for (let v = version; v < schema.migrations.length; v++) db.exec(schema.migrations[v] as string);
    db.pragma(`application_id = ${schema.applicationId}`);
    db.pragma(`user_version = ${schema.migrations.length}`);
  }).immediate();
}
