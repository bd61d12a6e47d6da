import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { CACHE_APPLICATION_ID, STORE_APPLICATION_ID } from '../../sqlite/application-ids.js';
import { readFileIdentity } from '../../sqlite/file-identity.js';
import { openDatabase, type SqliteDb } from '../../sqlite/open-database.js';
import { CacheError, cacheFailure, damaged } from './cache-error.js';
import { MIGRATIONS } from './migrations.js';

/**
 * How a command uses the cache. `write` (sync, listen, the live and demo monitor): a missing file is created (its
 * folders 0700, the file 0600, and so its -wal and -shm, which SQLite creates with the file's mode), and the file
 * must be writable and pass `PRAGMA quick_check`, so nothing is written into a file that is damaged or that would
 * refuse every write later. `read` (export, the offline monitor): the file must exist (a mistyped --db never becomes
 * a new empty cache) and is read as it is, damaged or read-only: what can be read is shown, and a read that meets
 * the damage fails with a CacheError (see cacheFailure).
 */
export type CacheAccess = 'write' | 'read';

/**
 * SQLite's page cache for a connection (its `cache_size`), in MiB. `sync`, `listen` and `export` keep 32: the index
 * pages of a large backfill stay in memory. The monitor's two connections (the screen's, the session's) keep 4: a
 * pane reads a window of rows, the session's writes are a sync pass at a time, and on a 30-day cache (160 MB) two
 * 32 MiB caches fill up and stay resident, most of what the demo held over 200 MB (docs/benchmarks.md, issue 34).
 * A page that is not in it is read from the OS's file cache.
 */
export const BULK_PAGE_CACHE_MIB = 32;
export const MONITOR_PAGE_CACHE_MIB = 4;

/** Tables of a server store from before it had an application_id. */
const SERVER_STORE_TABLES = ['meta', 'api_keys', 'webhooks'];

/**
 * Opens the monitor's cache file. The file is identified by its application_id and tables before anything is
 * written to it (not even WAL mode, which rewrites the header), so another program's database or a server store is
 * refused unchanged. Then WAL (the TUI, `sync`, `listen` and `export` share the file) and versioned migrations
 * (`PRAGMA user_version`), through sqlite/open-database.ts. Every refusal is a one-line CacheError naming the path.
 * `:memory:` opens a private in-memory cache. Its page cache: `pageCacheMib`. synchronous=NORMAL: what sync might
 * lose to a power cut is fetched again, and the webhook inbox fsyncs the WAL itself before it acknowledges
 * (receiver/wal-sync.ts).
 */
export function openCacheFile(
  path: string,
  access: CacheAccess = 'write',
  pageCacheMib = BULK_PAGE_CACHE_MIB,
): SqliteDb {
  try {
    if (path !== ':memory:') prepareFile(path, access);
    return openDatabase(
      path,
      { applicationId: CACHE_APPLICATION_ID, migrations: MIGRATIONS, identify: (db) => identify(db, path, access) },
      {
        beforeWrite(db, version) {
          if (access === 'write' && version > 0) refuseDamaged(db, path);
          // a new cache gives the space of thinned rows back (DESIGN 4 retention): the mode must be set before its
          // first table, and before the write (rolled back) of refuseReadOnly, which would fix it at none; an older
          // file is converted once by `cache prune` (a VACUUM)
          if (access === 'write' && version === 0) db.pragma('auto_vacuum = INCREMENTAL');
          if (access === 'write') refuseReadOnly(db);
        },
        wal: access === 'write',
        pragmas: [
          'synchronous = NORMAL',
          'busy_timeout = 5000',
          'foreign_keys = ON',
          `cache_size = ${-1024 * pageCacheMib}`, // in KiB when negative
          // checkpoint every 64 MiB of WAL rather than 4 MiB (backfills write ~18% faster), and truncate it back after
          'wal_autocheckpoint = 16384',
          'journal_size_limit = 67108864',
        ],
        // a reader upgrades an older cache when it can; one it cannot write stays as it is
        migrationFailure: (error) =>
          access === 'read'
            ? new CacheError(
                `${path} is an older cache that cannot be upgraded here: ${error instanceof Error ? error.message : String(error)}`,
              )
            : error,
      },
    );
  } catch (error) {
    if (access === 'read' && inReadOnlyFolder(path, error)) return openPrivateCopy(path, pageCacheMib);
    throw cacheFailure(path, error);
  }
}

/**
 * A cache in a folder that cannot be written (a read-only mount, a backup kept read-only) cannot be opened in place:
 * SQLite reads a WAL-mode file only beside its -shm, which it must be able to create there. With no -wal beside it
 * nobody is writing it (a writer would have made one) and the file alone holds everything, so a reader can read a copy.
 */
function inReadOnlyFolder(path: string, error: unknown): boolean {
  return (
    error instanceof Database.SqliteError && error.code === 'SQLITE_READONLY_DIRECTORY' && !existsSync(`${path}-wal`)
  );
}

/** The file a connection to a private copy reads (openPrivateCopy). */
const copiedFrom = new WeakMap<SqliteDb, string>();

/** The cache file a connection reads: its own path, or the file its private copy was made of. */
export const cachePathOf = (db: SqliteDb): string => copiedFrom.get(db) ?? db.name;

/**
 * Reads a private copy of the file (in a folder of the temp dir only this user can open), switched from WAL to a
 * rollback journal in its header (bytes 18 and 19, SQLite's own way for a file with no WAL content), so it needs no
 * -shm; the copy is removed as soon as it is open (the connection keeps its descriptor).
 */
function openPrivateCopy(path: string, pageCacheMib: number): SqliteDb {
  const folder = mkdtempSync(join(tmpdir(), 'svc-monitor-read-'));
  try {
    const copy = join(folder, basename(path));
    copyFileSync(path, copy);
    const fd = openSync(copy, 'r+');
    try {
      writeSync(fd, Buffer.from([1, 1]), 0, 2, 18);
    } finally {
      closeSync(fd);
    }
    const db = openCacheFile(copy, 'read', pageCacheMib);
    copiedFrom.set(db, path);
    return db;
  } catch (error) {
    throw cacheFailure(path, error);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Readers need the file; writers create it (and its folders) with modes only the owner can use. */
function prepareFile(path: string, access: CacheAccess): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new CacheError(`${path} is a folder, not a cache file`);
  if (access === 'read') {
    if (!stat) throw new CacheError(`no cache at ${path}: run svc-monitor sync first, or pass --db`);
    return;
  }
  if (stat) return;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    // created here rather than by SQLite, which would make it 0644; its -wal and -shm then follow this mode
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
  } catch (error) {
    // another process created it first: it is identified like any existing file
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * What the file is, from reads alone: its schema version when it is a cache (0 when it is empty and may become
 * one); a CacheError saying what it is otherwise.
 */
function identify(db: SqliteDb, path: string, access: CacheAccess): { version: number; marked: boolean } {
  const { applicationId: appId, version, tables } = readFileIdentity(db);
  const refuse = (what: string) => new CacheError(`${path} is not a usable svc-monitor cache: ${what}`);
  const serverTables = SERVER_STORE_TABLES.every((t) => tables.includes(t));
  if (appId === STORE_APPLICATION_ID || (appId === 0 && serverTables)) {
    throw refuse('it is a svc-monitor server store, not a cache (a server store belongs to server --data-dir)');
  }
  if (appId === 0 && (tables.length > 0 || version !== 0)) {
    throw refuse(`it is an SQLite database of another program (its tables: ${list(tables)})`);
  }
  if (appId !== 0 && appId !== CACHE_APPLICATION_ID) {
    throw refuse(`it is an SQLite database of another program (application_id 0x${appId.toString(16)})`);
  }
  if (version > MIGRATIONS.length) {
    throw refuse(`cache version ${version} is newer than this program's (${MIGRATIONS.length}): update svc-monitor`);
  }
  if (appId === 0 && access === 'read') throw new CacheError(`no cache at ${path} (the file is empty)`);
  return { version, marked: appId !== 0 };
}

const list = (names: string[]) => (names.length > 5 ? `${names.slice(0, 5).join(', ')}, …` : names.join(', '));

/** A writer does not add to damage: `PRAGMA quick_check` reads every page (about 1 s a GB) and must say ok. */
function refuseDamaged(db: SqliteDb, path: string): void {
  const [first] = db.pragma('quick_check(1)', { simple: false }) as { quick_check: string }[];
  const verdict = first?.quick_check ?? 'no answer';
  if (verdict !== 'ok') throw new CacheError(damaged(path, `quick_check: ${verdict.split('\n')[0]}`));
}

/**
 * A writer must be able to write: a write to the header, rolled back, fails as every later write would (a read-only
 * file, a folder where the -wal and -shm cannot be made, a read-only mount), whoever the process runs as. Another
 * process holding the write lock only shows that the file is in use; busy is not read-only.
 */
function refuseReadOnly(db: SqliteDb): void {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code.startsWith('SQLITE_BUSY')) return;
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
  try {
    db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
}
