import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createPrivateFile, ensurePrivateDir, narrowToOwner } from './private-files.js';
import { MIGRATIONS, STORE_APPLICATION_ID } from './schema.js';
import { identifyStore, NotAStore } from './store-identity.js';

export type Db = Database.Database;

export class StoreError extends Error {}

export const storePath = (dataDir: string): string => join(dataDir, 'server.db');

/**
 * Opens (creating if needed) the service's store in a data dir: WAL so admin commands and the running server share
 * it, and versioned migrations. The dir is made 0700 and the store 0600 (it holds webhook secrets). The file is
 * identified before anything is written to it: an SQLite file of another program, the monitor's cache or a store of
 * a newer release is refused untouched, with a message saying what it is; never a silent reset or adoption.
 */
export function openStore(dataDir: string): Db {
  const path = storePath(dataDir);
  let db: Db | undefined;
  try {
    ensurePrivateDir(dataDir);
    createPrivateFile(path);
    // a file left with a WAL is first read without a write connection: closing that would checkpoint the WAL into it
    if (existsSync(`${path}-wal`)) probe(path);
    db = new Database(path, { fileMustExist: true, timeout: 5000 });
    db.pragma('foreign_keys = ON');
    identifyStore(db);
    // from here on the file is ours (or empty): writing pragmas are safe
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    migrate(db);
    narrowToOwner([path, `${path}-wal`, `${path}-shm`]);
    return db;
  } catch (error) {
    db?.close();
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
 * Brings the schema up to date and marks the file with the store's application_id (adopting a store of an earlier
 * release, which had none). The file is identified again under the write lock, so two processes opening a new
 * store at once set it up once.
 */
function migrate(db: Db): void {
  const found = identifyStore(db);
  if (found.kind === 'store' && !found.legacy && found.version === MIGRATIONS.length) return;
  db.transaction(() => {
    const now = identifyStore(db);
    for (let v = now.kind === 'empty' ? 0 : now.version; v < MIGRATIONS.length; v++) {
      db.exec(MIGRATIONS[v] as string);
    }
    db.pragma(`application_id = ${STORE_APPLICATION_ID}`);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  }).immediate();
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
