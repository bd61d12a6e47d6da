import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../../src/cache/index.js';
import { SNAPSHOT_PAGE } from '../../../src/cache/market/newest-snapshot.js';
import type { Forecasts } from '../../../src/contract/forecasts.js';
import type { FusionLock } from '../../../src/contract/fusion-locks.js';
import type { HistoricalRow } from '../../../src/contract/historical.js';

let root: string;
let cache: Cache;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'board-reads-'));
  cache = openCache(join(root, 'cache.db'));
});
afterEach(() => {
  cache.close();
  rmSync(root, { recursive: true, force: true });
});

const D = '2026-11-24';
const quote = (id: number, date: string, at: string | null, slug: string, yes: number, city = 'nyc') =>
  ({
    id,
    city_id: city,
    local_date: date,
    event_slug: 'e',
    bucket_slug: slug,
    bucket_label: slug,
    yes_price: yes,
    no_price: 1 - yes,
    ...(at ? { snapshot_at: at } : {}),
  }) as unknown as HistoricalRow;

describe('the newest snapshot of a city-day', () => {
  it('is the rows of the day sharing the newest snapshot_at, lowest bucket first, past the next day interleaved', () => {
    cache.resources.upsertHistorical('mkta_buckets_history', [
      quote(1, '2026-11-23', '2026-11-23T20:00:00Z', 'a', 0.9),
      quote(2, D, '2026-11-24T15:00:00Z', 'a', 0.1),
      quote(3, D, '2026-11-24T15:00:00Z', 'b', 0.2),
      // the next snapshot, with the next day's market listed between its rows, and another city's
      quote(4, D, '2026-11-24T16:00:00Z', 'a', 0.3),
      quote(5, '2026-11-25', '2026-11-24T16:00:00Z', 'a', 0.5),
      quote(6, D, '2026-11-24T16:00:00Z', 'b', 0.4),
      quote(7, D, '2026-11-24T16:00:00Z', 'b', 0.6, 'paris'),
    ]);
    expect(cache.market.newestSnapshot('mkta', 'nyc', D).map((q) => [q.id, q.bucket_slug, q.yes_price])).toEqual([
      [4, 'a', 0.3],
      [6, 'b', 0.4],
    ]);
    expect(cache.market.newestSnapshot('mkta', 'nyc', '2026-11-25').map((q) => q.id)).toEqual([5]);
    expect(cache.market.newestSnapshot('mktb', 'nyc', D)).toEqual([]);
  });

  it('reads a page of the city rows when that holds the snapshot, not the whole day', () => {
    const rows: HistoricalRow[] = [];
    // 20 hourly snapshots of 11 buckets: 220 rows of the day
    for (let h = 0; h < 20; h++)
      for (let b = 0; b < 11; b++)
        rows.push(quote(h * 11 + b + 1, D, `2026-11-24T${String(h).padStart(2, '0')}:00:00Z`, `s${b}`, h / 100));
    cache.resources.upsertHistorical('mkta_buckets_history', rows);
    const before = cache.readStats.rows;
    const snapshot = cache.market.newestSnapshot('mkta', 'nyc', D);
    expect(snapshot).toHaveLength(11);
    expect(snapshot.every((q) => q.yes_price === 0.19)).toBe(true);
    expect(cache.readStats.rows - before).toBe(SNAPSHOT_PAGE);
  });

  it('as of an instant: the newest snapshot at or before it, the later rows stepped over', () => {
    cache.resources.upsertHistorical('mkta_buckets_history', [
      quote(1, D, '2026-11-24T15:00:00Z', 'a', 0.1),
      quote(2, D, '2026-11-24T15:00:00Z', 'b', 0.2),
      quote(3, D, '2026-11-24T16:00:00Z', 'a', 0.3),
      quote(4, D, '2026-11-24T16:00:00Z', 'b', 0.4),
    ]);
    const at = (iso: string) => cache.market.newestSnapshot('mkta', 'nyc', D, Date.parse(iso)).map((q) => q.yes_price);
    expect(at('2026-11-24T16:00:00Z')).toEqual([0.3, 0.4]);
    expect(at('2026-11-24T15:59:59Z')).toEqual([0.1, 0.2]);
    expect(at('2026-11-24T14:59:59Z')).toEqual([]);
    // the newest quote of each bucket, as of the instant too
    expect(cache.market.dayQuotes('mkta', 'nyc', D, Date.parse('2026-11-24T15:30:00Z')).map((q) => q.id)).toEqual([
      1, 2,
    ]);
  });

  it('without snapshot_at, takes the newest quote of each bucket instead', () => {
    cache.resources.upsertHistorical('mkta_buckets_history', [
      quote(1, D, null, 'a', 0.1),
      quote(2, D, null, 'b', 0.2),
      quote(3, D, null, 'a', 0.3),
    ]);
    expect(cache.market.newestSnapshot('mkta', 'nyc', D).map((q) => [q.bucket_slug, q.yes_price])).toEqual([
      ['b', 0.2],
      ['a', 0.3],
    ]);
  });
});

describe('the lock of a city-day', () => {
  const lock = (id: string, date: string, lockedAt: string, resolved: boolean): FusionLock =>
    ({ id, city_id: 'nyc', local_date: date, peak_hour: 15, locked_at: lockedAt, resolved }) as unknown as FusionLock;
  it('is the lock made on that day, resolved or not; null before it exists', () => {
    // 2026-11-24 in New York: 05:00Z to 05:00Z the next day
    const day = { date: D, startMs: Date.parse('2026-11-24T05:00:00Z'), endMs: Date.parse('2026-11-25T05:00:00Z') };
    expect(cache.market.dayLock('nyc', day)).toBeNull();
    cache.resources.upsertFusionLocks([
      lock('yesterday', '2026-11-23', '2026-11-23T20:00:00Z', true),
      lock('today', D, '2026-11-24T20:00:00Z', false),
    ]);
    expect(cache.market.dayLock('nyc', day)).toMatchObject({ id: 'today', peak_hour: 15, resolved: false });
    cache.resources.upsertFusionLocks([lock('today', D, '2026-11-24T20:00:00Z', true)]);
    expect(cache.market.dayLock('nyc', day)?.resolved).toBe(true);
    // as of an instant before it was locked: none yet
    expect(cache.market.dayLock('nyc', day, Date.parse('2026-11-24T19:59:59Z'))).toBeNull();
    expect(cache.market.dayLock('nyc', day, Date.parse('2026-11-24T20:00:00Z'))?.id).toBe('today');
  });
});

describe('the METAR and the forecasts of a city-day as of an instant', () => {
  it('reads the readings up to the instant, and the newest forecast of each layer fetched by then', () => {
    const day = { date: D, startMs: Date.parse('2026-11-24T05:00:00Z'), endMs: Date.parse('2026-11-25T05:00:00Z') };
    const reading = (id: number, at: string, c: number) =>
      ({ id, city_id: 'nyc', local_date: D, observed_at: at, temp_c: c, temp_f: (c * 9) / 5 + 32 }) as HistoricalRow;
    cache.resources.upsertHistorical('metar_observations_history', [
      reading(1, '2026-11-24T14:00:00Z', 18),
      reading(2, '2026-11-24T16:00:00Z', 21),
    ]);
    expect(cache.market.metarDay('nyc', day).high).toEqual({
      f: 69.8,
      c: 21,
      since: Date.parse('2026-11-24T16:00:00Z'),
    });
    expect(cache.market.metarDay('nyc', day, Date.parse('2026-11-24T15:59:59Z')).high).toEqual({
      f: 64.4,
      c: 18,
      since: Date.parse('2026-11-24T14:00:00Z'),
    });
    expect(cache.market.metarDay('nyc', day, Date.parse('2026-11-24T16:00:00Z')).points).toHaveLength(2);

    const forecasts = (fetched_at: string, mu: number) =>
      ({
        city_id: 'nyc',
        svc_pro_forecast: { city_id: 'nyc', local_date: D, predicted_max_c: mu, fetched_at },
        edge_ensemble_daily: { city_id: 'nyc', local_date: D, fc_mean_c: mu },
        model_tmax_range: { city_id: 'nyc', local_date: D, tmax_max_c: mu },
      }) as unknown as Forecasts;
    cache.resources.addForecasts(forecasts('2026-11-24T14:05:00Z', 20));
    cache.resources.addForecasts(forecasts('2026-11-24T15:05:00Z', 21));
    const mu = (atMs?: number) =>
      cache.market.forecasts('nyc', atMs).map((r) => [r.layer, (r as { predicted_max_c?: number }).predicted_max_c]);
    expect(mu().map(([layer]) => layer)).toEqual(['svc_pro_forecast', 'edge_ensemble_daily', 'model_tmax_range']);
    expect(mu()[0]).toEqual(['svc_pro_forecast', 21]);
    expect(mu(Date.parse('2026-11-24T15:04:59Z'))[0]).toEqual(['svc_pro_forecast', 20]);
    expect(mu(Date.parse('2026-11-24T14:00:00Z'))).toEqual([]);
  });
});
