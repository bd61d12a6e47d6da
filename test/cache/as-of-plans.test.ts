import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountedQueries } from '../../src/cache/db/counted-queries.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import { DAY_AHEAD_SQL } from '../../src/cache/market/day-ahead.js';
import { FORECAST_HISTORY_AS_OF_SQL } from '../../src/cache/market/day-forecasts.js';
import { quotedAfterSql, quoteStartSql, quoteWalkStart } from '../../src/cache/market/day-reads.js';
import { SNAPSHOT_PAGE } from '../../src/cache/market/newest-snapshot.js';
import { POLLED_READING_SQL, readingHistorySql } from '../../src/cache/market/readings-as-of.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { statementCache } from '../../src/sqlite/statement-cache.js';
import { readCacheFile } from '../helpers/cache-rows.js';

/**
 * The reads as of a past instant stay bounded by index: the plans SQLite makes of them, and what a read of a day far
 * back costs in rows when the cache holds much more after it.
 */
let root: string;
let cache: Cache;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'as-of-plans-'));
  cache = openCache(join(root, 'cache.db'));
});
afterAll(() => {
  cache.close();
  rmSync(root, { recursive: true, force: true });
});

const plan = (sql: string, ...args: unknown[]) =>
  readCacheFile(cache, (db) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail),
  );

describe('the as-of reads’ plans', () => {
  it('find where a past walk of quotes starts from the time index alone', () => {
    for (const venue of ['mkta', 'mktb'] as const) {
      const table = `h_${venue}_buckets_history`;
      expect(plan(quotedAfterSql(venue), 0)).toEqual([`SEARCH ${table} USING COVERING INDEX ${table}_t (t>?)`]);
      expect(plan(quoteStartSql(venue), 0, 1)).toEqual([
        `SEARCH ${table} USING COVERING INDEX ${table}_t (t>? AND t<?)`,
      ]);
    }
  });

  it('find the cache’s span at the ends of the time indexes, no row opened', () => {
    expect(plan('SELECT min(t) AS v FROM h_mkta_buckets_history')).toEqual([
      'SEARCH h_mkta_buckets_history USING COVERING INDEX h_mkta_buckets_history_t',
    ]);
    expect(plan('SELECT max(locked_ms) AS v FROM fusion_locks')).toEqual([
      'SEARCH fusion_locks USING COVERING INDEX fusion_locks_order',
    ]);
    // the monitor's own rows by their key, the rowid: the walk in rowid order stops at its first row (no sort step)
    expect(plan('SELECT received_ms AS v FROM webhook_events ORDER BY seq DESC LIMIT 1')).toEqual([
      'SCAN webhook_events',
    ]);
  });

  it('seek the desk’s newest history row by time, within its lookback', () => {
    expect(plan(FORECAST_HISTORY_AS_OF_SQL, 0, 1, 'nyc')).toEqual([
      'SEARCH h_forecast_history USING INDEX h_forecast_history_t (t>? AND t<?)',
    ]);
  });

  it('seek each source’s newest poll by its key and its newest history row by time, within its lookback', () => {
    expect(plan(POLLED_READING_SQL, 'nyc', 'wxa_current', 0)).toEqual([
      'SEARCH current_obs USING INDEX sqlite_autoindex_current_obs_1 (city_id=? AND source=? AND fetched_ms<?)',
    ]);
    for (const table of ['wxa_history', 'wxb_history', 'pws_observations_history', 'metar_observations_history'])
      expect(plan(readingHistorySql(table as 'wxa_history'), 0, 1, 'nyc')).toEqual([
        `SEARCH h_${table} USING INDEX h_${table}_t (t>? AND t<?)`,
      ]);
  });

  it('read a day’s model forecasts by its date on the time index, in id order with no sort', () => {
    expect(plan(DAY_AHEAD_SQL, '2026-11-26', 'nyc')).toEqual([
      'SEARCH h_model_forecasts_daily USING INDEX h_model_forecasts_daily_t (t=?)',
    ]);
  });
});

describe('a past day’s quotes with a month of quotes after it', () => {
  it('reads a page of the day’s rows, not the month after it', () => {
    const rows: HistoricalRow[] = [];
    let id = 0;
    // 30 days of half-hourly snapshots of 11 buckets, one city: 15,840 rows, the first day the one read
    for (let day = 0; day < 30; day++)
      for (let slot = 0; slot < 48; slot++) {
        const ms = Date.parse('2026-10-01T05:00:00Z') + day * 86_400_000 + slot * 1_800_000;
        const date = new Date(ms - 5 * 3_600_000).toISOString().slice(0, 10);
        for (let b = 0; b < 11; b++)
          rows.push({
            id: ++id,
            city_id: 'nyc',
            local_date: date,
            event_slug: `e-${date}`,
            snapshot_at: `${new Date(ms).toISOString().slice(0, 19)}Z`,
            bucket_slug: `b${b}`,
            bucket_label: `${40 + 2 * b}-${41 + 2 * b}°F`,
            yes_price: slot / 100,
            no_price: 1 - slot / 100,
          } as HistoricalRow);
      }
    for (let i = 0; i < rows.length; i += 1000)
      cache.resources.upsertHistorical('mkta_buckets_history', rows.slice(i, i + 1000));
    // 2026-10-01 in New York from 05:00Z; at 17:10Z the newest snapshot is slot 24 (17:00Z), priced 0.24
    const atMs = Date.parse('2026-10-01T17:10:00Z');
    const before = cache.readStats.rows;
    const snapshot = cache.market.newestSnapshot('mkta', 'nyc', '2026-10-01', atMs);
    expect(snapshot.map((q) => q.yes_price)).toEqual(Array(11).fill(0.24));
    // the venue's newest id, the start's probe and bound (3 rows), then one page of the walk
    expect(cache.readStats.rows - before).toBeLessThanOrEqual(3 + SNAPSHOT_PAGE);
    // the walk starts at the newest row snapshotted within the two hours before the instant: slot 24's last bucket,
    // id 25 * 11 = 275 (rid -275); the 15,565 rows after it are never stepped through
    const start = readCacheFile(cache, (db) => quoteWalkStart(new CountedQueries(statementCache(db)), 'mkta', atMs));
    expect(start).toBe(-276);
    // as of the newest instant there is nothing to step over
    const now = readCacheFile(cache, (db) =>
      quoteWalkStart(new CountedQueries(statementCache(db)), 'mkta', Date.parse('2026-10-31T05:00:00Z')),
    );
    expect(now).toBe(Number.MIN_SAFE_INTEGER);

    // kept for the instant while nothing is written: a late report of 17:05Z (id 15,841) moves the start to it
    const db = new Database(cache.file, { readonly: true });
    try {
      const q = new CountedQueries(statementCache(db));
      expect(quoteWalkStart(q, 'mkta', atMs)).toBe(-276);
      const before = q.stats.queries;
      expect(quoteWalkStart(q, 'mkta', atMs)).toBe(-276);
      // one probe of the newest id, no index scan
      expect(q.stats.queries - before).toBe(1);
      cache.resources.upsertHistorical('mkta_buckets_history', [
        { ...rows[0], id: 15_841, snapshot_at: '2026-10-01T17:05:00Z' } as HistoricalRow,
      ]);
      expect(quoteWalkStart(q, 'mkta', atMs)).toBe(-15_842);
    } finally {
      db.close();
    }
  });
});
