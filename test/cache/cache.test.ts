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
import { exported, openRecords, storedAlerts, storedLocks } from '../helpers/cache-rows.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { TEMPLATE_START } from '../helpers/world-template.js';

const HOUR = 3_600_000;
/** Bucket histories hold ~100k rows; the first pages are enough of them. */
const MAX_PAGES = 8;

interface Snapshot {
  cities: City[];
  current: CurrentObservations[];
  forecasts: Forecasts[];
  strategies: Record<StrategyFamily, StrategyRecord[]>;
  locks: FusionLock[];
}

let svc: TestService;
let root: string;
/** The world 12 h after the template (the day's locks and records open), then 40 h after (resolved). */
let early: Snapshot;
let late: Snapshot;
/** Pages of each historical table as the API served them at `early`. */
const historical = new Map<HistoricalTable, HistoricalRow[][]>();
const opened: Cache[] = [];

async function pages<T>(path: string, max = Number.POSITIVE_INFINITY): Promise<T[][]> {
  const out: T[][] = [];
  let cursor: string | number | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await svc.get(cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(String(cursor))}`);
    expect(res.status, path).toBe(200);
    out.push(res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null && out.length < max);
  return out;
}

async function snapshot(): Promise<Snapshot> {
  const cities: City[] = (await svc.get('/cities')).body.data;
  const current: CurrentObservations[] = [];
  const forecasts: Forecasts[] = [];
  for (const c of cities) {
    current.push((await svc.get(`/current?city_id=${c.city_id}`)).body.data);
    forecasts.push((await svc.get(`/forecasts?city_id=${c.city_id}`)).body.data);
  }
  const strategies = {} as Record<StrategyFamily, StrategyRecord[]>;
  for (const f of STRATEGY_FAMILIES) strategies[f] = (await svc.get(`/${f}?limit=1000`)).body.data;
  const locks = (await pages<FusionLock>('/fusion-locks?limit=500')).flat();
  return { cities, current, forecasts, strategies, locks };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cache-test-'));
  svc = await startTestService();
  // 20:00Z the day after the template's: every family holds open records (this seed's svc-max picks of the template
  // day all stayed out of the ask range; the next day's were taken at 11:00 local)
  svc.service.world.advanceTo(TEMPLATE_START + 32 * HOUR);
  early = await snapshot();
  for (const t of HISTORICAL_TABLES) historical.set(t, await pages(`/historical/${t}?limit=1000`, MAX_PAGES));
  // 09:00Z two days on: local midnight has passed in every city (Seattle's last), so those records have settled
  svc.service.world.advanceTo(TEMPLATE_START + 45 * HOUR);
  late = await snapshot();
});

afterEach(() => {
  for (const c of opened.splice(0)) c.close();
});

afterAll(async () => {
  await svc?.close();
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
    expect(cache.resources.upsertCities(early.cities)).toEqual({
      inserted: early.cities.length,
      updated: 0,
      unchanged: 0,
    });
    expect(cache.resources.upsertCities(early.cities)).toEqual({
      inserted: 0,
      updated: 0,
      unchanged: early.cities.length,
    });
    const renamed = early.cities.map((c, i) => (i === 0 ? { ...c, station_name: 'Renamed' } : c));
    expect(cache.resources.upsertCities(renamed)).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: early.cities.length - 1,
    });
    expect(cache.export.rows('cities')).toEqual(texts(byCity(renamed)));
    expect(cache.resources.cities()).toEqual(byCity(renamed));
  });

  it('current: every distinct fetched_at of every source is kept, repeats are ignored', () => {
    const cache = fresh();
    const n = early.current.length * CURRENT_SOURCES.length;
    for (const c of early.current)
      expect(cache.resources.addCurrent(c)).toEqual({ inserted: 4, updated: 0, unchanged: 0 });
    for (const c of early.current)
      expect(cache.resources.addCurrent(c)).toEqual({ inserted: 0, updated: 0, unchanged: 4 });
    const one = early.current[0] as CurrentObservations;
    const moved = { ...one, wxa_current: { ...one.wxa_current, fetched_at: '2026-11-22T20:00:30Z', temp_f: 1 } };
    expect(cache.resources.addCurrent(moved)).toEqual({ inserted: 1, updated: 0, unchanged: 3 });
    for (const c of late.current) cache.resources.addCurrent(c);
    expect(cache.export.rows('current')).toHaveLength(2 * n + 1);
    const series = exported<{ source: string; fetched_at: string; temp_f: number }>(cache, 'current', {
      cityId: one.city_id,
    })
      .filter((r) => r.source === 'wxa_current')
      .map(({ source, fetched_at, temp_f }) => ({ source, fetched_at, temp_f }));
    expect(series).toEqual([
      { source: 'wxa_current', fetched_at: one.wxa_current.fetched_at, temp_f: one.wxa_current.temp_f },
      { source: 'wxa_current', fetched_at: '2026-11-22T20:00:30Z', temp_f: 1 },
      expect.objectContaining({ fetched_at: late.current[0]?.wxa_current.fetched_at }),
    ]);
    expect(cache.resources.latestCurrent(one.city_id)).toHaveLength(4);
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
    expect(cache.export.rows('forecasts')).toHaveLength(2 * 3 * early.forecasts.length);
    const latest = cache.resources.latestForecasts(one.city_id);
    expect(latest.map((l) => l.layer).sort()).toEqual([...FORECAST_LAYERS].sort());
    expect(latest.every((l) => l.fetched_at === late.forecasts[0]?.svc_pro_forecast.fetched_at)).toBe(true);
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
      const open = before.filter((r) => r.outcome === null);
      expect(open.length, family).toBeGreaterThan(0);
      expect(cache.resources.upsertStrategy(family, before)).toEqual({
        inserted: before.length,
        updated: 0,
        unchanged: 0,
      });
      expect(openRecords(cache, family)).toEqual(open);
      const counts = cache.resources.upsertStrategy(family, after);
      const changed = after.filter((r) => {
        const old = before.find((b) => b.id === r.id);
        return old !== undefined && JSON.stringify(old) !== JSON.stringify(r);
      });
      expect(changed.length).toBeGreaterThanOrEqual(open.length);
      expect(counts).toEqual({
        inserted: after.length - before.length,
        updated: changed.length,
        unchanged: before.length - changed.length,
      });
      // newest version of each row, in the API's order: exactly what the server sends now
      expect(cache.export.rows(family)).toEqual(texts(after));
    }
  });

  it('fusion locks: insert, resolve by id, checkpoint in the same transaction', () => {
    const cache = fresh();
    const unresolved = early.locks.filter((l) => !l.resolved);
    expect(unresolved.length).toBeGreaterThan(0);
    const counts = cache.resources.upsertFusionLocks(early.locks, { stream: 'fusion-locks', value: 'c1' });
    expect(counts).toEqual({ inserted: early.locks.length, updated: 0, unchanged: 0 });
    expect(cache.streams.checkpoint('fusion-locks')).toBe('c1');
    expect(storedLocks(cache)[0]?.locked_at).toBe(early.locks[0]?.locked_at);
    expect(cache.resources.oldestUnresolvedLockedAt()).toBe(unresolved.map((l) => l.locked_at).sort()[0]);

    const resolvedNow = late.locks.filter((l) => l.resolved && unresolved.some((u) => u.id === l.id));
    expect(resolvedNow.length).toBe(unresolved.length);
    expect(cache.resources.upsertFusionLocks(resolvedNow)).toEqual({
      inserted: 0,
      updated: resolvedNow.length,
      unchanged: 0,
    });
    expect(cache.streams.checkpoint('fusion-locks')).toBe('c1');
    expect(cache.resources.oldestUnresolvedLockedAt()).toBeUndefined();

    cache.resources.upsertFusionLocks(late.locks);
    expect(cache.export.rows('fusion-locks')).toEqual(texts(late.locks));
    expect(storedLocks(cache)[0]?.locked_at).toBe(late.locks[0]?.locked_at);
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

    const noId = { ...(historical.get('wxa_history')?.[0]?.[5] as HistoricalRow), id: undefined };
    const page = [...(historical.get('wxa_history')?.[0] ?? []).slice(0, 300), noId] as HistoricalRow[];
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
      expect(inserted, table).toBe(all.length);
      expect(cache.streams.checkpoint(`historical/${table}`)).toBe(String(all[all.length - 1]?.id));
      expect(cache.export.rows(`historical/${table}`)).toEqual(texts(all));
      const page = served[0] as HistoricalRow[];
      const edited = page.map((r, i) => (i % 10 === 0 ? { ...r, edited: true } : r));
      expect(cache.resources.upsertHistorical(table, edited)).toEqual({
        inserted: 0,
        updated: Math.ceil(page.length / 10),
        unchanged: page.length - Math.ceil(page.length / 10),
      });
      // the History pane's keyset page after the newest row (rid = -id)
      const after = { a: -(page[0]?.id as number), b: 0 };
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
      { table: 'cities', ids: early.cities.map((c) => c.city_id) },
      { table: 'current', ids: [early.current[0]?.city_id] },
      { table: 'historical/forecast_accuracy_daily', ids: page.map((r) => r.id) },
      { table: 'historical/forecast_accuracy_daily', ids: [page[0]?.id] },
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
    cache.streams.recordSuccess('current', '2026-11-21T12:03:00Z', 4);
    expect(cache.streams.states()).toEqual([
      {
        stream: 'current',
        last_success_at: '2026-11-21T12:03:00Z',
        last_error_at: '2026-11-21T12:01:00Z',
        last_error: 'service unreachable',
        rows: 4,
      },
      {
        stream: 'historical/wxa_history',
        last_success_at: null,
        last_error_at: '2026-11-21T12:02:00Z',
        last_error: '401',
        rows: 0,
      },
    ]);
    cache.streams.setCheckpoint('x', 'a');
    cache.streams.setCheckpoint('x', 'b');
    expect(cache.streams.checkpoint('x')).toBe('b');
    expect(cache.streams.checkpoint('y')).toBeUndefined();
  });

  it('adds, lists and acknowledges alerts', () => {
    const cache = fresh();
    const a = cache.alerts.add({
      severity: 'info',
      kind: 'sync',
      message: 'first sync',
      created_at: '2026-11-21T10:00:00Z',
    });
    const b = cache.alerts.add({
      severity: 'high',
      kind: 'insurance.pick.killed',
      message: 'pick killed',
      ref: 'pick-1',
      city_id: 'nyc',
      created_at: '2026-11-21T11:00:00Z',
    });
    expect(storedAlerts(cache).map((x) => x.id)).toEqual([b, a]);
    expect(storedAlerts(cache).some((x) => x.kind === 'insurance.pick.killed' && x.ref === 'pick-1')).toBe(true);
    expect(cache.alerts.acknowledge(a, '2026-11-21T12:00:00Z')).toBe(true);
    expect(cache.alerts.acknowledge(a, '2026-11-21T13:00:00Z')).toBe(false);
    expect(cache.alerts.acknowledge(999, '2026-11-21T13:00:00Z')).toBe(false);
    expect(storedAlerts(cache).filter((x) => x.acknowledged_at === null)).toEqual([
      {
        id: b,
        severity: 'high',
        kind: 'insurance.pick.killed',
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
    expect(() => cache.alerts.add({ severity: 'info', kind: 'k', message: 'm', created_at: 'yesterday' })).toThrow(
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
    cache.alerts.add({ severity: 'warning', kind: 'stale', message: 'stale', created_at: '2026-11-21T12:00:00Z' });
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
    ]);
    // board is worked out by board/ over these reads (test/board/), not read out of a table
    for (const name of EXPORT_NAMES.filter((n) => n !== 'board')) {
      const rows = cache.export.rows(name);
      if (['webhook-events', 'insurance-picks', 'edge-trades', 'rejected-webhooks'].includes(name))
        expect(rows, name).toEqual([]);
      else expect(rows.length, name).toBeGreaterThan(0);
      for (const text of rows.slice(0, 50)) expect(() => JSON.parse(text)).not.toThrow();
    }
    expect(() => cache.export.rows('historical/secrets')).toThrow(/unknown export name.*historical\/wxa_history/);
    expect(() => cache.export.rows('locks')).toThrow(CacheError);
    expect(() => cache.export.rows('no24', { since: '2026-13-45' })).toThrow(/invalid since/);
  });

  it('current: one row per source snapshot, {city_id, source, ...member as received}, by fetched_at, city, source', () => {
    const expected = new Map<string, { ms: number; city: string; order: number; text: string }>();
    for (const s of [early, late]) {
      for (const c of s.current) {
        CURRENT_SOURCES.forEach((source, order) => {
          const member = c[source];
          const key = `${c.city_id}|${source}|${Date.parse(member.fetched_at)}`;
          if (expected.has(key)) return; // insert-or-ignore: the first text stays
          const text = JSON.stringify({ city_id: c.city_id, source, ...member });
          expected.set(key, { ms: Date.parse(member.fetched_at), city: c.city_id, order, text });
        });
      }
    }
    const sorted = [...expected.values()].sort(
      (a, b) => a.ms - b.ms || (a.city < b.city ? -1 : a.city > b.city ? 1 : 0) || a.order - b.order,
    );
    expect(cache.export.rows('current')).toEqual(sorted.map((e) => e.text));
    const lateAt = late.current[0]?.wxa_current.fetched_at as string;
    const nyc = cache.export.rows('current', { cityId: 'nyc', since: lateAt }).map((t) => JSON.parse(t));
    expect(nyc.map((r) => r.source)).toEqual([...CURRENT_SOURCES]);
    expect(nyc.every((r) => r.city_id === 'nyc' && r.fetched_at >= lateAt)).toBe(true);
    const earlyDay = (early.current[0] as CurrentObservations).wxa_current.fetched_at.slice(0, 10);
    const day = cache.export.rows('current', { until: earlyDay }).map((t) => JSON.parse(t));
    expect(day.length).toBeGreaterThan(0);
    expect(day.every((r) => r.fetched_at.slice(0, 10) <= earlyDay)).toBe(true);
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
    const since = late.forecasts[0]?.svc_pro_forecast.fetched_at as string;
    expect(cache.export.rows('forecasts', { since })).toHaveLength(3 * late.forecasts.length);
  });

  it('strategies filter local_date inclusively, like the API’s date filter', async () => {
    const date = early.strategies.no24[0]?.local_date as string;
    for (const family of STRATEGY_FAMILIES) {
      const served = (await svc.get(`/${family}?city_id=nyc&date=${date}&limit=1000`)).body.data;
      expect(cache.export.rows(family, { cityId: 'nyc', since: date, until: date })).toEqual(texts(served));
      const window = cache.export.rows(family, { since: '2026-11-10', until: '2026-11-12T23:00:00Z' });
      const want = late.strategies[family].filter((r) => r.local_date >= '2026-11-10' && r.local_date <= '2026-11-12');
      expect(window).toEqual(texts(want));
    }
  });

  it('fusion locks filter locked_at inclusively, like the API’s since', async () => {
    const since = late.locks[40]?.locked_at as string;
    const served = (await pages<FusionLock>(`/fusion-locks?since=${since}&city_id=london&limit=500`)).flat();
    expect(served.length).toBeGreaterThan(0);
    expect(cache.export.rows('fusion-locks', { cityId: 'london', since })).toEqual(texts(served));
    const until = late.locks[60]?.locked_at as string;
    const bounded = cache.export.rows('fusion-locks', { since: until, until }).map((t) => JSON.parse(t));
    expect(bounded.map((l) => l.id)).toEqual(late.locks.filter((l) => l.locked_at === until).map((l) => l.id));
  });

  it('historical tables filter city and the DESIGN.md section 4 column, like the API', async () => {
    for (const table of HISTORICAL_TABLES) {
      const held = (historical.get(table) ?? []).flat();
      const oldest = held[held.length - 1] as HistoricalRow;
      const column = HISTORICAL_TIME_COLUMN[table].column;
      const t = String(oldest[column]);
      // the oldest row's UTC day up to that row (an instant bound is inclusive); a date column: that one date
      const since = t.slice(0, 10);
      const until = t;
      const path = `/historical/${table}?city_id=${oldest.city_id}&since=${since}&until=${until}&limit=1000`;
      const served = (await pages<HistoricalRow>(path)).flat();
      const mine = cache.export.rows(`historical/${table}`, { cityId: oldest.city_id, since, until });
      const heldIds = new Set(held.map((r) => r.id));
      expect(mine, table).toEqual(texts(served.filter((r) => heldIds.has(r.id))));
      expect(mine.length, table).toBeGreaterThan(0);
    }
  });
});
