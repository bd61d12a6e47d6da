import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../src/cache/index.js';
import { ApiClient } from '../../src/client/api-client.js';
import { HISTORICAL_TIME_COLUMN, type HistoricalTable } from '../../src/contract/historical.js';
import { liveCheckpoint, liveHistoryPass } from '../../src/sync/history-streams.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { servedPages } from '../helpers/sync-fixtures.js';
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

/** The service's own answer (past the gate): the rows a pass must fetch, and how many pages of 1000 they take. */
async function served(
  table: HistoricalTable,
  from: string,
): Promise<{ rows: Record<string, unknown>[]; pages: number }> {
  const pages = await servedPages(svc, table, from);
  return { rows: pages.flat(), pages: pages.length };
}
const distinct = (rows: Record<string, unknown>[], field: string) => new Set(rows.map((r) => r[field]));
const TWO_DAYS_BACK = '2026-11-19T12:00:00.000Z'; // now (the template's 21st 12:00Z) less history_hours (48)

describe('the metar live stream', () => {
  it('first pass: every reading of the last 48 h, a request a page, for every city at once', async () => {
    const counts = await liveHistoryPass('metar')(client, cache, context);
    const want = await served(METAR, TWO_DAYS_BACK);
    // more than a page: the pass must follow the cursor
    expect(want.pages).toBeGreaterThan(1);
    expect(counts).toEqual({ fetched: want.rows.length, inserted: want.rows.length, updated: 0 });
    const requests = requestsFor(METAR);
    expect(requests).toHaveLength(want.pages);
    expect(since(requests[0] as string)).toBe(TWO_DAYS_BACK);
    expect(stored(METAR).map((r) => r.id)).toEqual(want.rows.map((r) => r.id));
    const times = [...distinct(stored(METAR), 'observed_at')].sort();
    expect(times).toEqual([...distinct(want.rows, 'observed_at')].sort());
    // nothing before the window's start
    expect(String(times[0]) >= '2026-11-19T12:00:00Z').toBe(true);
    expect(distinct(stored(METAR), 'city_id')).toEqual(distinct(want.rows, 'city_id'));
    expect(cache.streams.checkpoint(liveCheckpoint(METAR))).toBe('done');
  });

  it('second pass: since = newest stored minus 2 h, and only what is new is stored', async () => {
    const newest = [...distinct(stored(METAR), 'observed_at')].sort().at(-1) as string;
    const from = new Date(Date.parse(newest) - 2 * HOUR).toISOString();
    gate.seen.length = 0;
    const counts = await liveHistoryPass('metar')(client, cache, context);
    // every reading of those two hours is held already
    const want = await served(METAR, from);
    expect(want.rows.length).toBeGreaterThan(0);
    expect(counts).toEqual({ fetched: want.rows.length, inserted: 0, updated: 0 });
    expect(requestsFor(METAR).map(since)).toEqual([from]);
  });

  it('a late report with an older time inside the lookback is picked up', async () => {
    const before = stored(METAR).length;
    const newest = [...distinct(stored(METAR), 'observed_at')].sort().at(-1) as string;
    const db = svc.service.db;
    const id = (db.prepare(`SELECT max(id) FROM h_${METAR}`).pluck().get() as number) + 1;
    // reported now, observed 45 minutes before the newest reading: inside the 2 h lookback
    const late = {
      id,
      city_id: 'late-city',
      local_date: newest.slice(0, 10),
      station_code: 'KLAT',
      observed_at: new Date(Date.parse(newest) - 45 * 60_000).toISOString().replace('.000Z', 'Z'),
      fetched_at: newest,
      temp_c: 11,
      temp_f: 51.8,
      raw: 'METAR KLAT',
    };
    db.prepare(`INSERT INTO h_${METAR} (id, city_id, t, json) VALUES (?, ?, ?, ?)`).run(
      id,
      late.city_id,
      late.observed_at,
      JSON.stringify(late),
    );
    gate.seen.length = 0;
    const counts = await liveHistoryPass('metar')(client, cache, context);
    // what the two hours hold now, the late one among them, and only the late one new
    const want = await served(METAR, new Date(Date.parse(newest) - 2 * HOUR).toISOString());
    expect(want.rows.map((r) => r.id)).toContain(id);
    expect(counts).toEqual({ fetched: want.rows.length, inserted: 1, updated: 0 });
    expect(stored(METAR).filter((r) => r.id === id)).toEqual([late]);
    expect(stored(METAR)).toHaveLength(before + 1);
  });
});

describe('the other live streams', () => {
  it('bucket prices of both venues and the daily tables: the first window, for every city at once', async () => {
    gate.seen.length = 0;
    const mkta = await liveHistoryPass('mkta-buckets')(client, cache, context);
    const mktb = await liveHistoryPass('mktb-buckets')(client, cache, context);
    const daily = await liveHistoryPass('daily')(client, cache, context);
    expect(requestsFor('mkta_buckets_history').map(since)[0]).toBe(TWO_DAYS_BACK);
    expect(requestsFor('mktb_buckets_history').map(since)[0]).toBe(TWO_DAYS_BACK);
    for (const table of ['forecast_accuracy_daily', 'market_brief_daily', 'edge_resolved', 'model_forecasts_daily']) {
      // 48 h = 2 days back from the 21st
      expect(requestsFor(table).map(since)).toEqual(['2026-11-19']);
    }
    // every snapshot of the window the service holds, of every city it quotes
    for (const [table, counts] of [
      ['mkta_buckets_history', mkta],
      ['mktb_buckets_history', mktb],
    ] as const) {
      const want = await served(table, TWO_DAYS_BACK);
      expect(want.rows.length, table).toBeGreaterThan(0);
      expect(counts, table).toEqual({ fetched: want.rows.length, inserted: want.rows.length, updated: 0 });
      const rows = stored(table);
      expect(rows.map((r) => r.id)).toEqual(want.rows.map((r) => r.id));
      expect(distinct(rows, 'snapshot_at')).toEqual(distinct(want.rows, 'snapshot_at'));
      expect(String([...distinct(rows, 'snapshot_at')].sort()[0]) >= '2026-11-19T12:00:00Z').toBe(true);
      expect(distinct(rows, 'city_id')).toEqual(distinct(want.rows, 'city_id'));
    }
    expect(daily.inserted).toBeGreaterThan(0);
    expect(stored('market_brief_daily').every((r) => (r.local_date as string) >= '2026-11-19')).toBe(true);
  });
});

describe('what a steady pass costs (docs/sync-and-export.md: requests a minute)', () => {
  it('one request a table for every city once the window is cached, two for a venue listing tomorrow beside today', async () => {
    const fromOf = (table: HistoricalTable) => {
      const newest = [...distinct(stored(table), HISTORICAL_TIME_COLUMN[table].column)].sort().at(-1) as string;
      return new Date(Date.parse(newest) - 2 * HOUR).toISOString();
    };
    const want = {
      'mkta-buckets': await served('mkta_buckets_history', fromOf('mkta_buckets_history')),
      'mktb-buckets': await served('mktb_buckets_history', fromOf('mktb_buckets_history')),
      metar: await served(METAR, fromOf(METAR)),
    };
    gate.seen.length = 0;
    const rows: Record<string, number> = {};
    for (const name of ['mkta-buckets', 'mktb-buckets', 'metar', 'daily'] as const) {
      rows[name] = (await liveHistoryPass(name)(client, cache, context)).fetched;
    }
    // the last two hours of each intraday table, the 20th and 21st of the daily ones: each inside one page, but a
    // venue's: at the template's 12:00Z every European city (13:00 local) lists tomorrow beside today, so 2 h back
    // holds 5 instants x (13 cities x 11 buckets + 7 European cities x 11 of tomorrow) = 5 x 220 = 1,100 rows: two
    // pages of 1000
    expect(want['mkta-buckets'].pages).toBe(2);
    expect(want['mktb-buckets'].pages).toBe(2);
    expect(gate.seen.map((path) => path.split('?')[0])).toEqual([
      '/historical/mkta_buckets_history',
      '/historical/mkta_buckets_history',
      '/historical/mktb_buckets_history',
      '/historical/mktb_buckets_history',
      '/historical/metar_observations_history',
      '/historical/forecast_accuracy_daily',
      '/historical/market_brief_daily',
      '/historical/edge_resolved',
      '/historical/model_forecasts_daily',
    ]);
    expect(want.metar.pages).toBe(1);
    for (const [name, w] of Object.entries(want)) expect(rows[name], name).toBe(w.rows.length);
    expect(rows.daily).toBeLessThan(4 * 1000);
  });
});
