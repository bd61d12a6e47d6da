import { openStore } from '../src/server/store/open-store.js';
import { meanP50, ratio, sequentialLatency, spawnReady, writeResult } from './lib.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';

const DEPTH = 1_000_000;
const WINDOW = { since: '2026-11-01', until: '2026-11-10T23:59:59Z' };

/**
 * Latency of `/historical/{table}` at page 1 and at a page one million rows deep (keyset pagination keeps them
 * alike; OFFSET would not). Sequential requests, one connection, same run.
 */
export async function benchDeepPage(requests = 2000): Promise<object> {
  const dir = prepareWorld(DEPTH + 100_000);
  const db = openStore(dir);
  const maxId = db.prepare('SELECT max(id) FROM h_metar_observations_history').pluck().get() as number;
  const rows = db.prepare('SELECT count(*) FROM h_metar_observations_history').pluck().get() as number;
  // a page half way into a nine-day window on both sides, on the biggest table of the world (a bucket a half hour)
  const [windowFirst, windowLast] = db
    .prepare('SELECT min(id), max(id) FROM h_mkta_buckets_history WHERE t >= ? AND t <= ?')
    .raw()
    .get(WINDOW.since, WINDOW.until) as [number, number];
  const bucketRows = db.prepare('SELECT count(*) FROM h_mkta_buckets_history').pluck().get() as number;
  db.close();
  const service = await spawnReady('service-process.mjs', [dir, BENCH_KEY]);
  const headers = { 'x-api-key': BENCH_KEY };
  const table = `${service.url}/historical/metar_observations_history?limit=100`;
  try {
    const deepCursor = maxId - DEPTH + 1; // ids maxId .. deepCursor lie above this page: one million rows
    const check = (await (await fetch(`${table}&cursor=${deepCursor}`, { headers })).json()) as { count: number };
    if (check.count !== 100) throw new Error(`deep page returned ${check.count} rows`);
    // interleaved rounds, so drift in machine load hits both sides alike
    const first = await sequentialLatency(table, headers, requests / 2);
    const deep = await sequentialLatency(`${table}&cursor=${deepCursor}`, headers, requests / 2);
    const first2 = await sequentialLatency(table, headers, requests / 2);
    const deep2 = await sequentialLatency(`${table}&cursor=${deepCursor}`, headers, requests / 2);
    // a window with both ends: its page costs its own rows, not the window's (server/store/api-reads.ts)
    // each request a cursor of its own (an answer asked for again is reused), stepping down from half way in
    const buckets = `${service.url}/historical/mkta_buckets_history?limit=100`;
    const cursorAt = (i: number) => Math.round((windowFirst + windowLast) / 2) - i * 7;
    const plain = (i: number) => `${buckets}&cursor=${cursorAt(i)}`;
    const inWindow = (i: number) => `${plain(i)}&since=${WINDOW.since}&until=${WINDOW.until}`;
    const unfiltered = await sequentialLatency(plain, headers, requests / 4);
    const windowed = await sequentialLatency(inWindow, headers, requests / 4);
    const unfiltered2 = await sequentialLatency((i) => plain(i + requests), headers, requests / 4);
    const windowed2 = await sequentialLatency((i) => inWindow(i + requests), headers, requests / 4);
    const result = {
      what: 'p50 latency of a page one million rows deep as a ratio to page 1 (must stay under 1.5)',
      table_rows: rows,
      page_1: [first, first2],
      page_deep: [deep, deep2],
      page_1_p50_ms: meanP50(first, first2),
      page_deep_p50_ms: meanP50(deep, deep2),
      ratio_p50: ratio(meanP50(deep, deep2), meanP50(first, first2)),
      window: {
        what: `mkta_buckets_history (${bucketRows} rows): pages half way into since=${WINDOW.since}&until=${WINDOW.until} (ids ${windowFirst}..${windowLast}) vs the same cursors unfiltered, p50`,
        page_unfiltered_p50_ms: meanP50(unfiltered, unfiltered2),
        page_in_window_p50_ms: meanP50(windowed, windowed2),
        ratio_p50: ratio(meanP50(windowed, windowed2), meanP50(unfiltered, unfiltered2)),
      },
    };
    writeResult('server-deep-page', result);
    return result;
  } finally {
    await service.stop();
  }
}
