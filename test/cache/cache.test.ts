import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Cache } from '../../src/cache/cache.js';
import { MIGRATIONS } from '../../src/cache/db/migrations.js';
import { openCacheFile } from '../../src/cache/db/open-cache-file.js';
import { CacheError, type ChangeEvent, EXPORT_NAMES, openCache } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import { CURRENT_SOURCES, type CurrentObservations } from '../../src/contract/current.js';
import { FORECAST_LAYERS, type Forecasts } from '../../src/contract/forecasts.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import {
  HISTORICAL_TABLES,
  HISTORICAL_TIME_COLUMN,
  type HistoricalRow,
  type HistoricalTable,
} from '../../src/contract/historical.js';
import { STRATEGY_FAMILIES, type StrategyFamily, type StrategyRecord } from '../../src/contract/strategies.js';
import {
  current,
  forecasts,
  fusionLock,
  type HandRecord,
  historicalRow,
  LONDON,
  NYC,
  no24,
  PARIS,
  svcMaxPick,
  yescore,
} from '../helpers/cache-builder.js';
import { exported, openRecords, storedAlerts, storedLocks } from '../helpers/cache-rows.js';

const HOUR = 3_600_000;

interface Snapshot {
  cities: City[];
  current: CurrentObservations[];
  forecasts: Forecasts[];
  strategies: Record<StrategyFamily, StrategyRecord[]>;
  locks: FusionLock[];
}

/**
 * What a monitor syncs at two instants, written by hand (helpers/cache-builder.ts), each list in the API's order
 * (records and locks newest first). Early, 2026-11-22 20:00Z: three cities, their observations (8 °C) and forecasts;
 * each family's records #4 (nyc) and #3 (london) of 11-22 open, #2 and #1 of 11-21 settled; 300 locks, one every 3
 * hours back from 20:00Z (L-000 newest), the newest three open. Late, 11-23 09:00Z: new observations (9 °C) and
 * forecasts; records #6 and #5 of 11-23 new, #4 won, #3 lost; two new locks (L-new-1 at 09:00Z, L-new-2 at 08:00Z)
 * and the three open ones settled.
 */
const CITIES = [NYC, LONDON, PARIS];
const EARLY_AT = '2026-11-22T20:00:00Z';
const LATE_AT = '2026-11-23T09:00:00Z';

function record(family: StrategyFamily, id: number, city_id: string, local_date: string, outcome?: 'win' | 'loss') {
  const r: HandRecord = { id, city_id, local_date, bucket_label: '50-51°F', shares: 20, ask: 0.5, outcome };
  return family === 'no24' ? no24(r) : family === 'yescore' ? yescore(r) : svcMaxPick({ ...r, entry_hour: 11 });
}

/** The same records of each family. */
const everyFamily = (records: (f: StrategyFamily) => StrategyRecord[]) =>
  Object.fromEntries(STRATEGY_FAMILIES.map((f) => [f, records(f)])) as Record<StrategyFamily, StrategyRecord[]>;

const lockAt = (i: number) => new Date(Date.parse(EARLY_AT) - i * 3 * HOUR).toISOString().replace('.000Z', 'Z');
const earlyLock = (i: number, settled: boolean) => {
  const locked_at = lockAt(i);
  return fusionLock({
    id: `L-${String(i).padStart(3, '0')}`,
    city_id: (CITIES[i % 3] as City).city_id,
    local_date: locked_at.slice(0, 10),
    locked_at,
    bucket_label: '50-51°F',
    yes_price: 0.4,
    tokens: 25,
    ...(settled ? { hit: i % 2 === 0, actual_c: 10 } : {}),
  });
};

/** The cities, their observations (every city at `tempC`) and forecasts (N(mu_c, 1) for `date`) of one sync. */
const synced = (at: string, tempC: number, date: string, forecastAt: string, mu_c: number) => ({
  cities: CITIES,
  current: CITIES.map((c) => current(c.city_id, at, tempC)),
  forecasts: CITIES.map((c) => forecasts(c.city_id, date, { mu_c, sigma_c: 1, at: forecastAt })),
});

const early: Snapshot = {
  ...synced(EARLY_AT, 8, '2026-11-22', '2026-11-22T20:05:00Z', 10),
  strategies: everyFamily((f) => [
    record(f, 4, 'nyc', '2026-11-22'),
    record(f, 3, 'london', '2026-11-22'),
    record(f, 2, 'paris', '2026-11-21', 'win'),
    record(f, 1, 'nyc', '2026-11-21', 'loss'),
  ]),
  locks: Array.from({ length: 300 }, (_, i) => earlyLock(i, i >= 3)),
};

const newLock = (id: string, locked_at: string) =>
  fusionLock({
    id,
    city_id: 'nyc',
    local_date: '2026-11-23',
    locked_at,
    bucket_label: '48-49°F',
    yes_price: 0.3,
    tokens: 20,
  });

const late: Snapshot = {
  ...synced(LATE_AT, 9, '2026-11-23', '2026-11-23T09:05:00Z', 11),
  strategies: everyFamily((f) => [
    record(f, 6, 'nyc', '2026-11-23'),
    record(f, 5, 'paris', '2026-11-23'),
    record(f, 4, 'nyc', '2026-11-22', 'win'),
    record(f, 3, 'london', '2026-11-22', 'loss'),
    record(f, 2, 'paris', '2026-11-21', 'win'),
    record(f, 1, 'nyc', '2026-11-21', 'loss'),
  ]),
  locks: [
    newLock('L-new-1', LATE_AT),
    newLock('L-new-2', '2026-11-23T08:00:00Z'),
    ...Array.from({ length: 300 }, (_, i) => earlyLock(i, true)),
  ],
};

/**
 * Two pages of each historical table as the API serves them, newest first: ids 500..251, then 250..1, row `id` at
 * 20:00Z on 11-22 less (500 - id) x 10 minutes (its date the UTC day of that), cities in turn.
 */
const historical = new Map<HistoricalTable, HistoricalRow[][]>(
  HISTORICAL_TABLES.map((table) => {
    const row = (id: number) => {
      const at = new Date(Date.parse(EARLY_AT) - (500 - id) * 600_000).toISOString().replace('.000Z', 'Z');
      return historicalRow(table, id, (CITIES[id % 3] as City).city_id, at);
    };
    const page = (top: number) => Array.from({ length: 250 }, (_, i) => row(top - i));
    return [table, [page(500), page(250)]];
  }),
);

let root: string;
const opened: Cache[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cache-test-'));
});

afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

let files = 0;
function fresh(): Cache {
  const cache = openCache(join(root, `cache-${++files}`, 'cache.db'));
  opened.push(cache);
  return cache;
}

const texts = (rows: unknown[]) => rows.map((r) => JSON.stringify(r));
const byCity = (rows: City[]) => [...rows].sort((a, b) => (a.city_id < b.city_id ? -1 : 1));

describe('openCache', () => {
  it('creates its folder (0700), turns WAL on, migrates once, and reopens the same file idempotently', () => {
    const path = join(root, 'open', 'nested', 'cache.db');
    const first = openCacheFile(path);
    expect(statSync(join(root, 'open', 'nested')).mode & 0o777).toBe(0o700);
    expect(first.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(first.pragma('synchronous', { simple: true })).toBe(1);
    expect(first.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(first.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(first.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    new Cache(first).resources.upsertCities(early.cities);
    first.close();

    const again = openCacheFile(path);
    const second = openCacheFile(path); // two connections at once, as TUI and export
    expect(again.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(new Cache(second).export.rows('cities')).toEqual(texts(byCity(early.cities)));
    again.close();
    second.close();
  });

  it('refuses a file that is not a cache with a one-line CacheError naming the path', () => {
    const garbage = join(root, 'garbage.db');
    writeFileSync(garbage, 'this is not an SQLite database, just text that fills the header. '.repeat(100));
    expect(() => openCache(garbage)).toThrow(CacheError);
    expect(() => openCache(garbage)).toThrow(
      new RegExp(`^${garbage.replaceAll('.', '\\.')} is not a usable .*[^\\n]$`),
    );

    const other = join(root, 'other.db');
    const foreign = new Database(other);
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    foreign.close();
    expect(() => openCache(other)).toThrow(/other\.db is not a usable svc-monitor cache: .*another program/);

    const newer = join(root, 'newer', 'cache.db');
    openCache(newer).close();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => openCache(newer)).toThrow(/newer than this program/);

    expect(() => openCache(root)).toThrow(CacheError); // a directory
  });
});

describe('writes', () => {
  it('cities: insert, unchanged, update only when the JSON changed', () => {
    const cache = fresh();
    // three cities
    expect(cache.resources.upsertCities(early.cities)).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(cache.resources.upsertCities(early.cities)).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    const renamed = early.cities.map((c, i) => (i === 0 ? { ...c, station_name: 'Renamed' } : c));
    expect(cache.resources.upsertCities(renamed)).toEqual({ inserted: 0, updated: 1, unchanged: 2 });
    expect(cache.export.rows('cities')).toEqual(texts(byCity(renamed)));
    expect(cache.resources.cities()).toEqual(byCity(renamed));
  });

  it('current: every distinct fetched_at of every source is kept, repeats are ignored', () => {
    const cache = fresh();
    for (const c of early.current)
      expect(cache.resources.addCurrent(c)).toEqual({ inserted: 4, updated: 0, unchanged: 0 });
    for (const c of early.current)
      expect(cache.resources.addCurrent(c)).toEqual({ inserted: 0, updated: 0, unchanged: 4 });
    const one = early.current[0] as CurrentObservations;
    const moved = { ...one, wxa_current: { ...one.wxa_current, fetched_at: '2026-11-22T20:00:30Z', temp_f: 1 } };
    expect(cache.resources.addCurrent(moved)).toEqual({ inserted: 1, updated: 0, unchanged: 3 });
    for (const c of late.current) cache.resources.addCurrent(c);
    // 3 cities x 4 sources at each of the two instants, and the one moved
    expect(cache.export.rows('current')).toHaveLength(25);
    const series = exported<{ source: string; fetched_at: string; temp_f: number }>(cache, 'current', {
      cityId: one.city_id,
    })
      .filter((r) => r.source === 'wxa_current')
      .map(({ source, fetched_at, temp_f }) => ({ source, fetched_at, temp_f }));
    // nyc read 8 °C (46.4 °F) early, 9 °C (48.2 °F) late
    expect(series).toEqual([
      { source: 'wxa_current', fetched_at: '2026-11-22T20:00:00Z', temp_f: 46.4 },
      { source: 'wxa_current', fetched_at: '2026-11-22T20:00:30Z', temp_f: 1 },
      { source: 'wxa_current', fetched_at: '2026-11-23T09:00:00Z', temp_f: 48.2 },
    ]);
    expect(cache.market.readings(one.city_id)).toHaveLength(4);
  });

  it('forecasts: every distinct fetched_at of every layer is kept; content revised under one fetched_at updates', () => {
    const cache = fresh();
    for (const f of early.forecasts)
      expect(cache.resources.addForecasts(f)).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    for (const f of early.forecasts)
      expect(cache.resources.addForecasts(f)).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    const one = early.forecasts[0] as Forecasts;
    const revised = { ...one, model_tmax_range: { ...one.model_tmax_range, tmax_max: 99 } };
    expect(cache.resources.addForecasts(revised)).toEqual({ inserted: 0, updated: 1, unchanged: 2 });
    for (const f of late.forecasts) expect(cache.resources.addForecasts(f).inserted).toBe(3);
    // 3 layers of 3 cities, twice
    expect(cache.export.rows('forecasts')).toHaveLength(18);
    const latest = cache.resources.latestForecasts(one.city_id);
    expect(latest.map((l) => l.layer).sort()).toEqual([...FORECAST_LAYERS].sort());
    expect(latest.map((l) => l.fetched_at)).toEqual(Array(3).fill('2026-11-23T09:05:00Z'));
  });

  it('forecasts: a layer without fetched_at (the spec does not promise one) is keyed on svc_pro_forecast’s', () => {
    const cache = fresh();
    const one = early.forecasts[0] as Forecasts;
    const { fetched_at: _edgeAt, ...edge } = one.edge_ensemble_daily;
    const { fetched_at: _rangeAt, ...range } = one.model_tmax_range;
    const bare: Forecasts = { ...one, edge_ensemble_daily: edge, model_tmax_range: range };
    expect(cache.resources.addForecasts(bare)).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    expect(cache.resources.addForecasts(bare)).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
    const at = one.svc_pro_forecast.fetched_at;
    expect(cache.export.rows('forecasts')).toEqual([
      JSON.stringify(Object.assign({ city_id: one.city_id, layer: 'svc_pro_forecast' }, one.svc_pro_forecast)),
      JSON.stringify({
        ...Object.assign({ city_id: one.city_id, layer: 'edge_ensemble_daily' }, edge),
        fetched_at: at,
      }),
      JSON.stringify({ ...Object.assign({ city_id: one.city_id, layer: 'model_tmax_range' }, range), fetched_at: at }),
    ]);
    const later = { ...one.svc_pro_forecast, fetched_at: '2026-11-22T21:05:00Z' };
    expect(cache.resources.addForecasts({ ...bare, svc_pro_forecast: later })).toEqual({
      inserted: 3,
      updated: 0,
      unchanged: 0,
    });
  });

  it('strategies: records resolve in place (open -> resolved is an update), per family', () => {
    const cache = fresh();
    for (const family of STRATEGY_FAMILIES) {
      const before = early.strategies[family];
      const after = late.strategies[family];
      // #4 and #3 open
      expect(cache.resources.upsertStrategy(family, before)).toEqual({ inserted: 4, updated: 0, unchanged: 0 });
      expect(openRecords(cache, family).map((r) => r.id)).toEqual([4, 3]);
      expect(openRecords(cache, family)).toEqual(before.slice(0, 2));
      // #6 and #5 new, #4 and #3 settled, #2 and #1 as they were
      expect(cache.resources.upsertStrategy(family, after)).toEqual({ inserted: 2, updated: 2, unchanged: 2 });
      expect(openRecords(cache, family).map((r) => r.id)).toEqual([6, 5]);
      // newest version of each row, in the API's order: exactly what the server sends now
      expect(cache.export.rows(family)).toEqual(texts(after));
    }
  });

  it('fusion locks: insert, resolve by id, checkpoint in the same transaction', () => {
    const cache = fresh();
    // L-000, L-001 and L-002 open, locked at 20:00Z, 17:00Z and 14:00Z
    const unresolved = early.locks.filter((l) => !l.resolved);
    expect(unresolved.map((l) => l.id)).toEqual(['L-000', 'L-001', 'L-002']);
    const counts = cache.resources.upsertFusionLocks(early.locks, { stream: 'fusion-locks', value: 'c1' });
    expect(counts).toEqual({ inserted: 300, updated: 0, unchanged: 0 });
    expect(cache.streams.checkpoint('fusion-locks')).toBe('c1');
    expect(storedLocks(cache)[0]?.locked_at).toBe('2026-11-22T20:00:00Z');
    expect(cache.resources.oldestUnresolvedLockedAt()).toBe('2026-11-22T14:00:00Z');

    const resolvedNow = late.locks.filter((l) => l.resolved && unresolved.some((u) => u.id === l.id));
    expect(resolvedNow.map((l) => l.id)).toEqual(['L-000', 'L-001', 'L-002']);
    expect(cache.resources.upsertFusionLocks(resolvedNow)).toEqual({ inserted: 0, updated: 3, unchanged: 0 });
    expect(cache.streams.checkpoint('fusion-locks')).toBe('c1');
    expect(cache.resources.oldestUnresolvedLockedAt()).toBeUndefined();

    // the two new ones come first, newest first
    expect(cache.resources.upsertFusionLocks(late.locks)).toEqual({ inserted: 2, updated: 0, unchanged: 300 });
    expect(cache.export.rows('fusion-locks')).toEqual(texts(late.locks));
    expect(storedLocks(cache)[0]?.locked_at).toBe('2026-11-23T09:00:00Z');
    expect(
      storedLocks(cache)
        .slice(0, 2)
        .map((l) => l.id),
    ).toEqual(['L-new-1', 'L-new-2']);
    expect(storedLocks(cache).slice(0, 2)).toEqual(late.locks.slice(0, 2));
  });

  it('a page that fails mid-transaction stores none of its rows and not its checkpoint', () => {
    const cache = fresh();
    const [first, rest] = [early.locks.slice(0, 50), early.locks.slice(50, 250)];
    cache.resources.upsertFusionLocks(first, { stream: 'fusion-locks', value: 'after-first' });
    // 200 good rows (two multi-row statements succeed first), then one violating city_id NOT NULL
    const bad = { ...(early.locks[250] as FusionLock), city_id: null } as unknown as FusionLock;
    const events: ChangeEvent[] = [];
    cache.onChange((e) => events.push(e));
    expect(() =>
      cache.resources.upsertFusionLocks([...rest, bad], { stream: 'fusion-locks', value: 'after-bad' }),
    ).toThrow(/NOT NULL/);
    expect(cache.streams.checkpoint('fusion-locks')).toBe('after-first');
    expect(cache.export.rows('fusion-locks')).toEqual(texts(first));
    expect(events).toEqual([]);

    // 250 good rows (two 100-row statements succeed first), then one without an id
    const noId = { ...(historical.get('wxa_history')?.[0]?.[5] as HistoricalRow), id: undefined };
    const page = [...(historical.get('wxa_history')?.[0] ?? []), noId] as HistoricalRow[];
    expect(() => cache.resources.upsertHistorical('wxa_history', page, { stream: 'h', value: '1' })).toThrow(
      CacheError,
    );
    expect(cache.export.rows('historical/wxa_history')).toEqual([]);
    expect(cache.streams.checkpoint('h')).toBeUndefined();
  });

  it('historical: every whitelisted table, page by page with its checkpoint; updates only on changed JSON', () => {
    const cache = fresh();
    for (const table of HISTORICAL_TABLES) {
      const served = historical.get(table) ?? [];
      let inserted = 0;
      for (const page of served) {
        const last = page[page.length - 1] as HistoricalRow;
        const counts = cache.resources.upsertHistorical(table, page, {
          stream: `historical/${table}`,
          value: String(last.id),
        });
        inserted += counts.inserted;
        expect(counts.updated + counts.unchanged).toBe(0);
      }
      const all = served.flat();
      // two pages of 250: ids 500 down to 1, the last page's last row the checkpoint
      expect(inserted, table).toBe(500);
      expect(cache.streams.checkpoint(`historical/${table}`)).toBe('1');
      expect(cache.export.rows(`historical/${table}`)).toEqual(texts(all));
      const page = served[0] as HistoricalRow[];
      // every tenth row of the 250 edited: 25
      const edited = page.map((r, i) => (i % 10 === 0 ? { ...r, edited: true } : r));
      expect(cache.resources.upsertHistorical(table, edited)).toEqual({ inserted: 0, updated: 25, unchanged: 225 });
      // the History pane's keyset page after the newest row (rid = -id)
      const after = { a: -(page[0]?.id as number), b: 0 };
      expect(cache.history.older(table, {}, after, 3).map((r) => r.row.id)).toEqual([499, 498, 497]);
      expect(cache.history.older(table, {}, after, 3).map((r) => r.row)).toEqual(page.slice(1, 4));
    }
  });

  it('emits one change event after each committed write that changed rows', () => {
    const cache = fresh();
    const events: ChangeEvent[] = [];
    const off = cache.onChange((e) => events.push(e));
    cache.resources.upsertCities(early.cities);
    cache.resources.upsertCities(early.cities);
    cache.resources.addCurrent(early.current[0] as CurrentObservations);
    const page = historical.get('forecast_accuracy_daily')?.[0]?.slice(0, 5) ?? [];
    cache.resources.upsertHistorical('forecast_accuracy_daily', page);
    cache.resources.upsertHistorical('forecast_accuracy_daily', [{ ...(page[0] as HistoricalRow), abs_error: 42 }]);
    const id = cache.alerts.add({
      severity: 'high',
      kind: 'kill',
      message: 'killed',
      created_at: '2026-11-21T12:00:00Z',
    });
    cache.streams.recordSuccess('cities', '2026-11-21T12:00:00Z', 13);
    off();
    cache.resources.upsertCities(early.cities.map((c) => ({ ...c, city_name: 'x' })));
    expect(events).toEqual([
      { table: 'cities', ids: ['nyc', 'london', 'paris'] },
      { table: 'current', ids: ['nyc'] },
      { table: 'historical/forecast_accuracy_daily', ids: [500, 499, 498, 497, 496] },
      { table: 'historical/forecast_accuracy_daily', ids: [500] },
      { table: 'alerts', ids: [id] },
      { table: 'streams', ids: ['cities'] },
    ]);
  });
  it('reports exactly the inserted and the updated ids of a page that is partly new', () => {
    const cache = fresh();
    const page = (historical.get('mkta_buckets_history')?.[0] ?? []).slice(0, 250);
    expect(page).toHaveLength(250);
    cache.resources.upsertHistorical('mkta_buckets_history', page.slice(50, 150)); // both 100-row chunks of the page are partly new
    const events: ChangeEvent[] = [];
    cache.onChange((e) => events.push(e));
    const edited = page.map((r, i) => (i === 120 ? { ...r, yes_price: 0.123 } : r));
    expect(cache.resources.upsertHistorical('mkta_buckets_history', edited)).toEqual({
      inserted: 150,
      updated: 1,
      unchanged: 99,
    });
    const ids = events[0]?.ids ?? [];
    expect(events).toHaveLength(1);
    expect([...ids].sort()).toEqual([...page.slice(0, 50), ...page.slice(150), page[120]].map((r) => r?.id).sort());
    expect([...cache.export.iterate('historical/mkta_buckets_history')]).toEqual(texts(edited));
  });
});

describe('stream state, checkpoints and alerts', () => {
  it('keeps the last success and the last error of each stream', () => {
    const cache = fresh();
    cache.streams.recordSuccess('current', '2026-11-21T12:00:00Z', 52);
    cache.streams.recordError('current', '2026-11-21T12:01:00Z', 'service unreachable');
    cache.streams.recordError('historical/wxa_history', '2026-11-21T12:02:00Z', '401');
    cache.streams.recordSuccess('current', '2026-11-21T12:03:00Z', 4, null, 1_795_000_000_000);
    expect(cache.streams.states()).toEqual([
      {
        stream: 'current',
        last_success_at: '2026-11-21T12:03:00Z',
        last_error_at: '2026-11-21T12:01:00Z',
        last_error: 'service unreachable',
        rows: 4,
        complete_at: null,
        last_success_host_ms: 1_795_000_000_000,
      },
      {
        stream: 'historical/wxa_history',
        last_success_at: null,
        last_error_at: '2026-11-21T12:02:00Z',
        last_error: '401',
        rows: 0,
        complete_at: null,
        last_success_host_ms: null,
      },
    ]);
    // the service's clock at a pass's first answer: kept by a pass that made no request
    cache.streams.recordSuccess('current', '2026-11-21T12:05:00Z', 4, '2026-11-21T12:04:58Z');
    cache.streams.recordSuccess('current', '2026-11-21T12:06:00Z', 0, null);
    expect(cache.streams.states()[0]).toMatchObject({
      last_success_at: '2026-11-21T12:06:00Z',
      complete_at: '2026-11-21T12:04:58Z',
      // a pass recorded without the host's clock says so, rather than keep an older pass's
      last_success_host_ms: null,
    });
    // the service's clock offset: none before the first answer, then the last kept
    expect(cache.streams.clockOffset()).toBeNull();
    cache.streams.recordClockOffset(252_000.4);
    cache.streams.recordClockOffset(-3_600_000);
    expect(cache.streams.clockOffset()).toBe(-3_600_000);
    cache.streams.setCheckpoint('x', 'a');
    cache.streams.setCheckpoint('x', 'b');
    expect(cache.streams.checkpoint('x')).toBe('b');
    expect(cache.streams.checkpoint('y')).toBeUndefined();
  });

  it('adds, lists and acknowledges alerts', () => {
    const cache = fresh();
    const a = cache.alerts.add({
      severity: 'info',
      kind: 'listener-down',
      message: 'first sync',
      created_at: '2026-11-21T10:00:00Z',
    });
    const b = cache.alerts.add({
      severity: 'high',
      kind: 'dying-bucket',
      message: 'pick killed',
      ref: 'pick-1',
      city_id: 'nyc',
      created_at: '2026-11-21T11:00:00Z',
    });
    expect(storedAlerts(cache).map((x) => x.id)).toEqual([b, a]);
    expect(storedAlerts(cache).some((x) => x.kind === 'dying-bucket' && x.ref === 'pick-1')).toBe(true);
    expect(cache.alerts.acknowledge(a, '2026-11-21T12:00:00Z')).toBe(true);
    expect(cache.alerts.acknowledge(a, '2026-11-21T13:00:00Z')).toBe(false);
    expect(cache.alerts.acknowledge(999, '2026-11-21T13:00:00Z')).toBe(false);
    expect(storedAlerts(cache).filter((x) => x.acknowledged_at === null)).toEqual([
      {
        id: b,
        severity: 'high',
        kind: 'dying-bucket',
        message: 'pick killed',
        ref: 'pick-1',
        city_id: 'nyc',
        created_at: '2026-11-21T11:00:00Z',
        acknowledged_at: null,
      },
    ]);
    expect(storedAlerts(cache).find((x) => x.id === a)?.acknowledged_at).toBe('2026-11-21T12:00:00Z');
    expect(cache.export.rows('alerts', { cityId: 'nyc' })).toHaveLength(1);
    expect(cache.export.rows('alerts', { until: '2026-11-21T10:30:00Z' }).map((t) => JSON.parse(t).id)).toEqual([a]);
    expect(() => cache.alerts.add({ severity: 'info', kind: 'edge', message: 'm', created_at: 'yesterday' })).toThrow(
      CacheError,
    );
  });
});

describe('export', () => {
  let cache: Cache;
  beforeAll(() => {
    cache = openCache(join(root, 'export', 'cache.db'));
    cache.resources.upsertCities(early.cities);
    for (const s of [early, late]) {
      for (const c of s.current) cache.resources.addCurrent(c);
      for (const f of s.forecasts) cache.resources.addForecasts(f);
      for (const family of STRATEGY_FAMILIES) cache.resources.upsertStrategy(family, s.strategies[family]);
      cache.resources.upsertFusionLocks(s.locks);
    }
    for (const [table, served] of historical) for (const page of served) cache.resources.upsertHistorical(table, page);
    cache.alerts.add({
      severity: 'warning',
      kind: 'listener-down',
      message: 'stale',
      created_at: '2026-11-21T12:00:00Z',
    });
  });
  afterAll(() => cache.close());

  it('knows every NAME of DESIGN.md and refuses others, listing the valid ones', () => {
    expect(EXPORT_NAMES).toEqual([
      'cities',
      'current',
      'forecasts',
      'fusion-locks',
      'no24',
      'yescore',
      'svc-max-picks',
      ...HISTORICAL_TABLES.map((t) => `historical/${t}`),
      'webhook-events',
      'insurance-picks',
      'edge-trades',
      'alerts',
      'rejected-webhooks',
      'board',
      'board-record',
    ]);
    // 3 cities; 3 x 4 sources and 3 x 3 layers at two instants; 300 + 2 locks; 6 records a family; 500 rows a
    // table; one alert; nothing from the listener
    // (board and board-record are worked out by board/ over these reads, test/board/, not read out of a table)
    const stored = EXPORT_NAMES.filter((n) => n !== 'board' && n !== 'board-record');
    const counts = Object.fromEntries(stored.map((name) => [name, cache.export.rows(name).length]));
    expect(counts).toEqual({
      cities: 3,
      current: 24,
      forecasts: 18,
      'fusion-locks': 302,
      no24: 6,
      yescore: 6,
      'svc-max-picks': 6,
      ...Object.fromEntries(HISTORICAL_TABLES.map((t) => [`historical/${t}`, 500])),
      'webhook-events': 0,
      'insurance-picks': 0,
      'edge-trades': 0,
      alerts: 1,
      'rejected-webhooks': 0,
    });
    for (const name of stored)
      for (const text of cache.export.rows(name).slice(0, 50)) expect(() => JSON.parse(text)).not.toThrow();
    expect(() => cache.export.rows('historical/secrets')).toThrow(/unknown export name.*historical\/wxa_history/);
    expect(() => cache.export.rows('locks')).toThrow(CacheError);
    expect(() => cache.export.rows('no24', { since: '2026-13-45' })).toThrow(/invalid since/);
  });

  it('current: one row per source snapshot, {city_id, source, ...member as received}, by fetched_at, city, source', () => {
    // early before late; in each, london, nyc, paris; in each city the sources in the API's order
    const expected = [early, late].flatMap((s) =>
      ['london', 'nyc', 'paris'].flatMap((city) => {
        const c = s.current.find((x) => x.city_id === city) as CurrentObservations;
        const sources = ['wxa_current', 'wxb_current', 'metar_observations', 'pws_observations'] as const;
        return sources.map((source) => JSON.stringify({ city_id: city, source, ...c[source] }));
      }),
    );
    expect(cache.export.rows('current')).toEqual(expected);
    const nyc = cache.export.rows('current', { cityId: 'nyc', since: LATE_AT }).map((t) => JSON.parse(t));
    expect(nyc.map((r) => [r.city_id, r.source, r.fetched_at])).toEqual(
      CURRENT_SOURCES.map((source) => ['nyc', source, LATE_AT]),
    );
    // a date as until: the whole of that day, so the early snapshot (3 x 4 rows) and not the late one
    const day = cache.export.rows('current', { until: '2026-11-22' }).map((t) => JSON.parse(t));
    expect(day.map((r) => r.fetched_at)).toEqual(Array(12).fill(EARLY_AT));
  });

  it('forecasts: {city_id, layer, ...member as received}, fetched_at appended only where the layer has none', () => {
    const rows = cache.export.rows('forecasts', { cityId: 'nyc' });
    const expected = [early, late].flatMap((s) => {
      const f = s.forecasts.find((x) => x.city_id === 'nyc') as Forecasts;
      const at = f.svc_pro_forecast.fetched_at;
      return FORECAST_LAYERS.map((layer) => {
        const member = f[layer];
        const row = Object.assign({ city_id: 'nyc', layer }, member);
        return JSON.stringify(member.fetched_at === undefined ? { ...row, fetched_at: at } : row);
      });
    });
    expect(rows).toEqual(expected);
    expect(JSON.parse(rows[0] as string)).toMatchObject({ city_id: 'nyc', layer: 'svc_pro_forecast' });
    // the late run's 3 layers of 3 cities
    expect(cache.export.rows('forecasts', { since: '2026-11-23T09:05:00Z' })).toHaveLength(9);
  });

  it('strategies filter local_date inclusively', () => {
    for (const family of STRATEGY_FAMILIES) {
      const ids = (filter: Parameters<Cache['export']['rows']>[1]) =>
        exported<StrategyRecord>(cache, family, filter).map((r) => r.id);
      // nyc's record of 11-22: #4
      expect(ids({ cityId: 'nyc', since: '2026-11-22', until: '2026-11-22' }), family).toEqual([4]);
      // 11-21 and 11-22 (an instant as until stands for its date): #4 and #3, #2 and #1
      expect(ids({ since: '2026-11-21', until: '2026-11-22T23:00:00Z' }), family).toEqual([4, 3, 2, 1]);
    }
  });

  it('fusion locks filter locked_at inclusively', () => {
    // L-040 was locked 40 x 3 h before 11-22 20:00Z: 11-17 20:00Z; London's locks are L-001, L-004, ... (i % 3 = 1)
    const since = '2026-11-17T20:00:00Z';
    const london = exported<FusionLock>(cache, 'fusion-locks', { cityId: 'london', since }).map((l) => l.id);
    expect(london).toEqual(Array.from({ length: 14 }, (_, k) => `L-${String(1 + 3 * k).padStart(3, '0')}`));
    // since = until = L-060's instant (11-15 08:00Z): that lock alone
    const at = '2026-11-15T08:00:00Z';
    expect(exported<FusionLock>(cache, 'fusion-locks', { since: at, until: at }).map((l) => l.id)).toEqual(['L-060']);
  });

  it('historical tables filter city and the DESIGN.md section 4 column', () => {
    // row k is at 11-22 20:00Z less (500 - k) x 10 min: row 1 at 11-19 08:50Z, row 20 at 12:00Z, row 91 at 23:50Z;
    // London's rows are those with k % 3 = 1
    const ids = (table: HistoricalTable, since: string, until: string) =>
      exported<HistoricalRow>(cache, `historical/${table}`, { cityId: 'london', since, until }).map((r) => r.id);
    for (const table of HISTORICAL_TABLES.filter((t) => HISTORICAL_TIME_COLUMN[t].kind === 'instant'))
      expect(ids(table, '2026-11-19', '2026-11-19T12:00:00Z'), table).toEqual([19, 16, 13, 10, 7, 4, 1]);
    // a daily table's local_date: the whole of 11-19, rows 1 to 91
    const daily = Array.from({ length: 31 }, (_, k) => 91 - 3 * k);
    for (const table of HISTORICAL_TABLES.filter((t) => HISTORICAL_TIME_COLUMN[t].kind === 'date'))
      expect(ids(table, '2026-11-19', '2026-11-19T12:00:00Z'), table).toEqual(daily);
  });
});
