import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { APPLICATION_ID, MIGRATIONS } from './schema.js';

export type CacheDb = Database.Database;

export class CacheError extends Error {}

/**
 * Opens (creating if needed) the monitor's cache: its folder made with mode 0700, WAL so the TUI, `sync` and
 * `export` share the file, versioned migrations (`PRAGMA user_version`). A file that is not a usable cache is a
 * CacheError naming the path, never a silent reset. `:memory:` opens a private in-memory cache. synchronous=NORMAL:
 * what sync might lose to a power cut is fetched again, and the webhook inbox fsyncs the WAL itself before it
 * acknowledges (receiver/wal-sync.ts).
 */
export function openCache(path: string): CacheDb {
  let db: CacheDb | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -32768'); // 32 MiB: index pages of large backfills stay in memory
    // checkpoint every 64 MiB of WAL rather than 4 MiB (backfills write ~18% faster), and truncate it back after
    db.pragma('wal_autocheckpoint = 16384');
    db.pragma('journal_size_limit = 67108864');
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new CacheError(`${path} is not a usable svc-monitor cache: ${reason}`, { cause: error });
  }
}

/** Brings the schema up to date; the check is repeated under the write lock, so two processes opening a new cache
 * at once migrate it once. */
function migrate(db: CacheDb): void {
  if (schemaVersion(db) === MIGRATIONS.length) return;
  db.transaction(() => {
    const version = schemaVersion(db);
    for (let v = version; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v] as string);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
}

function schemaVersion(db: CacheDb): number {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (appId === 0) {
    const tables = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number;
    if (tables > 0 || version !== 0) throw new Error('it is an SQLite database of another program');
  } else if (appId !== APPLICATION_ID) {
    throw new Error(`it is an SQLite database of another program (application_id ${appId})`);
  }
  if (version > MIGRATIONS.length) {
    throw new Error(`cache version ${version} is newer than this program's (${MIGRATIONS.length})`);
  }
  return version;
}
