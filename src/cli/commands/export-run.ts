import type { RecordRules } from '../../board/board-record.js';
import { type Cache, cacheFailure, type ExportFilter, openCache } from '../../cache/index.js';
import type { SettlementConfig } from '../../contract/config.js';
import { resolveConnection } from '../config.js';
import { usageError } from '../exit-codes.js';
import type { ExportFlags, ExportFormat } from './export-flags.js';

type Format = ExportFormat;

/** RFC 4180 field: quoted when it holds a comma, quote or line break; nested values as their JSON. */
function csvField(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV table: the columns every row has, in order of first appearance. */
function toCsv(rows: readonly string[]): string {
  const objects = rows.map((json) => JSON.parse(json) as Record<string, unknown>);
  const columns = [...new Set(objects.flatMap((o) => Object.keys(o)))];
  const lines = [columns.map(csvField).join(','), ...objects.map((o) => columns.map((c) => csvField(o[c])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

export function formatRows(rows: readonly string[], format: Format): string {
  if (format === 'ndjson') return rows.map((row) => `${row}\n`).join('');
  if (format === 'csv') return rows.length === 0 ? '' : toCsv(rows);
  return rows.length === 0 ? '[]\n' : `[\n${rows.join(',\n')}\n]\n`;
}

/** `svc-monitor export NAME`'s work (commands/export.ts declares it): the rows on stdout. */
export async function runExport(name: string, flags: ExportFlags): Promise<void> {
  // what was asked was checked before this module loaded (export.ts, export-flags.ts): a mistyped name is a mistyped
  // name, whatever the cache
  // a reader: a mistyped --db is "no cache at PATH", never a new empty cache
  const connection = await resolveConnection({ db: flags.db });
  const path = connection.dbPath;
  const cache = openCache(path, 'read');
  try {
    let rows: string[];
    try {
      const filter = { cityId: flags.city, since: flags.since, until: flags.until };
      const rules = { edgeMin: connection.alerts.edgeMin, settlement: connection.settlement };
      rows =
        name === 'board'
          ? await boardRows(cache, flags, connection.settlement)
          : name === 'board-record'
            ? await boardRecordRows(cache, rules, filter)
            : cache.export.rows(name, filter);
    } catch (error) {
      // a damaged page met while reading: one line naming the file (exit 2), not SQLite's bare message
      throw cacheFailure(path, error);
    }
    process.stdout.write(formatRows(rows, flags.format as Format));
  } finally {
    cache.close();
  }
}

/**
 * `export board`: the board as of now (the market's clock, DESIGN 4) or of `--at` (board/board-export.ts;
 * replay-instant.ts checks the instant), for each city's own day then or the `--date` given, one object a city; in
 * CSV one record a bucket. The cities' markets are priced by the config's `settlement`. A `--city` the cache does not
 * list is exit 2, naming it: ids are matched exactly as the service lists them.
 */
async function boardRows(cache: Cache, flags: ExportFlags, settlement?: SettlementConfig): Promise<string[]> {
  const [{ boardCsvRecords, exportBoard }, { replayInstant }, { marketClockOf }] = await Promise.all([
    import('../../board/board-export.js'),
    import('../replay-instant.js'),
    import('../market-clock.js'),
  ]);
  const now = marketClockOf(cache).nowMs();
  const atMs = flags.at === undefined ? now : replayInstant(flags.at, cache, now);
  const all = cache.resources.cities();
  const cities = flags.city === undefined ? all : all.filter((c) => c.city_id === flags.city);
  if (flags.city !== undefined && cities.length === 0)
    throw usageError(
      `--city: no city '${flags.city}' in the cache; its cities: ${all.map((c) => c.city_id).join(', ') || 'none yet'}`,
    );
  const board = exportBoard(cache, { atMs, replay: flags.at !== undefined, date: flags.date, cities, settlement });
  return (flags.format === 'csv' ? boardCsvRecords(board) : board).map((row) => JSON.stringify(row));
}

/** `export board-record`: the board's record over the cache's settled days (board/board-record.ts), one row a trade. */
async function boardRecordRows(cache: Cache, rules: RecordRules, filter: ExportFilter): Promise<string[]> {
  const { exportBoardRecord } = await import('../../board/board-record.js');
  return exportBoardRecord(cache, rules, filter).map((trade) => JSON.stringify(trade));
}
