import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackupError, type Cache, cacheFailure, openCache, type PruneReport, pruneCache } from '../../cache/index.js';
import { resolveConnection } from '../config.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { count, megabytes } from '../format-numbers.js';
import { marketClockOf } from '../market-clock.js';

/** The cache of `--db` (or SVC_DB, or the default) opened for `work`, closed after; its errors name the file. */
async function withCache<T>(
  flags: { db?: string },
  access: 'read' | 'write',
  work: (cache: Cache, detailDays: number | null, path: string) => Promise<T>,
): Promise<T> {
  const connection = await resolveConnection({ db: flags.db });
  const cache = openCache(connection.dbPath, access);
  try {
    return await work(cache, connection.detailDays, connection.dbPath);
  } catch (error) {
    throw cacheFailure(connection.dbPath, error);
  } finally {
    cache.close();
  }
}

/** `cache prune`: retention now, what it thinned a table and the space given back. */
export async function runPrune(flags: { db?: string }): Promise<void> {
  await withCache(flags, 'write', async (cache, detailDays) => {
    if (detailDays === null) {
      process.stdout.write('retention.detail_days is null: every row is kept, nothing thinned\n');
      return;
    }
    const report = await pruneCache(cache, { nowMs: marketClockOf(cache).nowMs(), detailDays });
    process.stdout.write(pruneLines(report, detailDays));
  });
}

function pruneLines(report: PruneReport, detailDays: number): string {
  const lines: string[] = [];
  if (report.converted)
    lines.push('converted the cache to auto_vacuum = INCREMENTAL (a one-time VACUUM of the whole file)');
  const cutoff = `${new Date(report.cutoffMs).toISOString().slice(0, 19)}Z`;
  lines.push(`thinned to the hour: rows older than ${cutoff} (retention.detail_days ${detailDays})`);
  const width = Math.max(...Object.keys(report.thinned).map((name) => name.length));
  let total = 0;
  for (const [name, rows] of Object.entries(report.thinned)) {
    total += rows;
    lines.push(`  ${name.padEnd(width)}  ${count(rows)} rows`);
  }
  lines.push(`  ${'total'.padEnd(width)}  ${count(total)} rows`);
  const returned = Math.max(0, report.bytesBefore - report.bytesAfter);
  lines.push(
    `file ${megabytes(report.bytesBefore)} -> ${megabytes(report.bytesAfter)} (${megabytes(returned)} returned)`,
  );
  return `${lines.join('\n')}\n`;
}

/** A typed value is never repeated in an error (typed-values.ts): FILE is named as the usage names it. */
const EXISTS = 'FILE exists: a backup is made into a new file, never over one';

/** `cache backup FILE`: an online copy; an existing FILE is refused (exit 2), whatever it holds. */
export async function runBackup(file: string, flags: { db?: string }): Promise<void> {
  const destination = resolve(file);
  if (existsSync(destination)) throw usageError(EXISTS);
  await withCache(flags, 'read', async (cache, _days, path) => {
    try {
      await cache.retention.backup(destination);
    } catch (error) {
      if (!(error instanceof BackupError)) throw error;
      if (error.code === 'EEXIST') throw usageError(EXISTS);
      if (error.code === 'ENOENT' || error.code === 'EACCES' || error.code === 'ENOTDIR')
        throw usageError(`FILE cannot be created (${error.code}): is its folder there, and writable?`);
      // the copy's own write failed (a full disk or quota, a read-only mount, an I/O error): the cache is fine, and
      // FILE is named as the usage names it (a typed value is never repeated in an error)
      throw new CliError(
        `FILE could not be written (${error.message}): nothing was kept, the cache is unchanged`,
        EXIT.failure,
      );
    }
    process.stdout.write(`backed up ${path} to ${destination} (${megabytes(statSync(destination).size)})\n`);
  });
}

/** `cache check`: `ok`, or exit 1 with what is wrong in one line. */
export async function runCheck(flags: { db?: string }): Promise<void> {
  await withCache(flags, 'read', async (cache, _days, path) => {
    const problems = cache.retention.problems();
    if (problems.length > 0) throw new CliError(`${path} fails its check: ${problems.join('; ')}`, EXIT.failure);
    process.stdout.write('ok\n');
  });
}
