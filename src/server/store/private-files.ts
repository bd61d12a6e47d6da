import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The data dir holds webhook secrets in plain text (the server must sign with them), so it and its files are the
 * operator's alone: the dir 0700, the files 0600, whatever the umask.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Creates `path` empty with mode 0600 unless it exists; an existing file is left as it is. */
export function createPrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') return;
    throw error;
  }
  try {
    fchmodSync(fd, 0o600); // exactly 0600: a umask may only have narrowed it further
  } finally {
    closeSync(fd);
  }
}

/**
 * Narrows to 0600 those of `paths` that others may read (a store made by an earlier release was 0644). SQLite gives
 * new -wal and -shm files the mode of their database, but an existing one keeps its own. Best effort: a file of
 * another owner is left alone.
 */
export function narrowToOwner(paths: readonly string[]): void {
  for (const path of paths) {
    try {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    } catch {
      // missing (no -wal yet) or not ours to change
    }
  }
}
