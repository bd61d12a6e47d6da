import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { STORE_APPLICATION_ID } from '../../sqlite/application-ids.js';
import { openDatabase, type SqliteDb } from '../../sqlite/open-database.js';
import { StoreError } from '../errors.js';
import { createPrivateFile, ensurePrivateDir, narrowToOwner } from './private-files.js';
import { MIGRATIONS } from './schema.js';
import { identifyStore, NotAStore } from './store-identity.js';

export type Db = SqliteDb;

export const storePath = (dataDir: string): string => join(dataDir, 'server.db');

/**
 * Opens (creating if needed) the service's store in a data dir: WAL so admin commands and the running server share
 * it, and versioned migrations. The dir is made 0700 and the store 0600 (it holds webhook secrets). The file is
 * identified before anything is written to it: an SQLite file of another program, the monitor's cache or a store of
 * a newer release is refused untouched, with a message saying what it is; never a silent reset or adoption.
 * `pageCacheMib`: SQLite's page cache for the connection; better-sqlite3's 16 MB when not given.
 */
export function openStore(dataDir: string, pageCacheMib?: number): Db {
  const path = storePath(dataDir);
  try {
    ensurePrivateDir(dataDir);
    createPrivateFile(path);
    // a file left with a WAL is first read without a write connection: closing that would checkpoint the WAL into it
    if (existsSync(`${path}-wal`)) probe(path);
    // identified before anything is written to it, then WAL and the migrations it lacks (closed again on failure)
    const db = openDatabase(
      path,
      { applicationId: STORE_APPLICATION_ID, migrations: MIGRATIONS, identify: storeSchemaState },
      // an admin command (`server keys create`) writes beside a running server, whose world catch-up holds the write
      // lock for a slice at a time: seconds on a loaded machine, past SQLite's default 5 s wait. A minute, so the
      // command waits for its turn instead of failing (exit 1); the server's own writes never wait on themselves
      {
        wal: true,
        pragmas: [
          'foreign_keys = ON',
          'synchronous = NORMAL',
          'busy_timeout = 60000',
          // better-sqlite3's build keeps 16 MB of pages a connection unless told (ServiceOptions.storePageCacheMib)
          ...(pageCacheMib === undefined ? [] : [`cache_size = ${-1024 * pageCacheMib}`]),
        ],
      },
    );
    narrowToOwner([path, `${path}-wal`, `${path}-shm`]);
    return db;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const cause = error instanceof NotAStore ? undefined : error;
    throw new StoreError(`the data dir ${dataDir} does not hold a usable store (${path}: ${reason})`, { cause });
  }
}

function probe(path: string): void {
  const reader = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    identifyStore(reader);
  } finally {
    reader.close();
  }
}

/**
 * The store's schema version and whether it carries the store's application_id; a store of an earlier release had
 * none, and is adopted: marked by the migration (sqlite/open-database.ts).
 */
function storeSchemaState(db: Db): { version: number; marked: boolean } {
  const found = identifyStore(db);
  return found.kind === 'empty' ? { version: 0, marked: false } : { version: found.version, marked: !found.legacy };
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
