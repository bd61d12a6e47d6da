import type { Cache } from '../cache/index.js';
import type { ApiClient } from '../client/api-client.js';
import { HISTORICAL_TABLES, type HistoricalTable } from '../contract/historical.js';
import { LIMITS } from '../contract/limits.js';
import { addCounts, noCounts, type StreamCounts } from './counts.js';

export interface BackfillProgress {
  table: HistoricalTable;
  rows: number;
  pages: number;
  rowsPerSecond: number;
}

const DONE = 'done';

/** `--backfill a,b` or `all` -> table names; an unknown name is an error naming the whitelist. */
export function backfillTables(spec: string): HistoricalTable[] {
  if (spec === 'all') return [...HISTORICAL_TABLES];
  const names = spec.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(HISTORICAL_TABLES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`unknown historical table ${unknown.join(', ')}; the tables are ${HISTORICAL_TABLES.join(', ')}`);
  return names as HistoricalTable[];
}

/**
 * Drains historical tables into the cache, a transaction per page, the cursor saved with each page: an interrupted
 * backfill with the same bounds resumes where it stopped. A finished one starts over next time (new rows are
 * newer than any cursor), which costs only unchanged upserts.
 */
export async function backfill(
  client: ApiClient,
  cache: Cache,
  tables: readonly HistoricalTable[],
  bounds: { since?: string; until?: string },
  onProgress?: (progress: BackfillProgress) => void,
): Promise<Record<string, StreamCounts>> {
  const result: Record<string, StreamCounts> = {};
  for (const table of tables) {
    const stream = `backfill/${table}?since=${bounds.since ?? ''}&until=${bounds.until ?? ''}`;
    const saved = cache.streams.checkpoint(stream);
    const cursor = saved === undefined || saved === DONE ? undefined : saved;
    const counts = noCounts();
    const started = performance.now();
    let pages = 0;
    for await (const page of client.historical(table, { ...bounds, cursor, limit: LIMITS.maxPageSize })) {
      const next = page.nextCursor === null ? DONE : String(page.nextCursor);
      addCounts(counts, page.rows.length, cache.resources.upsertHistorical(table, page.rows, { stream, value: next }));
      pages++;
      const seconds = (performance.now() - started) / 1000;
      onProgress?.({
        table,
        rows: counts.fetched,
        pages,
        rowsPerSecond: Math.round(counts.fetched / Math.max(seconds, 0.001)),
      });
    }
    result[`historical/${table}`] = counts;
  }
  return result;
}
