/**
 * Insert rate of the cache for historical rows, page by page as a backfill writes them (1000 rows a page, ids
 * descending), beside the rate of JSON.parse of the same pages and of a bare prepared INSERT (no index, no JSON
 * work) into the same kind of file; then fusion locks, 500 a page, newest first. Not a unit test (timings never
 * go there):
 *
 *   npx tsx bench/cache-insert-rate.ts [rows=100000] [table=mkta_buckets_history]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCacheFile } from '../src/cache/db/open-cache-file.js';
import { openCache } from '../src/cache/index.js';
import type { FusionLock } from '../src/contract/fusion-locks.js';
import { type HistoricalRow, type HistoricalTable, isHistoricalTable } from '../src/contract/historical.js';

const total = Number(process.argv[2] ?? 100_000);
const table = (process.argv[3] ?? 'mkta_buckets_history') as HistoricalTable;
if (!isHistoricalTable(table)) throw new Error(`not a historical table: ${table}`);
const PAGE = 1000;
const cities = ['nyc', 'chicago', 'dallas', 'seattle', 'london', 'paris', 'amsterdam', 'rome', 'madrid', 'berlin'];

/** Rows shaped like the reference service's bucket snapshots, newest (largest id) first. */
function page(firstId: number, n: number): HistoricalRow[] {
  const rows: HistoricalRow[] = [];
  for (let i = 0; i < n; i++) {
    const id = firstId - i;
    const city = cities[id % cities.length] as string;
    const at = new Date(Date.UTC(2026, 9, 22) + Math.floor(id / 10) * 60_000).toISOString().slice(0, 19);
    rows.push({
      id,
      city_id: city,
      local_date: at.slice(0, 10),
      event_slug: `highest-temperature-in-${city}-on-november-21-2026`,
      snapshot_at: `${at}Z`,
      fetched_at: `${at}Z`,
      observed_at: `${at}Z`,
      bucket_slug: `${60 + (id % 20)}-${61 + (id % 20)}f`,
      bucket_label: `${60 + (id % 20)}-${61 + (id % 20)}°F`,
      yes_price: Math.round((id % 997) / 0.997) / 1000,
      no_price: Math.round(1000 - (id % 997) / 0.997) / 1000,
    });
  }
  return rows;
}

const lockTemplate: FusionLock = {
  id: '',
  city_id: '',
  local_date: '',
  peak_hour: 15,
  locked_at: '',
  bucket_slug: '56-57f',
  bucket_label: '56-57°F',
  event_slug: '',
  yes_price: 0.72,
  tokens: 13.8889,
  resolved: true,
  actual_tmax_f: 57.2,
  actual_tmax_c: 14,
  hit: true,
  payout_usd: 13.89,
  pnl_usd: 3.89,
};

const texts: string[] = [];
for (let first = total; first > 0; first -= PAGE) {
  texts.push(
    JSON.stringify({ table, count: PAGE, next_cursor: first - PAGE, data: page(first, Math.min(PAGE, first)) }),
  );
}
const root = mkdtempSync(join(tmpdir(), 'cache-rate-'));
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
try {
  let t = performance.now();
  const pages = texts.map((text) => (JSON.parse(text) as { data: HistoricalRow[] }).data);
  const parseRate = rate(total, performance.now() - t);

  // a connection set up exactly as the cache's (its pragmas and schema), for one bare table beside it
  const bare = openCacheFile(join(root, 'bare.db'));
  bare.exec('CREATE TABLE bare (id INTEGER PRIMARY KEY, json TEXT NOT NULL)');
  const insert = bare.prepare('INSERT INTO bare (id, json) VALUES (?, ?)');
  const texted = pages.map((rows) => rows.map((r) => [r.id, JSON.stringify(r)] as const));
  const bareWrite = bare.transaction((rows: (readonly [number, string])[]) => {
    for (const [id, json] of rows) insert.run(id, json);
  });
  t = performance.now();
  for (const rows of texted) bareWrite(rows);
  const bareRate = rate(total, performance.now() - t);
  bare.close();

  const cache = openCache(join(root, 'cache.db'));
  let inserted = 0;
  t = performance.now();
  for (const [i, rows] of pages.entries()) {
    inserted += cache.resources.upsertHistorical(table, rows, {
      stream: `historical/${table}`,
      value: String(i),
    }).inserted;
  }
  const cacheRate = rate(inserted, performance.now() - t);
  t = performance.now();
  let unchanged = 0;
  for (const rows of pages) unchanged += cache.resources.upsertHistorical(table, rows).unchanged;
  const repollRate = rate(unchanged, performance.now() - t);

  const locks: FusionLock[][] = [];
  const day0 = Date.UTC(2026, 10, 21);
  for (let first = total; first > 0; first -= 500) {
    const pageLocks: FusionLock[] = [];
    for (let n = first; n > Math.max(0, first - 500); n--) {
      const city = cities[n % cities.length] as string;
      const date = new Date(day0 - Math.floor(n / cities.length) * 86_400_000).toISOString().slice(0, 10);
      pageLocks.push({
        ...lockTemplate,
        id: `fl-${city}-${date.replaceAll('-', '')}-${n}`,
        city_id: city,
        local_date: date,
        locked_at: `${date}T${String(10 + (n % cities.length)).padStart(2, '0')}:00:00Z`,
        event_slug: `highest-temperature-in-${city}-on-${date}`,
      });
    }
    locks.push(pageLocks.reverse().sort((a, b) => (a.locked_at < b.locked_at ? 1 : -1)));
  }
  t = performance.now();
  let lockRows = 0;
  for (const pageLocks of locks) lockRows += cache.resources.upsertFusionLocks(pageLocks).inserted;
  const lockRate = rate(lockRows, performance.now() - t);
  cache.close();

  console.log(
    JSON.stringify(
      {
        table,
        rows: total,
        page: PAGE,
        cache_insert_rows_per_s: cacheRate,
        cache_repoll_unchanged_rows_per_s: repollRate,
        json_parse_rows_per_s: parseRate,
        bare_sqlite_insert_rows_per_s: bareRate,
        ratio_to_bare_insert: Math.round((cacheRate / bareRate) * 100) / 100,
        cache_lock_insert_rows_per_s: lockRate,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
