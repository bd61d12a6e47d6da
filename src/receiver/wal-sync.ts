import { type FileHandle, open } from 'node:fs/promises';

/**
 * Makes every commit of a WAL-mode cache made so far durable: an fsync of its `-wal` file, on libuv's thread pool
 * rather than inside the commit (what synchronous=FULL would do), so the event loop keeps working while the disk
 * flushes. This is the same guarantee as FULL: a committed transaction is its frames in the WAL, and once they
 * are on the disk the commit survives a power cut (SQLite syncs the WAL again before any checkpoint copies it).
 * `walFile` is the cache's (cache.walFile); an in-memory cache has none, and nothing to sync.
 */
export function walSync(walFile: string | null): { sync(): Promise<void>; close(): Promise<void> } {
  let wal: Promise<FileHandle> | undefined;
  return {
    async sync() {
      if (walFile === null) return;
      // the WAL exists from the first commit on, and SQLite truncates it in place rather than replacing it
      wal ??= open(walFile, 'r');
      // fdatasync, as SQLite itself uses: the data and the size, not the mtime
      await (await wal).datasync();
    },
    async close() {
      const handle = wal;
      wal = undefined;
      await (await handle)?.close();
    },
  };
}
