/**
 * The reference service against the v1 contract (spec/service-interface.md, DESIGN.md section 4), over real HTTP on
 * loopback. Bodies are checked twice: against the TypeBox contract schemas, and field by field against the lists
 * written out below from spec sections 2.1-2.6 (so a schema that is too loose cannot hide a missing field).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CitiesResponse } from '../../src/contract/cities.js';
import { ErrorBody } from '../../src/contract/common.js';
import { CurrentResponse } from '../../src/contract/current.js';
import { ForecastsResponse } from '../../src/contract/forecasts.js';
import { FusionLocksResponse } from '../../src/contract/fusion-locks.js';
import { HistoricalResponse } from '../../src/contract/historical.js';
import { strategyResponse } from '../../src/contract/strategies.js';
import { startTestService, TEST_KEY, type TestService } from '../helpers/service.js';
import { HISTORICAL_ROW } from './historical-row-schemas.js';

// ---------------------------------------------------------------------------------------------------------------
// What the spec and DESIGN.md say, written out here rather than imported, so the test checks the server against
// the documents and not against itself.
// ---------------------------------------------------------------------------------------------------------------

/** Spec 2.4: exactly these tables. */
const TABLES = [
  'metar_observations_history',
  'wxa_history',
  'wxb_history',
  'pws_observations_history',
  'forecast_history',
  'mkta_buckets_history',
  'mktb_buckets_history',
  'forecast_accuracy_daily',
  'market_brief_daily',
  'edge_resolved',
  'model_forecasts_daily',
] as const;
type Table = (typeof TABLES)[number];

/** DESIGN.md section 4: the column `since`/`until` bound in each table. */
const TIME_COLUMN: Record<Table, string> = {
  metar_observations_history: 'observed_at',
  pws_observations_history: 'observed_at',
  wxa_history: 'fetched_at',
  wxb_history: 'fetched_at',
  forecast_history: 'fetched_at',
  mkta_buckets_history: 'snapshot_at',
  mktb_buckets_history: 'snapshot_at',
  forecast_accuracy_daily: 'local_date',
  market_brief_daily: 'local_date',
  edge_resolved: 'local_date',
  model_forecasts_daily: 'local_date',
};

const FAMILIES = ['no24', 'yescore', 'svc-max-picks'] as const;
type Family = (typeof FAMILIES)[number];

type Json = any;

type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
type FieldList = Record<string, Kind | Kind[]>;

/** Spec 2.1. */
const CITY_FIELDS: FieldList = {
  city_id: 'string',
  city_name: 'string',
  country: 'string',
  lat: 'number',
  lon: 'number',
  tz: 'string',
  icao: 'string',
  station_name: 'string',
};

/** Spec 2.2. */
const CURRENT_MEMBERS = ['wxa_current', 'wxb_current', 'metar_observations', 'pws_observations'] as const;
const CURRENT_SOURCE_FIELDS: FieldList = { temp_f: 'number', fetched_at: 'string' };

/** Spec 2.3: every forecast member carries these. */
const FORECAST_MEMBER_FIELDS: FieldList = { city_id: 'string', local_date: 'string' };

const SVC_PRO_FIELDS: FieldList = {
  station_code: 'string',
  unit: 'string',
  predicted_max: 'number',
  predicted_max_f: 'number',
  predicted_max_c: 'number',
  sigma: 'number',
  sigma_f: 'number',
  sigma_c: 'number',
  pacing_delta: 'number',
  pacing_source: 'string',
  hottest_model: 'string',
  models_used: 'array',
  hourly_unit: 'string',
  reasoning: 'string',
  fetched_at: 'string',
};
const SVC_PRO_MODEL_FIELDS: FieldList = { model: 'string', weight: 'number', mae: 'number' };
const HOURLY_POINT_FIELDS: FieldList = { h: 'string', t: 'number' };

const EDGE_ENSEMBLE_FIELDS: FieldList = {
  unit: 'string',
  fc_mean: 'number',
  fc_mean_c: 'number',
  fc_mean_f: 'number',
  tmax_mean_c: 'number',
  tmax_mean_f: 'number',
  sigma: 'number',
  sigma_c: 'number',
  sigma_f: 'number',
  models: 'array',
  models_used: 'array',
  n_models: 'integer',
};
const EDGE_MODEL_FIELDS: FieldList = { model: 'string', weight: 'number' };

const MODEL_RANGE_FIELDS: FieldList = {
  station_code: 'string',
  unit: 'string',
  tmax_min: 'number',
  tmax_min_f: 'number',
  tmax_min_c: 'number',
  tmax_max: 'number',
  tmax_max_f: 'number',
  tmax_max_c: 'number',
  tmax_mean: 'number',
  tmax_mean_f: 'number',
  tmax_mean_c: 'number',
  spread: 'number',
  spread_f: 'number',
  n_models: 'integer',
  models: 'array',
};
const RANGE_MODEL_FIELDS: FieldList = { model: 'string', tmax: 'number' };

/** Spec 2.4: every row has an integer id; the example table shows a few more. */
const HISTORICAL_ROW_FIELDS: FieldList = { id: 'integer' };
const ACCURACY_ROW_FIELDS: FieldList = { id: 'integer', city_id: 'string', local_date: 'string', abs_error: 'number' };

/** Spec 2.5. */
const STRATEGY_SHARED_FIELDS: FieldList = {
  id: 'integer',
  city_id: 'string',
  local_date: 'string',
  bucket_slug: 'string',
  bucket_label: 'string',
  stake: 'number',
  shares: 'number',
  outcome: ['string', 'null'],
  roi: ['number', 'null'],
  side: 'string',
  strategy: 'string',
};
const STRATEGY_EXTRA_FIELDS: Record<Family, FieldList> = {
  no24: {
    model: 'string',
    model_exact_pct: 'number',
    predicted_max_c: 'number',
    predicted_max_f: 'number',
    no_ask: 'number',
    current_no_price: 'number',
  },
  yescore: {
    model: 'string',
    model_exact_pct: 'number',
    predicted_max_c: 'number',
    corrected_max_c: 'number',
    bias_c: 'number',
    yes_ask: 'number',
    edge: 'number',
    current_yes_price: 'number',
  },
  'svc-max-picks': {
    entry_hour: 'integer',
    mu_c: 'number',
    sigma_c: 'number',
    n_models: 'integer',
    model_prob: 'number',
    yes_ask: 'number',
    edge: 'number',
    mode: 'string',
  },
};
const STRATEGY_SIDE: Record<Family, string> = { no24: 'NO', yescore: 'YES', 'svc-max-picks': 'YES' };
const STRATEGY_NAME: Record<Family, string> = { no24: 'no24', yescore: 'yescore', 'svc-max-picks': 'svc_max_11' };

/** Spec 2.6. */
const FUSION_LOCK_FIELDS: FieldList = {
  id: 'string',
  city_id: 'string',
  local_date: 'string',
  peak_hour: 'integer',
  locked_at: 'string',
  bucket_slug: 'string',
  bucket_label: 'string',
  event_slug: 'string',
  yes_price: 'number',
  tokens: 'number',
  resolved: 'boolean',
  actual_tmax_f: ['number', 'null'],
  actual_tmax_c: ['number', 'null'],
  hit: ['boolean', 'null'],
  payout_usd: ['number', 'null'],
  pnl_usd: ['number', 'null'],
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

type Reply = Awaited<ReturnType<TestService['get']>>;

/** `path?k=v&...`, properly encoded (`+` in an offset must not become a space). */
function withQuery(path: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return query === '' ? path : `${path}?${query}`;
}

const validators = new Map<TSchema, ReturnType<typeof Compile>>();

/** The value satisfies the contract schema; otherwise the first error (path and message) is the failure message. */
function expectSchema(schema: TSchema, value: unknown, where: string): void {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  const ok = validator.Check(value);
  const first = ok ? undefined : validator.Errors(value)[0];
  expect(ok, `${where} violates the contract at ${first?.instancePath || '/'}: ${first?.message}`).toBe(true);
}

function kindMatches(value: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'null':
      return value === null;
  }
}

/** Every field of the list is present with the listed JS type. */
function expectFields(value: Json, fields: FieldList, where: string): void {
  expect(kindMatches(value, 'object'), `${where} should be an object, got ${JSON.stringify(value)}`).toBe(true);
  for (const [name, kind] of Object.entries(fields)) {
    const kinds = Array.isArray(kind) ? kind : [kind];
    expect(Object.hasOwn(value, name), `${where}.${name} is missing`).toBe(true);
    expect(
      kinds.some((k) => kindMatches(value[name], k)),
      `${where}.${name} should be ${kinds.join(' or ')}, got ${JSON.stringify(value[name])}`,
    ).toBe(true);
  }
}

function expectJson200(reply: Reply, where: string): void {
  expect(reply.status, `${where}: status (body ${reply.text.slice(0, 300)})`).toBe(200);
  expect(reply.headers.get('content-type') ?? '', `${where}: content-type`).toMatch(/^application\/json/);
  expect(kindMatches(reply.body, 'object'), `${where}: success body is an object`).toBe(true);
}

/** Spec 7: `{error: string}` and nothing else, as JSON. */
function expectError(reply: Reply, status: number, where: string): string {
  expect(reply.status, `${where}: status (body ${reply.text.slice(0, 300)})`).toBe(status);
  expect(reply.headers.get('content-type') ?? '', `${where}: content-type`).toMatch(/^application\/json/);
  expect(kindMatches(reply.body, 'object'), `${where}: error body is an object: ${reply.text}`).toBe(true);
  expect(Object.keys(reply.body), `${where}: error body has exactly one key`).toEqual(['error']);
  expect(typeof reply.body.error, `${where}: error is a string`).toBe('string');
  expect(reply.body.error.length, `${where}: error is not empty`).toBeGreaterThan(0);
  expectSchema(ErrorBody, reply.body, where);
  return reply.body.error;
}

function expectNear(actual: number, expected: number, tolerance: number, where: string): void {
  expect(
    Math.abs(actual - expected),
    `${where}: ${actual} vs expected ${expected} (±${tolerance})`,
  ).toBeLessThanOrEqual(tolerance);
}

function expectIdsStrictlyDescending(rows: { id: number }[], where: string): void {
  for (let i = 1; i < rows.length; i++) {
    const [prev, next] = [rows[i - 1]?.id ?? 0, rows[i]?.id ?? 0];
    expect(prev > next, `${where}: id ${prev} before ${next} at row ${i}`).toBe(true);
  }
}

/** Newest lock first: (locked_at, id) strictly descending. */
function lockBefore(a: { locked_at: string; id: string }, b: { locked_at: string; id: string }): boolean {
  return a.locked_at > b.locked_at || (a.locked_at === b.locked_at && a.id > b.id);
}

const fToC = (f: number) => ((f - 32) * 5) / 9;
const cToF = (c: number) => (c * 9) / 5 + 32;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The row at the middle of a non-empty list. */
function middle(rows: Json[]): Json {
  const row = rows[Math.floor(rows.length / 2)];
  if (row === undefined) throw new Error('expected a non-empty list');
  return row;
}

// ---------------------------------------------------------------------------------------------------------------

let svc: TestService;
let cityIds: string[] = [];

/** GET without any key at all (the harness's `get` adds one). */
const getWithoutKey = async (path: string, init: RequestInit = {}): Promise<Reply> => {
  const response = await fetch(`${svc.baseUrl}${path}`, init);
  const text = await response.text();
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
};

beforeAll(async () => {
  svc = await startTestService();
  const cities = await svc.get('/cities');
  cityIds = (cities.body?.data ?? []).map((c: Json) => c.city_id);
});

afterAll(async () => {
  await svc?.close();
});

describe('every endpoint answers 200 JSON that matches the contract', () => {
  it('GET /cities lists cities with every field of spec 2.1', async () => {
    const reply = await svc.get('/cities');
    expectJson200(reply, '/cities');
    expectSchema(CitiesResponse, reply.body, '/cities');
    expect(reply.body.data.length).toBeGreaterThan(0);
    expect(reply.body.count).toBe(reply.body.data.length);
    for (const city of reply.body.data) expectFields(city, CITY_FIELDS, `/cities ${city.city_id}`);
    expect(new Set(cityIds).size, 'city ids are unique').toBe(cityIds.length);
  });

  it('GET /current answers for every city with the four sources of spec 2.2', async () => {
    expect(cityIds.length).toBeGreaterThan(0);
    for (const city of cityIds) {
      const where = `/current?city_id=${city}`;
      const reply = await svc.get(withQuery('/current', { city_id: city }));
      expectJson200(reply, where);
      expectSchema(CurrentResponse, reply.body, where);
      expectFields(reply.body.data, { city_id: 'string' }, `${where} data`);
      expect(reply.body.data.city_id).toBe(city);
      for (const member of CURRENT_MEMBERS) {
        expectFields(reply.body.data[member], CURRENT_SOURCE_FIELDS, `${where} ${member}`);
      }
    }
  });

  it('GET /forecasts answers for every city with the three layers of spec 2.3', async () => {
    expect(cityIds.length).toBeGreaterThan(0);
    for (const city of cityIds) {
      const where = `/forecasts?city_id=${city}`;
      const reply = await svc.get(withQuery('/forecasts', { city_id: city }));
      expectJson200(reply, where);
      expectSchema(ForecastsResponse, reply.body, where);
      const data = reply.body.data;
      expectFields(data, { city_id: 'string' }, `${where} data`);
      expect(data.city_id).toBe(city);

      const pro = data.svc_pro_forecast;
      expectFields(pro, { ...FORECAST_MEMBER_FIELDS, ...SVC_PRO_FIELDS }, `${where} svc_pro_forecast`);
      expect(pro.models_used.length, `${where} svc_pro_forecast.models_used`).toBeGreaterThan(0);
      for (const m of pro.models_used) expectFields(m, SVC_PRO_MODEL_FIELDS, `${where} svc_pro_forecast.models_used[]`);
      if (pro.hourly !== undefined) {
        expect(Array.isArray(pro.hourly), `${where} svc_pro_forecast.hourly is an array`).toBe(true);
        for (const p of pro.hourly) expectFields(p, HOURLY_POINT_FIELDS, `${where} svc_pro_forecast.hourly[]`);
      }

      const edge = data.edge_ensemble_daily;
      expectFields(edge, { ...FORECAST_MEMBER_FIELDS, ...EDGE_ENSEMBLE_FIELDS }, `${where} edge_ensemble_daily`);
      expect(edge.models.length, `${where} edge_ensemble_daily.models`).toBeGreaterThan(0);
      for (const m of edge.models) expectFields(m, EDGE_MODEL_FIELDS, `${where} edge_ensemble_daily.models[]`);
      for (const m of edge.models_used) expect(typeof m, `${where} edge_ensemble_daily.models_used[]`).toBe('string');

      const range = data.model_tmax_range;
      expectFields(range, { ...FORECAST_MEMBER_FIELDS, ...MODEL_RANGE_FIELDS }, `${where} model_tmax_range`);
      expect(range.models.length, `${where} model_tmax_range.models`).toBeGreaterThan(0);
      for (const m of range.models) expectFields(m, RANGE_MODEL_FIELDS, `${where} model_tmax_range.models[]`);

      for (const layer of [pro, edge, range]) expect(layer.city_id, `${where} layer city_id`).toBe(city);
    }
  });

  it.each(TABLES)('GET /historical/%s returns rows that match the contract', async (table) => {
    const where = `/historical/${table}`;
    const reply = await svc.get(where);
    expectJson200(reply, where);
    expectSchema(HistoricalResponse, reply.body, where);
    const body = reply.body;
    expectFields(body, { table: 'string', count: 'integer', data: 'array' }, where);
    expect(
      kindMatches(body.next_cursor, 'null') ||
        kindMatches(body.next_cursor, 'string') ||
        kindMatches(body.next_cursor, 'integer'),
      `${where}: next_cursor is null, a string or an integer`,
    ).toBe(true);
    expect(body.table).toBe(table);
    expect(body.data.length, `${where}: the template world has rows`).toBeGreaterThan(0);
    expect(body.count).toBe(body.data.length);
    const rowFields = table === 'forecast_accuracy_daily' ? ACCURACY_ROW_FIELDS : HISTORICAL_ROW_FIELDS;
    body.data.forEach((row: unknown, i: number) => {
      expectSchema(HISTORICAL_ROW[table], row, `${where} data[${i}]`);
      expectFields(row, rowFields, `${where} data[${i}]`);
    });
  });

  describe.each(FAMILIES)('GET /%s', (family) => {
    const schema = strategyResponse(family);

    const checkRecords = (body: Json, where: string) => {
      expectSchema(schema, body, where);
      expectFields(body, { count: 'integer', data: 'array' }, where);
      expect(body.count).toBe(body.data.length);
      body.data.forEach((row: Json, i: number) => {
        expectFields(row, { ...STRATEGY_SHARED_FIELDS, ...STRATEGY_EXTRA_FIELDS[family] }, `${where} data[${i}]`);
        expect(row.side, `${where} data[${i}].side`).toBe(STRATEGY_SIDE[family]);
        expect(row.strategy, `${where} data[${i}].strategy`).toBe(STRATEGY_NAME[family]);
        expect(row.stake, `${where} data[${i}].stake (flat 10 USD)`).toBe(10);
        if (family === 'svc-max-picks') expect(row.mode, `${where} data[${i}].mode`).toBe('paper');
      });
    };

    it('lists records that match the contract', async () => {
      const where = `/${family}`;
      const reply = await svc.get(where);
      expectJson200(reply, where);
      checkRecords(reply.body, where);
      expect(reply.body.data.length, `${where}: the template world has records`).toBeGreaterThan(0);
    });

    it('status=open lists only open records (outcome and roi null) and all of them', async () => {
      const where = `/${family}?status=open`;
      const reply = await svc.get(where);
      expectJson200(reply, where);
      checkRecords(reply.body, where);
      for (const row of reply.body.data) {
        expect(row.outcome, `${where} id ${row.id} outcome`).toBeNull();
        expect(row.roi, `${where} id ${row.id} roi`).toBeNull();
      }
      // the filter neither drops nor invents rows: it is exactly the unfiltered list's open records
      const all = await svc.get(`/${family}?limit=1000`);
      const openIds = all.body.data.filter((r: Json) => r.outcome === null).map((r: Json) => r.id);
      expect(reply.body.data.map((r: Json) => r.id)).toEqual(openIds.slice(0, 100));
    });

    it('status=resolved lists only settled records (win/loss, numeric roi) and all of them', async () => {
      const where = `/${family}?status=resolved`;
      const reply = await svc.get(withQuery(`/${family}`, { status: 'resolved', limit: 1000 }));
      expectJson200(reply, where);
      checkRecords(reply.body, where);
      expect(reply.body.data.length, `${where}: the template world has settled records`).toBeGreaterThan(0);
      for (const row of reply.body.data) {
        expect(['win', 'loss'], `${where} id ${row.id} outcome`).toContain(row.outcome);
        expect(kindMatches(row.roi, 'number'), `${where} id ${row.id} roi is a number: ${row.roi}`).toBe(true);
        // DESIGN.md: roi = (payout - stake) / stake; a share pays 1 USD when it wins, nothing when it loses
        const payout = row.outcome === 'win' ? row.shares : 0;
        expectNear(row.roi, (payout - row.stake) / row.stake, 0.0001, `${where} id ${row.id} roi`);
      }
      const all = await svc.get(`/${family}?limit=1000`);
      const settledIds = all.body.data.filter((r: Json) => r.outcome !== null).map((r: Json) => r.id);
      expect(reply.body.data.map((r: Json) => r.id)).toEqual(settledIds);
    });
  });

  describe('GET /fusion-locks', () => {
    const checkLocks = (body: Json, where: string) => {
      expectSchema(FusionLocksResponse, body, where);
      expectFields(body, { count: 'integer', next_cursor: ['string', 'null'], data: 'array' }, where);
      expect(body.count).toBe(body.data.length);
      body.data.forEach((row: Json, i: number) => {
        expectFields(row, FUSION_LOCK_FIELDS, `${where} data[${i}]`);
      });
    };

    it('lists locks that match the contract', async () => {
      const reply = await svc.get('/fusion-locks');
      expectJson200(reply, '/fusion-locks');
      checkLocks(reply.body, '/fusion-locks');
      expect(reply.body.data.length, 'the template world has locks').toBeGreaterThan(0);
    });

    it('resolved=true lists only settled locks with their outcome populated, and all of them', async () => {
      const where = '/fusion-locks?resolved=true';
      const reply = await svc.get(withQuery('/fusion-locks', { resolved: 'true', limit: 500 }));
      expectJson200(reply, where);
      checkLocks(reply.body, where);
      expect(reply.body.data.length, `${where}: the template world has settled locks`).toBeGreaterThan(0);
      for (const lock of reply.body.data) {
        expect(lock.resolved, `${where} ${lock.id}`).toBe(true);
        // spec section 3: a resolved lock carries actual_tmax_c, hit and pnl_usd
        expect(kindMatches(lock.actual_tmax_f, 'number'), `${where} ${lock.id} actual_tmax_f`).toBe(true);
        expect(kindMatches(lock.actual_tmax_c, 'number'), `${where} ${lock.id} actual_tmax_c`).toBe(true);
        expect(kindMatches(lock.hit, 'boolean'), `${where} ${lock.id} hit`).toBe(true);
        expect(kindMatches(lock.pnl_usd, 'number'), `${where} ${lock.id} pnl_usd`).toBe(true);
      }
      const all = await svc.get('/fusion-locks?limit=500');
      expect(reply.body.data.map((l: Json) => l.id)).toEqual(
        all.body.data.filter((l: Json) => l.resolved === true).map((l: Json) => l.id),
      );
    });

    it('resolved=false lists only unsettled locks (actual_tmax_f null), and all of them', async () => {
      const where = '/fusion-locks?resolved=false';
      const reply = await svc.get(withQuery('/fusion-locks', { resolved: 'false', limit: 500 }));
      expectJson200(reply, where);
      checkLocks(reply.body, where);
      for (const lock of reply.body.data) {
        expect(lock.resolved, `${where} ${lock.id}`).toBe(false);
        expect(lock.actual_tmax_f, `${where} ${lock.id} actual_tmax_f (null until resolved)`).toBeNull();
      }
      const all = await svc.get('/fusion-locks?limit=500');
      expect(reply.body.data.map((l: Json) => l.id)).toEqual(
        all.body.data.filter((l: Json) => l.resolved === false).map((l: Json) => l.id),
      );
    });
  });
});

describe('forecast aliases are the documented conversions of the raw columns', () => {
  const forecastsOf = async (city: string) => {
    const reply = await svc.get(withQuery('/forecasts', { city_id: city }));
    expectJson200(reply, `/forecasts?city_id=${city}`);
    return reply.body.data;
  };

  it('svc_pro_forecast: raw °F, _c with the offset, sigma_c without it, weights summing to 1', async () => {
    expect(cityIds.length).toBeGreaterThan(0);
    for (const city of cityIds) {
      const p = (await forecastsOf(city)).svc_pro_forecast;
      const where = `${city} svc_pro_forecast`;
      expect(p.unit, `${where}.unit`).toBe('F');
      expect(p.hourly_unit, `${where}.hourly_unit`).toBe('C');
      expect(p.predicted_max_f, `${where}.predicted_max_f`).toBe(p.predicted_max);
      expectNear(p.predicted_max_c, fToC(p.predicted_max_f), 0.006, `${where}.predicted_max_c`);
      expect(p.sigma_f, `${where}.sigma_f`).toBe(p.sigma);
      expectNear(p.sigma_c, (p.sigma_f * 5) / 9, 0.006, `${where}.sigma_c (a difference: no offset)`);
      expectNear(sum(p.models_used.map((m: Json) => m.weight)), 1, 0.001, `${where} sum of models_used weights`);
      expect(
        p.models_used.map((m: Json) => m.model),
        `${where}.hottest_model is an ensemble member`,
      ).toContain(p.hottest_model);
    }
  });

  it('edge_ensemble_daily: raw °C, _f with the offset, sigma_f without it, models consistent', async () => {
    for (const city of cityIds) {
      const e = (await forecastsOf(city)).edge_ensemble_daily;
      const where = `${city} edge_ensemble_daily`;
      expect(e.unit, `${where}.unit`).toBe('C');
      expect(e.fc_mean_c, `${where}.fc_mean_c`).toBe(e.fc_mean);
      expectNear(e.fc_mean_f, cToF(e.fc_mean_c), 0.006, `${where}.fc_mean_f`);
      expectNear(e.tmax_mean_c, e.fc_mean_c, 0.006, `${where}.tmax_mean_c (the same ensemble mean)`);
      expectNear(e.tmax_mean_f, cToF(e.tmax_mean_c), 0.006, `${where}.tmax_mean_f`);
      expect(e.sigma_c, `${where}.sigma_c`).toBe(e.sigma);
      expectNear(e.sigma_f, (e.sigma_c * 9) / 5, 0.006, `${where}.sigma_f (a difference: no offset)`);
      expect(e.n_models, `${where}.n_models`).toBe(e.models_used.length);
      expect(
        e.models.map((m: Json) => m.model),
        `${where}.models derive from models_used`,
      ).toEqual(e.models_used);
      expectNear(sum(e.models.map((m: Json) => m.weight)), 1, 0.001, `${where} sum of model weights`);
    }
  });

  it('model_tmax_range: _c from _f, spread = max - min, n_models and min/max from the models list', async () => {
    for (const city of cityIds) {
      const r = (await forecastsOf(city)).model_tmax_range;
      const where = `${city} model_tmax_range`;
      expect(r.unit, `${where}.unit`).toBe('F');
      for (const name of ['tmax_min', 'tmax_max', 'tmax_mean']) {
        expect(r[`${name}_f`], `${where}.${name}_f`).toBe(r[name]);
        expectNear(r[`${name}_c`], fToC(r[`${name}_f`]), 0.006, `${where}.${name}_c`);
      }
      expectNear(r.spread, r.tmax_max - r.tmax_min, 0.051, `${where}.spread`);
      expect(r.spread_f, `${where}.spread_f`).toBe(r.spread);
      expect(r.n_models, `${where}.n_models`).toBe(r.models.length);
      const temps: number[] = r.models.map((m: Json) => m.tmax);
      expect(r.tmax_min, `${where}.tmax_min is the lowest model`).toBe(Math.min(...temps));
      expect(r.tmax_max, `${where}.tmax_max is the highest model`).toBe(Math.max(...temps));
      expectNear(r.tmax_mean, sum(temps) / temps.length, 0.051, `${where}.tmax_mean is the unweighted mean`);
    }
  });
});

describe('sort orders, page sizes and filters', () => {
  it.each(TABLES)('/historical/%s is sorted by id strictly descending', async (table) => {
    const reply = await svc.get(withQuery(`/historical/${table}`, { limit: 1000 }));
    expectJson200(reply, table);
    expect(reply.body.data.length).toBeGreaterThan(1);
    expectIdsStrictlyDescending(reply.body.data, `/historical/${table}`);
  });

  it.each(FAMILIES)('/%s is sorted by id descending', async (family) => {
    const reply = await svc.get(withQuery(`/${family}`, { limit: 1000 }));
    expectJson200(reply, family);
    expect(reply.body.data.length).toBeGreaterThan(1);
    expectIdsStrictlyDescending(reply.body.data, `/${family}`);
  });

  it('/fusion-locks is sorted by (locked_at, id) descending', async () => {
    const reply = await svc.get('/fusion-locks?limit=500');
    expectJson200(reply, '/fusion-locks');
    const locks = reply.body.data;
    expect(locks.length).toBeGreaterThan(1);
    for (let i = 1; i < locks.length; i++) {
      expect(
        lockBefore(locks[i - 1], locks[i]),
        `/fusion-locks: ${locks[i - 1].locked_at}/${locks[i - 1].id} before ${locks[i].locked_at}/${locks[i].id}`,
      ).toBe(true);
    }
  });

  it('the default page size is 100 when more rows exist', async () => {
    const metar = await svc.get('/historical/metar_observations_history');
    expectJson200(metar, 'metar');
    expect(metar.body.count).toBe(100);
    expect(metar.body.data.length).toBe(100);
    expect(metar.body.next_cursor, 'more metar rows exist').not.toBeNull();

    for (const path of [...TABLES.map((t) => `/historical/${t}`), ...FAMILIES.map((f) => `/${f}`), '/fusion-locks']) {
      const max = path === '/fusion-locks' ? 500 : 1000;
      const total = (await svc.get(withQuery(path, { limit: max }))).body.data.length;
      const page = await svc.get(path);
      expectJson200(page, path);
      expect(page.body.data.length, `${path}: default page of ${total} rows`).toBe(Math.min(100, total));
    }
  });

  it('limit is honoured up to the maximum: 1000 on historical and strategies, 500 on fusion-locks', async () => {
    for (const path of [...TABLES.map((t) => `/historical/${t}`), ...FAMILIES.map((f) => `/${f}`)]) {
      const big = await svc.get(withQuery(path, { limit: 1000 }));
      expectJson200(big, `${path}?limit=1000`);
      expect(big.body.data.length).toBeLessThanOrEqual(1000);
      const small = await svc.get(withQuery(path, { limit: 3 }));
      expectJson200(small, `${path}?limit=3`);
      expect(small.body.data.length, `${path}?limit=3`).toBe(3);
      const tooBig = await svc.get(withQuery(path, { limit: 1001 }));
      expect(expectError(tooBig, 400, `${path}?limit=1001`)).toContain('limit');
    }
    const metar = await svc.get('/historical/metar_observations_history?limit=1000');
    expect(metar.body.data.length, 'metar has more than 1000 rows: a full page').toBe(1000);

    const locks = await svc.get('/fusion-locks?limit=500');
    expectJson200(locks, '/fusion-locks?limit=500');
    expect(locks.body.data.length).toBeLessThanOrEqual(500);
    const fewLocks = await svc.get('/fusion-locks?limit=3');
    expect(fewLocks.body.data.length).toBe(3);
    expect(expectError(await svc.get('/fusion-locks?limit=501'), 400, '/fusion-locks?limit=501')).toContain('limit');
  });

  it('the historical cursor is the last id of the page, and following it continues the list without gaps', async () => {
    const path = '/historical/wxa_history';
    const whole = (await svc.get(withQuery(path, { limit: 21 }))).body.data.map((r: Json) => r.id);
    const seen: number[] = [];
    let cursor: unknown;
    for (let page = 0; page < 3; page++) {
      const params: Record<string, string | number> = { limit: 7 };
      if (cursor !== undefined) params.cursor = String(cursor);
      const reply = await svc.get(withQuery(path, params));
      expectJson200(reply, `${path} page ${page}`);
      const ids = reply.body.data.map((r: Json) => r.id);
      expect(reply.body.next_cursor, 'next_cursor is the last id, as an integer').toBe(ids[ids.length - 1]);
      seen.push(...ids);
      cursor = reply.body.next_cursor;
    }
    expect(seen).toEqual(whole);

    const lastPage = await svc.get('/historical/forecast_accuracy_daily?limit=1000');
    expect(lastPage.body.data.length).toBeLessThan(1000);
    expect(lastPage.body.next_cursor, 'no further pages').toBeNull();
  });

  it('the fusion-lock cursor continues the list without gaps or repeats, and is null on the last page', async () => {
    const whole = (await svc.get('/fusion-locks?limit=21')).body.data.map((l: Json) => l.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 3; page++) {
      const params: Record<string, string | number> = { limit: 7 };
      if (cursor !== undefined) params.cursor = cursor;
      const reply = await svc.get(withQuery('/fusion-locks', params));
      expectJson200(reply, `/fusion-locks page ${page}`);
      expect(typeof reply.body.next_cursor, 'next_cursor while more rows exist').toBe('string');
      seen.push(...reply.body.data.map((l: Json) => l.id));
      cursor = reply.body.next_cursor;
    }
    expect(seen).toEqual(whole);
    const all = await svc.get('/fusion-locks?limit=500');
    expect(all.body.data.length).toBeLessThan(500);
    expect(all.body.next_cursor).toBeNull();
  });

  it.each(TABLES)(
    '/historical/%s: city_id, since and until filter (inclusive) on the documented column',
    async (table) => {
      const path = `/historical/${table}`;
      const column = TIME_COLUMN[table];
      const sample = (await svc.get(withQuery(path, { limit: 200 }))).body.data;
      const pivot = middle(sample);
      const t: string = pivot[column];
      expect(typeof t, `${table}.${column} exists`).toBe('string');

      const byCity = await svc.get(withQuery(path, { city_id: pivot.city_id, limit: 1000 }));
      expectJson200(byCity, `${path}?city_id`);
      expect(byCity.body.data.length).toBeGreaterThan(0);
      for (const row of byCity.body.data) expect(row.city_id, `${path}?city_id=${pivot.city_id}`).toBe(pivot.city_id);

      const since = await svc.get(withQuery(path, { since: t, limit: 1000 }));
      expectJson200(since, `${path}?since=${t}`);
      expect(since.body.data.length).toBeGreaterThan(0);
      for (const row of since.body.data) expect(row[column] >= t, `${path}?since=${t}: ${row[column]}`).toBe(true);

      const until = await svc.get(withQuery(path, { until: t, limit: 1000 }));
      expectJson200(until, `${path}?until=${t}`);
      expect(until.body.data.length).toBeGreaterThan(0);
      for (const row of until.body.data) expect(row[column] <= t, `${path}?until=${t}: ${row[column]}`).toBe(true);

      const exact = await svc.get(withQuery(path, { since: t, until: t, city_id: pivot.city_id, limit: 1000 }));
      expectJson200(exact, `${path}?since=until=${t}`);
      for (const row of exact.body.data) {
        expect(row[column], `${path}?since=until=${t}`).toBe(t);
        expect(row.city_id).toBe(pivot.city_id);
      }
      expect(
        exact.body.data.map((r: Json) => r.id),
        'both bounds are inclusive',
      ).toContain(pivot.id);
    },
  );

  it('a date-only since/until on an instant column covers that whole UTC day', async () => {
    const path = '/historical/metar_observations_history';
    const pivot = middle((await svc.get(withQuery(path, { limit: 1000 }))).body.data);
    const day = String(pivot.observed_at).slice(0, 10);
    const reply = await svc.get(withQuery(path, { since: day, until: day, limit: 1000 }));
    expectJson200(reply, `${path}?since=until=${day}`);
    expect(reply.body.data.length).toBeGreaterThan(0);
    for (const row of reply.body.data) expect(String(row.observed_at).slice(0, 10), `${path} ${row.id}`).toBe(day);
    expect(reply.body.data.map((r: Json) => r.id)).toContain(pivot.id);
  });

  it.each(FAMILIES)('/%s: city_id, date and status filter, alone and together', async (family) => {
    const path = `/${family}`;
    const rows = (await svc.get(withQuery(path, { limit: 1000 }))).body.data;
    const pivot = middle(rows);

    const byCity = await svc.get(withQuery(path, { city_id: pivot.city_id, limit: 1000 }));
    expectJson200(byCity, `${path}?city_id`);
    expect(byCity.body.data.length).toBeGreaterThan(0);
    for (const row of byCity.body.data) expect(row.city_id, `${path}?city_id`).toBe(pivot.city_id);
    expect(byCity.body.data.length).toBe(rows.filter((r: Json) => r.city_id === pivot.city_id).length);

    const byDate = await svc.get(withQuery(path, { date: pivot.local_date, limit: 1000 }));
    expectJson200(byDate, `${path}?date`);
    expect(byDate.body.data.length).toBeGreaterThan(0);
    for (const row of byDate.body.data) expect(row.local_date, `${path}?date`).toBe(pivot.local_date);
    expect(byDate.body.data.length).toBe(rows.filter((r: Json) => r.local_date === pivot.local_date).length);

    const both = await svc.get(withQuery(path, { city_id: pivot.city_id, date: pivot.local_date }));
    expectJson200(both, `${path}?city_id&date`);
    expect(both.body.data.map((r: Json) => r.id)).toContain(pivot.id);
    for (const row of both.body.data) {
      expect([row.city_id, row.local_date]).toEqual([pivot.city_id, pivot.local_date]);
    }

    const status = pivot.outcome === null ? 'open' : 'resolved';
    const withStatus = await svc.get(withQuery(path, { city_id: pivot.city_id, status, limit: 1000 }));
    expectJson200(withStatus, `${path}?city_id&status`);
    expect(withStatus.body.data.map((r: Json) => r.id)).toContain(pivot.id);
    for (const row of withStatus.body.data) {
      expect(row.city_id).toBe(pivot.city_id);
      expect(row.outcome === null, `${path}?status=${status} id ${row.id}`).toBe(status === 'open');
    }
  });

  it('/fusion-locks: city_id, since and resolved filter', async () => {
    const locks = (await svc.get('/fusion-locks?limit=500')).body.data;
    const pivot = middle(locks);

    const byCity = await svc.get(withQuery('/fusion-locks', { city_id: pivot.city_id, limit: 500 }));
    expectJson200(byCity, '/fusion-locks?city_id');
    expect(byCity.body.data.length).toBe(locks.filter((l: Json) => l.city_id === pivot.city_id).length);
    for (const lock of byCity.body.data) expect(lock.city_id).toBe(pivot.city_id);

    const since = await svc.get(withQuery('/fusion-locks', { since: pivot.locked_at, limit: 500 }));
    expectJson200(since, '/fusion-locks?since');
    for (const lock of since.body.data) {
      expect(lock.locked_at >= pivot.locked_at, `since=${pivot.locked_at}: ${lock.locked_at}`).toBe(true);
    }
    expect(
      since.body.data.map((l: Json) => l.id),
      'since is inclusive',
    ).toContain(pivot.id);
    expect(since.body.data.length).toBe(locks.filter((l: Json) => l.locked_at >= pivot.locked_at).length);

    const combined = await svc.get(
      withQuery('/fusion-locks', { city_id: pivot.city_id, since: pivot.locked_at, resolved: String(pivot.resolved) }),
    );
    expectJson200(combined, '/fusion-locks?city_id&since&resolved');
    expect(combined.body.data.map((l: Json) => l.id)).toContain(pivot.id);
    for (const lock of combined.body.data) {
      expect([lock.city_id, lock.locked_at >= pivot.locked_at, lock.resolved]).toEqual([
        pivot.city_id,
        true,
        pivot.resolved,
      ]);
    }
  });

  it('an unknown city_id as a filter gives 200 with empty data on every list endpoint', async () => {
    const paths = [...TABLES.map((t) => `/historical/${t}`), ...FAMILIES.map((f) => `/${f}`), '/fusion-locks'];
    for (const path of paths) {
      const reply = await svc.get(withQuery(path, { city_id: 'atlantis' }));
      expectJson200(reply, `${path}?city_id=atlantis`);
      expect(reply.body.data, `${path}?city_id=atlantis`).toEqual([]);
      expect(reply.body.count, `${path}?city_id=atlantis`).toBe(0);
      if ('next_cursor' in reply.body) expect(reply.body.next_cursor).toBeNull();
    }
  });
});

describe('authentication', () => {
  it('accepts the key as X-API-Key, as Authorization: Bearer, and as api_key=', async () => {
    expectJson200(await svc.get('/cities', { headers: { 'X-API-Key': TEST_KEY } }), 'X-API-Key');
    expectJson200(await svc.get('/cities', { headers: { Authorization: `Bearer ${TEST_KEY}` } }), 'Bearer');
    expectJson200(await svc.get(withQuery('/cities', { api_key: TEST_KEY })), 'api_key=');
    expectJson200(await svc.get(withQuery('/no24', { limit: 2, api_key: TEST_KEY })), 'api_key= beside filters');
  });

  it('answers 401 {error} when no key is sent', async () => {
    for (const path of ['/cities', '/no24', '/historical/wxa_history', '/fusion-locks', '/current?city_id=nyc']) {
      expectError(await getWithoutKey(path), 401, `${path} without a key`);
    }
  });

  it('answers 401 {error} for a wrong key sent in each of the three ways', async () => {
    const wrong = 'not-the-key-0000';
    expectError(await getWithoutKey('/cities', { headers: { 'X-API-Key': wrong } }), 401, 'wrong X-API-Key');
    expectError(
      await getWithoutKey('/cities', { headers: { Authorization: `Bearer ${wrong}` } }),
      401,
      'wrong Bearer token',
    );
    expectError(await getWithoutKey(withQuery('/cities', { api_key: wrong })), 401, 'wrong api_key=');
  });
});

describe('error statuses (DESIGN.md section 4)', () => {
  /** A bad parameter is a 400 whose message names it. */
  const expectBadParameter = async (path: string, ...named: string[]) => {
    const message = expectError(await svc.get(path), 400, path);
    for (const name of named) expect(message, `${path}: the message names '${name}'`).toContain(name);
  };

  it('400 for a limit that is 0, not a number, or not an integer, on every list endpoint', async () => {
    const paths = ['/historical/wxa_history', '/historical/forecast_accuracy_daily', ...FAMILIES.map((f) => `/${f}`)];
    for (const path of [...paths, '/fusion-locks']) {
      for (const limit of ['0', 'abc', '1.5', '-3']) await expectBadParameter(withQuery(path, { limit }), 'limit');
    }
  });

  it('400 for a date that is not a real date', async () => {
    for (const family of FAMILIES) await expectBadParameter(`/${family}?date=2026-02-30`, 'date');
    await expectBadParameter('/no24?date=21-11-2026', 'date');
    await expectBadParameter('/historical/wxa_history?since=2026-02-30', 'since');
    await expectBadParameter('/historical/wxa_history?until=2026-02-30', 'until');
    await expectBadParameter('/historical/forecast_accuracy_daily?since=2026-02-30', 'since');
    await expectBadParameter(withQuery('/historical/wxa_history', { since: '2026-02-30T10:00:00Z' }), 'since');
    await expectBadParameter(withQuery('/fusion-locks', { since: '2026-02-30T10:00:00Z' }), 'since');
    await expectBadParameter('/fusion-locks?since=yesterday', 'since');
    // an instant without an offset, a year-month: the contract's pattern refuses them (the monitor reads the first
    // as UTC, domain/time-bounds.ts; the service asks for the offset)
    await expectBadParameter(withQuery('/historical/wxa_history', { since: '2026-11-20T00:00' }), 'since');
    await expectBadParameter('/historical/forecast_accuracy_daily?since=2026-11', 'since');
    await expectBadParameter(withQuery('/fusion-locks', { since: '2026-11-20T00:00' }), 'since');
  });

  it('400 when since is after until', async () => {
    await expectBadParameter('/historical/wxa_history?since=2026-11-20&until=2026-11-10', 'since', 'until');
    await expectBadParameter(
      withQuery('/historical/metar_observations_history', {
        since: '2026-11-20T10:00:00Z',
        until: '2026-11-20T09:59:59Z',
      }),
      'since',
      'until',
    );
    await expectBadParameter('/historical/forecast_accuracy_daily?since=2026-11-20&until=2026-11-19', 'since', 'until');
  });

  it('400 for a status or resolved value that is not allowed', async () => {
    for (const family of FAMILIES) {
      await expectBadParameter(`/${family}?status=pending`, 'status');
      await expectBadParameter(`/${family}?status=OPEN`, 'status');
    }
    await expectBadParameter('/fusion-locks?resolved=yes', 'resolved');
    await expectBadParameter('/fusion-locks?resolved=1', 'resolved');
  });

  it('400 for a historical cursor that is not an id', async () => {
    for (const cursor of ['abc', '0', '-5', '1.5', 'eyJpZCI6MX0']) {
      await expectBadParameter(withQuery('/historical/wxa_history', { cursor }), 'cursor');
    }
  });

  it('400 for a fusion-lock cursor the service did not issue', async () => {
    const forged = [
      randomBytes(24).toString('base64url'),
      Buffer.from(JSON.stringify({ locked_at: '2026-11-20T00:00:00Z', id: 'x' })).toString('base64url'),
      Buffer.from(JSON.stringify(['yesterday', 'fl-x'])).toString('base64url'),
      'not a cursor!',
    ];
    for (const cursor of forged) await expectBadParameter(withQuery('/fusion-locks', { cursor }), 'cursor');
  });

  it('400 naming city_id when /current or /forecasts is called without it', async () => {
    await expectBadParameter('/current', 'city_id');
    await expectBadParameter('/forecasts', 'city_id');
  });

  it('404 {error} for an unknown route', async () => {
    // the method and the path as asked, prefix included
    expect(expectError(await svc.get('/nope'), 404, '/nope')).toBe('no such route: GET /api/public/v1/nope');
    expect(expectError(await svc.get('/cities/extra', { method: 'DELETE' }), 404, '/cities/extra')).toBe(
      'no such route: DELETE /api/public/v1/cities/extra',
    );
    const outside = await fetch(`${svc.baseUrl.replace('/api/public/v1', '/api/public/v2')}/cities`, {
      headers: { 'X-API-Key': TEST_KEY },
    });
    expect(outside.status, '/api/public/v2/cities').toBe(404);
    expect(Object.keys((await outside.json()) as Json)).toEqual(['error']);
  });

  it('404 {error} for an unknown historical table, naming every allowed table', async () => {
    const message = expectError(await svc.get('/historical/secret_table'), 404, '/historical/secret_table');
    for (const table of TABLES) expect(message, `the message names ${table}`).toContain(table);
  });

  it('404 {error} for an unknown city on /current and /forecasts', async () => {
    expectError(await svc.get('/current?city_id=atlantis'), 404, '/current?city_id=atlantis');
    expectError(await svc.get('/forecasts?city_id=atlantis'), 404, '/forecasts?city_id=atlantis');
  });

  it('405 with Allow: GET for every other method on a known route', async () => {
    const routes = ['/cities', '/current?city_id=nyc', '/historical/wxa_history', '/no24', '/fusion-locks'];
    for (const route of routes) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD']) {
        const reply = await svc.get(route, { method });
        const where = `${method} ${route}`;
        expect(reply.status, where).toBe(405);
        expect(reply.headers.get('allow'), `${where}: Allow`).toBe('GET');
        if (method === 'HEAD') expect(reply.text, `${where}: HEAD has no body`).toBe('');
        else expectError(reply, 405, where);
      }
    }
    // before the key is checked: without one, a POST is still told its method is wrong (405, not 401)
    const keyless = await fetch(`${svc.baseUrl}/cities`, { method: 'POST' });
    expect([keyless.status, keyless.headers.get('allow')]).toEqual([405, 'GET']);
  });
});

describe('rate limit', () => {
  let limited: TestService;

  beforeAll(async () => {
    limited = await startTestService({ rateLimitPerMinute: 3 });
  });

  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 {error} with a numeric Retry-After once the budget is spent', async () => {
    for (let i = 0; i < 3; i++) expectJson200(await limited.get('/cities'), `request ${i + 1} of 3`);
    const reply = await limited.get('/cities');
    expectError(reply, 429, 'request 4 of 3');
    const retryAfter = reply.headers.get('retry-after') ?? '';
    expect(retryAfter, 'Retry-After is a whole number of seconds').toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(reply.headers.get('access-control-allow-origin'), 'CORS on a 429').toBe('*');
  });
});

describe('store failure', () => {
  it('answers 500 {error: "internal error"} without a stack trace when the store is gone', async () => {
    const broken = await startTestService();
    try {
      broken.service.db.close();
      // the server itself is still up: what needs no store (routing, CORS preflight) still answers
      expectError(await broken.get('/nope'), 404, 'unknown route with a closed store');
      const preflight = await fetch(`${broken.baseUrl}/no24`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://example.test', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.status, 'preflight with a closed store').toBe(204);
      // every keyed request fails: the key is verified against the store on each request (so that a revocation
      // takes effect at once), so even the static /cities is a 500, and never a misleading 401
      const paths = ['/cities', '/no24', '/historical/wxa_history', '/fusion-locks', '/current?city_id=nyc'];
      for (const path of paths) {
        const reply = await broken.get(path);
        expectError(reply, 500, `${path} with a closed store`);
        expect(reply.body, path).toEqual({ error: 'internal error' });
        expect(reply.text, `${path}: no stack trace or internals`).not.toMatch(/\bat |\.ts|\.js|sqlite|database/i);
        expect(reply.headers.get('access-control-allow-origin'), `${path}: CORS on a 500`).toBe('*');
      }
    } finally {
      try {
        await broken.close();
      } catch {
        // its close() closes the store a second time; the server itself is already down by then
      }
      rmSync(dirname(broken.dataDir), { recursive: true, force: true });
    }
  });
});

describe('CORS', () => {
  it('sends Access-Control-Allow-Origin: * on a 200, 401, 404, 400 and 405', async () => {
    const answers: [string, Reply][] = [
      ['200', await svc.get('/cities')],
      ['401', await getWithoutKey('/cities')],
      ['404', await svc.get('/nope')],
      ['404 table', await svc.get('/historical/nope')],
      ['400', await svc.get('/no24?limit=0')],
      ['405', await svc.get('/cities', { method: 'POST' })],
      ['200 with Origin', await svc.get('/cities', { headers: { Origin: 'https://example.test' } })],
    ];
    for (const [what, reply] of answers) {
      expect(reply.status, what).toBe(Number(what.slice(0, 3)));
      expect(reply.headers.get('access-control-allow-origin'), `${what}: allow-origin`).toBe('*');
    }
  });

  it('answers a preflight without a key, allowing GET only and the X-API-Key and Authorization headers', async () => {
    for (const path of ['/cities', '/historical/wxa_history', '/fusion-locks']) {
      const reply = await getWithoutKey(path, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://example.test',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'X-API-Key',
        },
      });
      const where = `OPTIONS ${path}`;
      expect(reply.status, `${where}: status`).toBeGreaterThanOrEqual(200);
      expect(reply.status, `${where}: status`).toBeLessThan(300);
      expect(reply.headers.get('access-control-allow-origin'), `${where}: allow-origin`).toBe('*');
      const methods = (reply.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
      expect(methods, `${where}: allow-methods`).toEqual(['GET']);
      const headers = (reply.headers.get('access-control-allow-headers') ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase());
      expect(headers, `${where}: allow-headers`).toContain('x-api-key');
      expect(headers, `${where}: allow-headers`).toContain('authorization');
    }
  });
});
