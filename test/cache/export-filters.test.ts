import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import {
  HISTORICAL_TABLES,
  HISTORICAL_TIME_COLUMN,
  type HistoricalRow,
  type HistoricalTable,
} from '../../src/contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily, type StrategyRecord } from '../../src/contract/strategies.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The cache's filters mean what the API's do: the rows the reference service serves, stored as the sync stores them,
 * filtered by `svc-monitor export` and by the API with the same bounds. Every expectation is the API's own answer in
 * this run, every bound taken from rows it served: nothing here depends on what the simulated world holds.
 */

/** Bucket histories hold many rows; their first pages are enough. */
const MAX_PAGES = 8;

let svc: TestService;
let root: string;
let cache: Cache;
const strategies = new Map<StrategyFamily, StrategyRecord[]>();
let locks: FusionLock[] = [];
const historical = new Map<HistoricalTable, HistoricalRow[]>();

async function pages<T>(path: string, max = Number.POSITIVE_INFINITY): Promise<T[]> {
  const out: T[][] = [];
  let cursor: string | number | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await svc.get(cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(String(cursor))}`);
    expect(res.status, path).toBe(200);
    out.push(res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null && out.length < max);
  return out.flat();
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'export-filters-'));
  svc = await startTestService();
  cache = openCache(join(root, 'cache.db'));
  for (const family of STRATEGY_FAMILIES) {
    const served: StrategyRecord[] = (await svc.get(`/${family}?limit=1000`)).body.data;
    strategies.set(family, served);
    cache.resources.upsertStrategy(family, served);
  }
  locks = await pages<FusionLock>('/fusion-locks?limit=500');
  cache.resources.upsertFusionLocks(locks);
  for (const table of HISTORICAL_TABLES) {
    const served = await pages<HistoricalRow>(`/historical/${table}?limit=1000`, MAX_PAGES);
    historical.set(table, served);
    cache.resources.upsertHistorical(table, served);
  }
});

afterAll(async () => {
  cache?.close();
  await svc?.close();
  rmSync(root, { recursive: true, force: true });
});

const texts = (rows: unknown[]) => rows.map((r) => JSON.stringify(r));

describe('export filters, against the API’s', () => {
  it('strategies: local_date inclusively, as the API’s date filter', async () => {
    for (const family of STRATEGY_FAMILIES) {
      const served = strategies.get(family) ?? [];
      expect(served.length, family).toBeGreaterThan(0);
      const { city_id: city, local_date: date } = served[0] as StrategyRecord;
      const one = (await svc.get(`/${family}?city_id=${city}&date=${date}&limit=1000`)).body.data;
      expect(one.length, family).toBeGreaterThan(0);
      expect(cache.export.rows(family, { cityId: city, since: date, until: date }), family).toEqual(texts(one));

      // three consecutive dates the records hold: what the API serves for each of them, in its own order
      const dates = [...new Set(served.map((r) => r.local_date))].sort();
      const window = dates.slice(Math.max(0, Math.floor(dates.length / 2) - 1)).slice(0, 3);
      const ids = new Set<number>();
      for (const d of window)
        for (const r of (await svc.get(`/${family}?date=${d}&limit=1000`)).body.data as StrategyRecord[]) ids.add(r.id);
      const until = `${window.at(-1)}T23:00:00Z`;
      expect(cache.export.rows(family, { since: window[0], until }), family).toEqual(
        texts(served.filter((r) => ids.has(r.id))),
      );
    }
  });

  it('fusion locks: locked_at inclusively, as the API’s since', async () => {
    expect(locks.length).toBeGreaterThan(60);
    const { locked_at: since, city_id: city } = locks[40] as FusionLock;
    const served = await pages<FusionLock>(`/fusion-locks?since=${since}&city_id=${city}&limit=500`);
    expect(served.length).toBeGreaterThan(0);
    expect(cache.export.rows('fusion-locks', { cityId: city, since })).toEqual(texts(served));
    // since = until: the locks of that one instant, as served
    const at = (locks[60] as FusionLock).locked_at;
    const bounded = cache.export.rows('fusion-locks', { since: at, until: at }).map((t) => JSON.parse(t).id);
    expect(bounded).toEqual(locks.filter((l) => l.locked_at === at).map((l) => l.id));
  });

  it('historical tables: city and the DESIGN.md section 4 column, as the API', async () => {
    for (const table of HISTORICAL_TABLES) {
      const held = historical.get(table) ?? [];
      const oldest = held[held.length - 1] as HistoricalRow;
      const t = String(oldest[HISTORICAL_TIME_COLUMN[table].column]);
      // the oldest row's UTC day up to that row (an instant bound is inclusive); a date column: that one date
      const since = t.slice(0, 10);
      const until = t;
      const path = `/historical/${table}?city_id=${oldest.city_id}&since=${since}&until=${until}&limit=1000`;
      const served = await pages<HistoricalRow>(path);
      const mine = cache.export.rows(`historical/${table}`, { cityId: oldest.city_id, since, until });
      const heldIds = new Set(held.map((r) => r.id));
      expect(mine, table).toEqual(texts(served.filter((r) => heldIds.has(r.id))));
      expect(mine.length, table).toBeGreaterThan(0);
    }
  });
});
