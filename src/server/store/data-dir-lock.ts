import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { createPrivateFile, ensurePrivateDir } from './private-files.js';

/** Another server holds the data dir; `pid` is the holder's when it could be read. */
export class DataDirInUse extends StoreError {
  constructor(
    message: string,
    readonly pid: number | undefined,
  ) {
    super(message);
  }
}

export interface DataDirLock {
  release(): void;
}

/** How long a refused start looks for the holder's pid (the holder writes it just after it takes the lock). */
const HOLDER_PID_WAIT_MS = 2000;

/**
 * One server per data dir: two would run two world clocks and two webhook dispatchers over one outbox. The lock is
 * SQLite's own (POSIX) write lock on `server.lock`, held by a transaction left open for the life of the process. The
 * kernel drops it when the process ends, however it ends, so a server killed with SIGKILL leaves no stale lock, and
 * a holder busy for seconds (the first 30-day fill blocks its event loop) cannot lose it, as a lock renewed by a
 * timer could. `server.pid` names the holder in the refusal. Admin commands never take this lock: they share the
 * store with the running server through WAL.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = join(dataDir, 'server.lock');
  const pidPath = join(dataDir, 'server.pid');
  const cannotLock = (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    return new StoreError(`the data dir ${dataDir} cannot be locked (${lockPath}: ${reason})`);
  };
  let db: Database.Database;
  try {
    ensurePrivateDir(dataDir);
    createPrivateFile(lockPath);
    db = new Database(lockPath, { fileMustExist: true, timeout: 0 });
  } catch (error) {
    throw cannotLock(error);
  }
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (!(error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY'))) {
      throw cannotLock(error);
    }
    const pid = await holderPid(pidPath);
    throw new DataDirInUse(
      `the data dir ${dataDir} is in use by another server (pid ${pid ?? 'unknown'}); stop it first, or give this one another --data-dir`,
      pid,
    );
  }
  try {
    writePid(pidPath);
  } catch (error) {
    db.close();
    throw cannotLock(error);
  }
  return {
    release() {
      if (!db.open) return;
      if (readPid(pidPath) === process.pid) rmSync(pidPath, { force: true });
      db.close(); // rolls the empty transaction back and lets the lock go
    },
  };
}

/** Written whole or not at all (a rename), so a refused start never reads half a number. */
function writePid(pidPath: string): void {
  const temporary = `${pidPath}.${process.pid}`;
  writeFileSync(temporary, `${process.pid}\n`, { mode: 0o600 });
  renameSync(temporary, pidPath);
}

function readPid(pidPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidPath, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pid in `server.pid` once it names a live process: right after the holder took the lock the file may still be
 * missing or name a server killed earlier.
 */
async function holderPid(pidPath: string): Promise<number | undefined> {
  const deadline = Date.now() + HOLDER_PID_WAIT_MS;
  for (;;) {
    const pid = readPid(pidPath);
    if (pid !== undefined && isAlive(pid)) return pid;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
