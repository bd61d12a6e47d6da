import { basename, dirname } from 'node:path';
import Database from 'better-sqlite3';

/** A problem with the cache file or with what was asked of it, as one line that names the file. */
export class CacheError extends Error {}

/** The cache is locked by another process: a condition of the moment, where a CacheError is a problem to fix. */
export class CacheBusyError extends CacheError {}

/**
 * An error met while using the cache at `path`, as one line naming the file: SQLite's errors become a CacheError
 * (damaged, busy, cannot be written); a CacheError and every other error pass unchanged.
 */
export function cacheFailure(path: string, error: unknown): Error {
  if (error instanceof CacheError) return error;
  if (error instanceof Database.SqliteError) {
    const { code, message } = error;
    if (code === 'SQLITE_NOTADB') return new CacheError(`${path} is not a usable svc-monitor cache: ${notSqlite}`);
    if (code.startsWith('SQLITE_CORRUPT')) return new CacheError(damaged(path, message));
    if (code === 'SQLITE_READONLY_DIRECTORY') return new CacheError(folderReadOnly(path));
    if (code.startsWith('SQLITE_READONLY')) return new CacheError(fileReadOnly(path));
    if (code.startsWith('SQLITE_BUSY')) return new CacheBusyError(busy(path));
    return new CacheError(`${path} is not a usable svc-monitor cache: ${message}`, { cause: error });
  }
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  if (errno === 'EACCES' || errno === 'EPERM' || errno === 'EROFS') {
    return new CacheError(`${path} cannot be created: ${(error as Error).message}`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

const notSqlite = 'it is not an SQLite database';
/** Busy is a condition of the moment (another process's write or VACUUM), not SQLite's bare `database is locked`. */
export const busy = (path: string): string => `the cache ${path} is busy (locked by another process); try again`;
export const damaged = (path: string, problem: string): string =>
  `${path} is damaged (${problem}): nothing is written to it; export what can still be read, then move it away`;
const fileReadOnly = (path: string) => `${path} cannot be written: the file is read-only`;
const folderReadOnly = (path: string) =>
  `${path} cannot be written: SQLite needs to create ${basename(path)}-wal and ${basename(path)}-shm in ${dirname(path)}, which is read-only`;

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT): the lock, not a fault. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
