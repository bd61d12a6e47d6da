import { chmodSync, closeSync, constants, openSync, rmSync } from 'node:fs';
import { ALERT_KINDS } from '../../contract/alert-kinds.js';
import { EVENT_TYPES, HISTORICAL_TABLES, HISTORICAL_TIME_COLUMN } from '../../contract/names.js';
import { CACHE_APPLICATION_ID } from '../../sqlite/application-ids.js';
import type { SqliteDb } from '../../sqlite/open-database.js';
import { MIGRATIONS } from '../db/migrations.js';
import { historicalSqlTable } from '../db/tables.js';
import { instantMs } from '../db/time.js';

/** How many lines of `integrity_check` are read: the first few say what is wrong, a damaged file has thousands. */
const INTEGRITY_LINES = 5;

/**
 * What is wrong with the cache, one phrase a problem (none: it is sound): SQLite's `integrity_check` (every page,
 * index and constraint), then the cache's own invariants, which no SQL constraint states: it says it is a cache of
 * this program's schema (application_id, user_version); each row's typed time is the time its JSON carries (the
 * reads and retention go by the typed one, export and the panes show the JSON's); every alert is of a kind this
 * program raises, every webhook event of a type the spec has.
 */
export function cacheProblems(db: SqliteDb): string[] {
  const problems: string[] = [];
  const integrity = (db.pragma(`integrity_check(${INTEGRITY_LINES})`) as { integrity_check: string }[]).map(
    (r) => r.integrity_check,
  );
  if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.join('; ')}`);
  const appId = db.pragma('application_id', { simple: true }) as number;
  if (appId !== CACHE_APPLICATION_ID) problems.push(`application_id is 0x${appId.toString(16)}, not a cache's`);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version !== MIGRATIONS.length)
    problems.push(`user_version is ${version}, this program's cache is ${MIGRATIONS.length}`);
  for (const table of HISTORICAL_TABLES) {
    const { column, kind } = HISTORICAL_TIME_COLUMN[table];
    const rows = db
      .prepare(`SELECT rid AS id, t, json_extract(json, '$.${column}') AS v FROM ${historicalSqlTable(table)}`)
      .iterate() as Iterable<{ id: number; t: unknown; v: unknown }>;
    timeMismatch(problems, table, `its ${column}`, rows, kind === 'instant' ? instantMs : (v) => v ?? null);
  }
  for (const table of ['current_obs', 'forecasts']) {
    const rows = db
      .prepare(`SELECT rowid AS id, fetched_ms AS t, fetched_at AS v FROM ${table}`)
      .iterate() as Iterable<{
      id: number;
      t: unknown;
      v: unknown;
    }>;
    timeMismatch(problems, table, 'its fetched_at', rows, instantMs);
  }
  unknownValues(problems, db, 'alerts', 'kind', ALERT_KINDS, 'alert of an unknown kind');
  unknownValues(problems, db, 'webhook_events', 'event_type', EVENT_TYPES, 'webhook event of an unknown type');
  return problems;
}

/** Rows whose typed time `t` is not the time their text `v` says, counted, with the first row's id. */
function timeMismatch(
  problems: string[],
  table: string,
  what: string,
  rows: Iterable<{ id: number; t: unknown; v: unknown }>,
  timeOf: (v: unknown) => unknown,
): void {
  let count = 0;
  let first: number | undefined;
  for (const r of rows)
    if (timeOf(r.v) !== r.t) {
      count++;
      first ??= r.id;
    }
  if (count > 0)
    problems.push(`${table}: ${count} row${count === 1 ? '' : 's'} whose time is not ${what} (row ${first})`);
}

function unknownValues(
  problems: string[],
  db: SqliteDb,
  table: string,
  column: string,
  known: readonly string[],
  what: string,
): void {
  const rows = db
    .prepare(
      `SELECT ${column} AS value, count(*) AS n FROM ${table} WHERE ${column} NOT IN (${known.map(() => '?').join(', ')})
       GROUP BY ${column} ORDER BY ${column}`,
    )
    .all(...known) as { value: string; n: number }[];
  for (const r of rows) problems.push(`${table}: ${r.n} ${what} '${r.value}'`);
}

/**
 * A backup that failed for its destination (DESIGN 3 `cache backup`): the copy could not be created or written (its
 * folder missing or not writable, a full disk or quota, a read-only mount, an I/O error); the cache itself is fine.
 * `code` is the cause's (an errno such as `EEXIST`, or SQLite's such as `SQLITE_FULL`).
 */
export class BackupError extends Error {
  constructor(
    readonly destination: string,
    readonly code: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** A failure of the copy that is the cache's own: busy, damaged or not a cache (cacheFailure names the cache then). */
const ofTheCache = (code: string) =>
  code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';

/**
 * An online copy of the cache into `destination`, which must not exist (it is created here, mode 0600, so no other
 * user can read the copy). SQLite's backup API copies the pages; every page in one step, so the copy is one
 * consistent state of the file, read in one read transaction: in WAL mode a writer (sync, listen, the monitor) is
 * never blocked by it, and a commit of theirs during the copy cannot restart it. A copy that fails is removed; a
 * failure of the copy's file is a BackupError.
 */
export async function backupTo(db: SqliteDb, destination: string): Promise<void> {
  try {
    closeSync(openSync(destination, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600));
  } catch (error) {
    throw new BackupError(destination, (error as NodeJS.ErrnoException).code ?? 'EIO', error);
  }
  try {
    await db.backup(destination, { progress: ({ totalPages }) => Math.max(totalPages, 1) * 2 });
    chmodSync(destination, 0o600);
  } catch (error) {
    rmSync(destination, { force: true });
    const code = (error as { code?: unknown }).code;
    const text = typeof code === 'string' ? code : 'EIO';
    if (ofTheCache(text)) throw error;
    throw new BackupError(destination, text, error);
  }
}
