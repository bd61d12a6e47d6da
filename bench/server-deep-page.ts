import { openStore } from '../src/server/store/open-store.js';
import { meanP50, ratio, sequentialLatency, spawnReady, writeResult } from './lib.js';
import { BENCH_KEY, prepareWorld } from './prepare-world.js';

const DEPTH = 1_000_000;

/**
 * Latency of `/historical/{table}` at page 1 and at a page one million rows deep (keyset pagination keeps them
 * alike; OFFSET would not). Sequential requests, one connection, same run.
 */
export async function benchDeepPage(requests = 2000): Promise<object> {
  const dir = prepareWorld(DEPTH + 100_000);
  const db = openStore(dir);
  const maxId = db.prepare('SELECT max(id) FROM h_metar_observations_history').pluck().get() as number;
  const rows = db.prepare('SELECT count(*) FROM h_metar_observations_history').pluck().get() as number;
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
    const result = {
      what: 'p50 latency of a page one million rows deep as a ratio to page 1 (must stay under 1.5)',
      table_rows: rows,
      page_1: [first, first2],
      page_deep: [deep, deep2],
      page_1_p50_ms: meanP50(first, first2),
      page_deep_p50_ms: meanP50(deep, deep2),
      ratio_p50: ratio(meanP50(deep, deep2), meanP50(first, first2)),
    };
    writeResult('server-deep-page', result);
    return result;
  } finally {
    await service.stop();
  }
}
