import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../../src/cache/index.js';
import { FORECAST_AS_OF_SQL } from '../../../src/cache/market/day-forecasts.js';
import {
  cityQuotePageSql,
  METAR_DAY_SQL,
  POLLED_METAR_DAY_SQL,
  QUOTE_PAGE,
} from '../../../src/cache/market/day-reads.js';
import type { HistoricalRow } from '../../../src/contract/historical.js';
import { readCacheFile } from '../../helpers/cache-rows.js';

let root: string;
let cache: Cache;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'market-day-'));
  cache = openCache(join(root, 'cache.db'));
});
afterEach(() => {
  cache.close();
  rmSync(root, { recursive: true, force: true });
});

const quote = (id: number, date: string, at: string, slug: string, yes: number, city = 'nyc'): HistoricalRow =>
  ({
    id,
    city_id: city,
    local_date: date,
    event_slug: `e-${date}`,
    snapshot_at: at,
    bucket_slug: slug,
    bucket_label: `${slug.slice(0, 2)}-${slug.slice(3, 5)}°F`,
    yes_price: yes,
    no_price: Math.round((1 - yes) * 1000) / 1000,
  }) as HistoricalRow;

const metar = (id: number, at: string, f: number, c: number, city = 'nyc', date = '2026-11-21'): HistoricalRow =>
  ({
    id,
    city_id: city,
    local_date: date,
    station_code: 'KLGA',
    observed_at: at,
    fetched_at: at,
    temp_f: f,
    temp_c: c,
    raw: 'METAR',
  }) as HistoricalRow;

describe('market reads of one city-day', () => {
  it('gives the newest quote of each bucket on each venue, lowest bucket first, and only that day', () => {
    cache.resources.upsertHistorical('mkta_buckets_history', [
      quote(1, '2026-11-20', '2026-11-20T20:00:00Z', '48-49f', 0.5),
      quote(2, '2026-11-21', '2026-11-21T14:00:00Z', '48-49f', 0.3),
      quote(3, '2026-11-21', '2026-11-21T14:00:00Z', '50-51f', 0.4),
      quote(4, '2026-11-21', '2026-11-21T14:00:00Z', '48-49f', 0.2, 'paris'),
      quote(5, '2026-11-21', '2026-11-21T15:00:00Z', '48-49f', 0.25),
      quote(6, '2026-11-21', '2026-11-21T15:00:00Z', '50-51f', 0.45),
    ]);
    cache.resources.upsertHistorical('mktb_buckets_history', [
      quote(7, '2026-11-21', '2026-11-21T15:00:00Z', '48-49f', 0.28),
    ]);
    const a = cache.market.dayQuotes('mkta', 'nyc', '2026-11-21');
    expect(a).toEqual([
      {
        id: 5,
        bucket_slug: '48-49f',
        bucket_label: '48-49°F',
        yes_price: 0.25,
        no_price: 0.75,
        snapshot_at: '2026-11-21T15:00:00Z',
      },
      {
        id: 6,
        bucket_slug: '50-51f',
        bucket_label: '50-51°F',
        yes_price: 0.45,
        no_price: 0.55,
        snapshot_at: '2026-11-21T15:00:00Z',
      },
    ]);
    expect(cache.market.dayQuotes('mktb', 'nyc', '2026-11-21').map((q) => [q.id, q.yes_price])).toEqual([[7, 0.28]]);
    expect(cache.market.dayQuotes('mkta', 'nyc', '2026-11-20').map((q) => [q.id, q.yes_price])).toEqual([[1, 0.5]]);
    expect(cache.market.dayQuotes('mkta', 'nyc', '2026-11-22')).toEqual([]);
  });

  it('keeps a row that carries only id, city_id and local_date, with nulls for what it lacks', () => {
    cache.resources.upsertHistorical('mkta_buckets_history', [
      quote(1, '2026-11-21', '2026-11-21T14:00:00Z', '48-49f', 0.3),
      { id: 2, city_id: 'nyc', local_date: '2026-11-21' } as HistoricalRow,
      { id: 3, city_id: 'nyc', local_date: '2026-11-21', bucket_slug: '50-51f', yes_price: 'x' } as HistoricalRow,
    ]);
    expect(cache.market.dayQuotes('mkta', 'nyc', '2026-11-21')).toEqual([
      expect.objectContaining({ id: 1, yes_price: 0.3 }),
      { id: 2, bucket_slug: null, bucket_label: null, yes_price: null, no_price: null, snapshot_at: null },
      { id: 3, bucket_slug: '50-51f', bucket_label: null, yes_price: null, no_price: null, snapshot_at: null },
    ]);
  });

  it('walks back page by page past a full page of the day, and stops at an older day', () => {
    // 300 snapshots of one bucket: more than one page (256); the newest (id 301) wins
    const rows = [quote(1, '2026-11-20', '2026-11-20T20:00:00Z', '48-49f', 0.9)];
    for (let i = 0; i < 300; i++) rows.push(quote(2 + i, '2026-11-21', '2026-11-21T14:00:00Z', '48-49f', 0.001 * i));
    cache.resources.upsertHistorical('mkta_buckets_history', rows);
    const before = { ...cache.readStats };
    const day = cache.market.dayQuotes('mkta', 'nyc', '2026-11-21');
    expect(day.map((q) => [q.id, q.yes_price])).toEqual([[301, 0.299]]);
    // two pages: 256 rows, then the 45 left (44 of the day and the older one)
    expect(cache.readStats.queries - before.queries).toBe(2);
    expect(cache.readStats.rows - before.rows).toBe(QUOTE_PAGE + 45);
  });

  it('gives every METAR reading of the local day, history and polls, and the running high', () => {
    // nyc's 2026-11-21 runs from 05:00Z to 05:00Z the next day
    cache.resources.upsertHistorical('metar_observations_history', [
      metar(1, '2026-11-21T04:51:00Z', 60.8, 16, 'nyc', '2026-11-20'),
      metar(2, '2026-11-21T12:51:00Z', 44.6, 7),
      metar(3, '2026-11-21T13:51:00Z', 48.2, 9),
      metar(4, '2026-11-21T14:51:00Z', 46.4, 8),
      metar(5, '2026-11-21T14:51:00Z', 71.6, 22, 'paris'),
      {
        id: 6,
        city_id: 'nyc',
        local_date: '2026-11-21',
        observed_at: '2026-11-21T15:21:00Z',
        temp_f: 'n/a',
      } as HistoricalRow,
    ]);
    const day = cache.market.metarDay('nyc', {
      date: '2026-11-21',
      startMs: Date.parse('2026-11-21T05:00:00Z'),
      endMs: Date.parse('2026-11-22T05:00:00Z'),
    });
    expect(day.points).toEqual([
      { ms: Date.parse('2026-11-21T12:51:00Z'), temp_f: 44.6, temp_c: 7 },
      { ms: Date.parse('2026-11-21T13:51:00Z'), temp_f: 48.2, temp_c: 9 },
      { ms: Date.parse('2026-11-21T14:51:00Z'), temp_f: 46.4, temp_c: 8 },
    ]);
    // running high: max(44.6, 48.2, 46.4) = 48.2 °F, max(7, 9, 8) = 9 °C, first reached at 13:51Z
    expect(day.high).toEqual({ f: 48.2, c: 9, since: Date.parse('2026-11-21T13:51:00Z') });
    expect(cache.market.metarDay('nyc', { date: '2026-11-23', startMs: 0, endMs: 1 })).toEqual({
      points: [],
      high: null,
    });
  });

  it('reads by index, never by a scan of a whole table', () => {
    const plan = (sql: string, ...args: unknown[]) =>
      readCacheFile(cache, (db) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail),
      );
    for (const venue of ['mkta', 'mktb'] as const)
      expect(plan(cityQuotePageSql(venue), 'nyc', 0, Date.now(), 10)).toEqual([
        `SEARCH h_${venue}_buckets_history USING INDEX h_${venue}_buckets_history_city (city_id=? AND rid>?)`,
      ]);
    expect(plan(METAR_DAY_SQL, 0, 1, 'nyc')).toEqual([
      'SEARCH h_metar_observations_history USING INDEX h_metar_observations_history_t (t>? AND t<?)',
    ]);
    expect(plan(POLLED_METAR_DAY_SQL, 0, 1, 'nyc')).toEqual([
      'SEARCH current_obs USING INDEX current_obs_fetched (fetched_ms>? AND fetched_ms<?)',
    ]);
    // the newest forecast of a layer at or before an instant: one seek down the primary key
    expect(plan(FORECAST_AS_OF_SQL, 'nyc', 'svc_pro_forecast', Date.now())).toEqual([
      'SEARCH forecasts USING INDEX sqlite_autoindex_forecasts_1 (city_id=? AND layer=? AND fetched_ms<?)',
    ]);
  });
});
