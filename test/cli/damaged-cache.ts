import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Damages a cache file the way a bad disk sector does: one b-tree page of `table` (the middle one of its pages,
 * found with SQLite's dbstat) overwritten with a pattern that is no valid page. The WAL is checkpointed into the
 * file first, so the page on disk is the page SQLite reads. Returns the page number.
 */
export function damagePage(file: string, table: string): number {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = db.prepare('SELECT pageno FROM dbstat WHERE name = ? ORDER BY pageno').pluck().all(table) as number[];
  db.close();
  if (existsSync(`${file}-wal`)) throw new Error(`${file}-wal is still there: the page on disk may not be current`);
  const page = pages[Math.floor(pages.length / 2)];
  if (page === undefined) throw new Error(`no page of ${table} in ${file}`);
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
  return page;
}
