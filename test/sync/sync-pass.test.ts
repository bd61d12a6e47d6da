import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { CURRENT_SOURCES } from '../../src/contract/current.js';
import { HISTORICAL_TABLES } from '../../src/contract/historical.js';
import { backfill } from '../../src/sync/backfill.js';
import { SyncEngine } from '../../src/sync/sync-engine.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';

let svc: TestService;
let cache: Cache;
let client: ApiClient;
const root = mkdtempSync(join(tmpdir(), 'svc-sync-'));

/** Every row the API serves on a list endpoint, in its order, as the exact JSON text of each row. */
async function apiRows(path: string, limit: number): Promise<string[]> {
  const rows: string[] = [];
  let cursor: string | number | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const { body } = await svc.get(`${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    rows.push(...body.data.map((row: unknown) => JSON.stringify(row)));
    cursor = body.next_cursor ?? null;
  } while (cursor !== null);
  return rows;
}

beforeAll(async () => {
  svc = await startTestService();
  cache = openCache(join(root, 'cache.db'));
  client = new ApiClient({ baseUrl: svc.baseUrl, apiKey: TEST_KEY });
});
afterAll(async () => {
  await client.close();
  cache.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a sync pass', () => {
  it('brings every endpoint into the cache, and export returns the rows exactly as the API serves them', async () => {
    const summary = await new SyncEngine({ client, cache }).runOnce();
    expect(summary.errors).toEqual([]);
    // in the order they ran: METAR before the bucket prices, so no price is stored before the day's running high
    expect(Object.keys(summary.streams)).toEqual([
      'cities',
      'current',
      'forecasts',
      'no24',
      'yescore',
      'svc-max-picks',
      'fusion-locks',
      'metar',
      'mkta-buckets',
      'mktb-buckets',
      'daily',
    ]);

    const cities = (await svc.get('/cities')).body.data.map((c: unknown) => JSON.stringify(c));
    expect([...cache.export.rows('cities')].sort()).toEqual([...cities].sort());
    for (const family of ['no24', 'yescore', 'svc-max-picks']) {
      expect(cache.export.rows(family), family).toEqual(await apiRows(`/${family}`, 1000));
    }
    expect(cache.export.rows('fusion-locks')).toEqual(await apiRows('/fusion-locks', 500));

    const current = cache.export.rows('current').map((json) => JSON.parse(json));
    for (const city of (await svc.get('/cities')).body.data) {
      const served = (await svc.get(`/current?city_id=${city.city_id}`)).body.data;
      for (const source of CURRENT_SOURCES) {
        const row = current.find((r) => r.city_id === city.city_id && r.source === source);
        const { city_id: _c, source: _s, ...member } = row;
        expect(JSON.stringify(member)).toBe(JSON.stringify(served[source]));
      }
    }
  });

  it('changes nothing when polled again, and picks up settlements and new locks as the world moves', async () => {
    const again = await new SyncEngine({ client, cache }).runOnce();
    for (const counts of Object.values(again.streams)) expect(counts).toMatchObject({ inserted: 0, updated: 0 });

    // past today's peak hours: new locks, still open
    const hour = 3_600_000;
    svc.service.world.advanceTo((svc.service.world.processedUntil() ?? 0) + 12 * hour);
    const afternoon = await new SyncEngine({ client, cache }).runOnce();
    expect(afternoon.streams['fusion-locks']?.inserted).toBeGreaterThan(0);
    const openThen = cache.export
      .rows('fusion-locks')
      .map((json) => JSON.parse(json))
      .filter((lock) => !lock.resolved)
      .map((lock) => lock.id as string);
    expect(openThen.length).toBeGreaterThan(0);
    // past local midnight everywhere: those locks and today's records settle, in place
    svc.service.world.advanceTo((svc.service.world.processedUntil() ?? 0) + 18 * hour);
    const later = await new SyncEngine({ client, cache }).runOnce();
    expect(later.streams.no24?.updated).toBeGreaterThan(0);
    expect(later.streams['fusion-locks']?.updated).toBeGreaterThan(0);
    const nowResolved = new Map(
      cache.export.rows('fusion-locks').map((json) => [JSON.parse(json).id, JSON.parse(json).resolved]),
    );
    for (const id of openThen) expect(nowResolved.get(id), id).toBe(true);
    expect(cache.export.rows('fusion-locks')).toEqual(await apiRows('/fusion-locks', 500));
    expect(cache.export.rows('no24')).toEqual(await apiRows('/no24', 1000));
  });

  it('backfills every historical table exactly as the API serves it', async () => {
    const result = await backfill(client, cache, HISTORICAL_TABLES, {});
    for (const table of HISTORICAL_TABLES) {
      const served = await apiRows(`/historical/${table}`, 1000);
      expect(result[`historical/${table}`]?.fetched, table).toBe(served.length);
      expect(cache.export.rows(`historical/${table}`), table).toEqual(served);
    }
  });
});

describe('a city that fails', () => {
  it('does not cost the other cities their update, and is reported', async () => {
    const proxy = await startFaultProxy(svc.baseUrl);
    const partialCache = openCache(join(root, 'partial.db'));
    const throughProxy = new ApiClient({
      baseUrl: proxy.baseUrl,
      apiKey: TEST_KEY,
      retry: { attempts: 2, baseMs: 1, capMs: 2 },
    });
    try {
      // nyc's observations always break the contract; every other answer is fine
      proxy.setPlan((path) => (path.includes('/current?city_id=nyc') ? 'bad-row' : 'pass'));
      const summary = await new SyncEngine({ client: throughProxy, cache: partialCache }).runOnce();
      const failure = summary.errors.find((e) => e.stream === 'current');
      expect(failure?.error).toMatch(
        /^1 of the cities failed, the rest were stored; first: GET \/current\?city_id=nyc/,
      );
      const cached = new Set(partialCache.export.rows('current').map((json) => JSON.parse(json).city_id));
      const cities = (await svc.get('/cities')).body.data.map((c: { city_id: string }) => c.city_id);
      expect([...cached].sort()).toEqual(cities.filter((id: string) => id !== 'nyc').sort());
      expect(summary.streams.current?.fetched).toBe((cities.length - 1) * 4);
    } finally {
      await throughProxy.close();
      partialCache.close();
      await proxy.close();
    }
  });
});
