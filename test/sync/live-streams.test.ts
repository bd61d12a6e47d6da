import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import type { HistoricalTable } from '../../src/contract/historical.js';
import { liveCheckpoint, liveHistoryPass } from '../../src/sync/history-streams.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';
import { type GateProxy, startGateProxy } from './gate-proxy.js';

const HOUR = 3_600_000;
const METAR: HistoricalTable = 'metar_observations_history';
const now = new Date(TEMPLATE_START); // 2026-11-21T12:00:00Z, the world's clock (frozen for the file)
const context = { now, historyHours: 48 };

let svc: TestService;
let gate: GateProxy;
let client: ApiClient;
let cache: Cache;
const root = mkdtempSync(join(tmpdir(), 'svc-live-'));

beforeAll(async () => {
  svc = await startTestService({ tickMs: 24 * HOUR });
  gate = await startGateProxy(svc.baseUrl);
  client = new ApiClient({ baseUrl: gate.baseUrl, apiKey: TEST_KEY });
  cache = openCache(join(root, 'cache.db'));
});
afterAll(async () => {
  await client.close();
  cache.close();
  await gate.close();
  await svc.close();
  rmSync(root, { recursive: true, force: true });
});

const stored = (table: HistoricalTable) =>
  cache.export.rows(`historical/${table}`).map((text) => JSON.parse(text) as Record<string, unknown>);
const requestsFor = (table: string) => gate.seen.filter((path) => path.startsWith(`/historical/${table}?`));
const since = (path: string) => new URL(path, 'http://x').searchParams.get('since');

describe('the metar live stream', () => {
  it('first pass: every reading of the last 48 h, one request a page for all 13 cities', async () => {
    const counts = await liveHistoryPass('metar')(client, cache, context);
    // METAR every 30 min per city; the world at 12:00 sharp has reported up to 11:30 (its 12:00 report comes with
    // the next tick). since inclusive: 19th 12:00 .. 21st 11:30 = 48 h * 2 = 96 readings a city, 13 cities = 1248
    // rows, 2 pages of 1000
    expect(counts).toEqual({ fetched: 1248, inserted: 1248, updated: 0 });
    const requests = requestsFor(METAR);
    expect(requests).toHaveLength(2);
    expect(since(requests[0] as string)).toBe('2026-11-19T12:00:00.000Z');
    const times = stored(METAR)
      .map((r) => r.observed_at as string)
      .sort();
    expect(times[0]).toBe('2026-11-19T12:00:00Z');
    expect(times.at(-1)).toBe('2026-11-21T11:30:00Z');
    expect(new Set(stored(METAR).map((r) => r.city_id)).size).toBe(13);
    expect(cache.streams.checkpoint(liveCheckpoint(METAR))).toBe('done');
  });

  it('second pass: since = newest stored minus 2 h, and only what is new is stored', async () => {
    gate.seen.length = 0;
    const counts = await liveHistoryPass('metar')(client, cache, context);
    // newest 11:30 minus 2 h = 09:30; 09:30 .. 11:30 inclusive = 5 readings a city, 65 in all, all stored already
    expect(counts).toEqual({ fetched: 65, inserted: 0, updated: 0 });
    expect(requestsFor(METAR).map(since)).toEqual(['2026-11-21T09:30:00.000Z']);
  });

  it('a late report with an older time inside the lookback is picked up', async () => {
    const db = svc.service.db;
    const id = (db.prepare(`SELECT max(id) FROM h_${METAR}`).pluck().get() as number) + 1;
    const late = {
      id,
      city_id: 'late-city',
      local_date: '2026-11-21',
      station_code: 'KLAT',
      observed_at: '2026-11-21T10:45:00Z',
      fetched_at: '2026-11-21T11:59:00Z',
      temp_c: 11,
      temp_f: 51.8,
      raw: 'METAR KLAT 211045Z',
    };
    db.prepare(`INSERT INTO h_${METAR} (id, city_id, t, json) VALUES (?, ?, ?, ?)`).run(
      id,
      late.city_id,
      late.observed_at,
      JSON.stringify(late),
    );
    gate.seen.length = 0;
    const counts = await liveHistoryPass('metar')(client, cache, context);
    // the 65 of before and the late one
    expect(counts).toEqual({ fetched: 66, inserted: 1, updated: 0 });
    expect(stored(METAR).filter((r) => r.id === id)).toEqual([late]);
    expect(stored(METAR)).toHaveLength(1249);
  });
});

describe('the other live streams', () => {
  it('bucket prices of both venues and the daily tables: the first window, for every city at once', async () => {
    gate.seen.length = 0;
    const mkta = await liveHistoryPass('mkta-buckets')(client, cache, context);
    const mktb = await liveHistoryPass('mktb-buckets')(client, cache, context);
    const daily = await liveHistoryPass('daily')(client, cache, context);
    expect(requestsFor('mkta_buckets_history').map(since)[0]).toBe('2026-11-19T12:00:00.000Z');
    expect(requestsFor('mktb_buckets_history').map(since)[0]).toBe('2026-11-19T12:00:00.000Z');
    for (const table of ['forecast_accuracy_daily', 'market_brief_daily', 'edge_resolved', 'model_forecasts_daily']) {
      // 48 h = 2 days back from the 21st
      expect(requestsFor(table).map(since)).toEqual(['2026-11-19']);
    }
    // snapshots every half hour, the last at 11:30: 19th 12:00 .. 21st 11:30 = 96 instants, each the bucket lists
    // of the 13 cities' events
    for (const table of ['mkta_buckets_history', 'mktb_buckets_history'] as const) {
      const rows = stored(table);
      const instants = new Set(rows.map((r) => r.snapshot_at));
      expect(instants.size).toBe(96);
      expect([...instants].sort()[0]).toBe('2026-11-19T12:00:00Z');
      expect(new Set(rows.map((r) => r.city_id)).size).toBe(13);
    }
    expect(mkta.inserted).toBe(stored('mkta_buckets_history').length);
    expect(mktb.inserted).toBe(stored('mktb_buckets_history').length);
    expect(daily.inserted).toBeGreaterThan(0);
    expect(stored('market_brief_daily').every((r) => (r.local_date as string) >= '2026-11-19')).toBe(true);
  });
});

describe('what a steady pass costs (README: requests a minute)', () => {
  it('one request a table for all 13 cities once the window is cached: 3 a minute and 4 every 30 minutes', async () => {
    gate.seen.length = 0;
    const rows: Record<string, number> = {};
    for (const name of ['mkta-buckets', 'mktb-buckets', 'metar', 'daily'] as const) {
      rows[name] = (await liveHistoryPass(name)(client, cache, context)).fetched;
    }
    // snapshots every half hour, newest 11:30 minus 2 h = 09:30: 5 instants of every bucket of 13 events, one page;
    // METAR: 09:30 .. 11:30 = 5 readings x 13 cities (+ the late one) = 66, one page; the daily tables: 20th and
    // 21st, one page each
    expect(gate.seen.map((path) => path.split('?')[0])).toEqual([
      '/historical/mkta_buckets_history',
      '/historical/mktb_buckets_history',
      '/historical/metar_observations_history',
      '/historical/forecast_accuracy_daily',
      '/historical/market_brief_daily',
      '/historical/edge_resolved',
      '/historical/model_forecasts_daily',
    ]);
    // 5 instants x 13 events x 11 buckets = 715 on each venue, inside one page of 1000
    expect(rows).toMatchObject({ 'mkta-buckets': 715, 'mktb-buckets': 715, metar: 66 });
    expect(rows.daily).toBeLessThan(4 * 1000);
  });
});
