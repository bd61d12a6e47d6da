import type { Cache } from '../src/cache/index.js';
import type { HistoricalRow } from '../src/contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyRecord } from '../src/contract/strategies.js';

/**
 * Grows a synced cache to the TUI benchmark's size: `rows` METAR rows (copies of a real one with new ids, as a
 * long backfill would leave) and `positions` open strategy records spread over the three families (copies of real
 * records, reopened).
 */
export function growCache(cache: Cache, rows: number, positions: number): void {
  // the newest METAR row of each city, repeated back in time every 30 minutes: years of a long backfill
  const samples = cache.resources
    .cityIds()
    .flatMap((cityId) => newest<HistoricalRow>(cache, 'historical/metar_observations_history', cityId, 1));
  let nextId = Math.max(...samples.map((r) => r.id as number)) + 1;
  for (let written = 0; written < rows; written += 1000) {
    const page: HistoricalRow[] = [];
    for (let i = written; i < Math.min(written + 1000, rows); i++) {
      const sample = samples[i % samples.length] as HistoricalRow;
      const at = new Date(Date.parse(sample.observed_at as string) - (Math.floor(i / samples.length) + 1) * 1_800_000);
      const iso = `${at.toISOString().slice(0, 19)}Z`;
      page.push({ ...sample, id: nextId++, observed_at: iso, fetched_at: iso, local_date: iso.slice(0, 10) });
    }
    cache.resources.upsertHistorical('metar_observations_history', page.reverse());
  }
  // open positions: the family's newest 100 records, repeated with new ids and reopened, so cities, buckets and
  // prices vary as they would
  const perFamily = Math.ceil(positions / STRATEGY_FAMILIES.length);
  for (const family of STRATEGY_FAMILIES) {
    const samples = newest<StrategyRecord>(cache, family, undefined, 100);
    let id = Math.max(...samples.map((r) => r.id as number)) + 1;
    const open: StrategyRecord[] = [];
    for (let i = 0; i < perFamily; i++)
      open.push({ ...samples[i % samples.length], id: id++, outcome: null, roi: null } as StrategyRecord);
    for (let i = 0; i < open.length; i += 1000) cache.resources.upsertStrategy(family, open.slice(i, i + 1000));
  }
}

/** The newest `n` rows of an export NAME (of one city), read lazily. */
function newest<T>(cache: Cache, name: string, cityId: string | undefined, n: number): T[] {
  const rows: T[] = [];
  for (const text of cache.export.iterate(name, { cityId })) {
    rows.push(JSON.parse(text) as T);
    if (rows.length === n) break;
  }
  return rows;
}
