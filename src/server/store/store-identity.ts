import { CACHE_APPLICATION_ID, STORE_APPLICATION_ID } from '../../sqlite/application-ids.js';
import { readFileIdentity } from '../../sqlite/file-identity.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import { MIGRATIONS } from './schema.js';

/** What a `server.db` turned out to be, when it is something the server may write to. */
export type StoreIdentity =
  /** a new file, or an SQLite database with nothing in it: it gets set up */
  | { kind: 'empty' }
  /** a server store at `version`; `legacy`: made before stores carried their application_id */
  | { kind: 'store'; version: number; legacy: boolean };

/** The file is not a server store this program may open; the message says what it is. */
export class NotAStore extends Error {}

/** Tables every store has had since version 1: with our version numbers, they mark a store of an earlier release. */
const LEGACY_MARKS = ['meta', 'world_events', 'api_keys'];

/**
 * Tells what the file behind `db` is, by reading only: the header's application_id and user_version, and the names
 * in its schema. Nothing may be written (not even `journal_mode`, which rewrites the header) before this says the
 * file is ours or empty.
 */
export function identifyStore(db: SqliteDb): StoreIdentity {
  let appId: number;
  let version: number;
  let names: Set<string>;
  try {
    const identity = readFileIdentity(db);
    appId = identity.applicationId;
    version = identity.version;
    names = new Set(identity.names);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'SQLITE_NOTADB') {
      throw new NotAStore('it is not an SQLite database');
    }
    throw error;
  }
  if (appId === STORE_APPLICATION_ID) return ours(version, false);
  if (appId === CACHE_APPLICATION_ID) throw new NotAStore("it is the monitor's cache, not a server store");
  if (appId !== 0) {
    const hex = (appId >>> 0).toString(16).padStart(8, '0');
    throw new NotAStore(`it is an SQLite database of another program (application_id 0x${hex})`);
  }
  if (version === 0 && names.size === 0) return { kind: 'empty' };
  if (version > 0 && LEGACY_MARKS.every((table) => names.has(table))) return ours(version, true);
  throw new NotAStore('it is an SQLite database of another program');
}

function ours(version: number, legacy: boolean): StoreIdentity {
  if (version > MIGRATIONS.length) {
    throw new NotAStore(`store version ${version} is newer than this program (${MIGRATIONS.length})`);
  }
  return { kind: 'store', version, legacy };
}
