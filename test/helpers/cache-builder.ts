import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { rejectedWebhookAlert } from '../../src/alerts/rejected-webhook-alert.js';
import { type Cache, type IntakeOutcome, openCache } from '../../src/cache/index.js';
import { City } from '../../src/contract/cities.js';
import type { MarketUnit } from '../../src/contract/common.js';
import { CurrentObservations } from '../../src/contract/current.js';
import {
  EdgeEvent,
  type InsuranceEvent,
  InsuranceEvent as InsuranceEventSchema,
  type InsuranceLeg,
  TestEvent,
  type WebhookEvent,
} from '../../src/contract/events.js';
import { Forecasts } from '../../src/contract/forecasts.js';
import { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalRow, HistoricalTable } from '../../src/contract/historical.js';
import {
  No24Record,
  STRATEGY_RECORD,
  type StrategyFamily,
  type StrategyRecord,
  SvcMaxPickRecord,
  YescoreRecord,
} from '../../src/contract/strategies.js';
import { replayKey } from '../../src/receiver/identity.js';
import { HISTORICAL_ROW } from '../server/historical-row-schemas.js';
import { insuranceEvent, leg } from './webhook-events.js';

/**
 * Caches written by hand, through the cache's own repositories, so a test of the monitor knows every row it reads
 * and works its expectations out on paper: no value comes from the simulated world. Every row is checked against
 * `src/contract/` as it is made (what the sync or the listener would have accepted), so a hand-built row cannot
 * hold what a real service never sends.
 */

const checks = new Map<TSchema, ReturnType<typeof Compile>>();
/** `value` if it matches `schema`; otherwise an error naming the first field that does not. */
export function checked<T>(schema: TSchema, value: T, what: string): T {
  let check = checks.get(schema);
  if (!check) {
    check = Compile(schema);
    checks.set(schema, check);
  }
  if (!check.Check(value)) {
    const [first] = check.Errors(value);
    throw new Error(`hand-built ${what}: ${first?.instancePath || '/'} ${first?.message ?? 'is not in the contract'}`);
  }
  return value;
}

/** °C to °F to a tenth, as the service writes its _f aliases. */
export const cToF = (c: number): number => Math.round(((c * 9) / 5 + 32) * 10) / 10;

// --- cities ---------------------------------------------------------------------------------------------------

export function city(city_id: string, tz: string, country: string, icao: string, city_name = city_id): City {
  return checked(City, { city_id, city_name, country, lat: 0, lon: 0, tz, icao, station_name: icao }, 'city');
}
/** In November: New York is UTC-5, London UTC, Paris, Berlin and Rome UTC+1. US and UK markets are °F, EU °C. */
export const NYC = city('nyc', 'America/New_York', 'US', 'KLGA', 'New York City');
export const LONDON = city('london', 'Europe/London', 'GB', 'EGLC', 'London');
export const PARIS = city('paris', 'Europe/Paris', 'FR', 'LFPG', 'Paris');
export const BERLIN = city('berlin', 'Europe/Berlin', 'DE', 'EDDB', 'Berlin');
export const ROME = city('rome', 'Europe/Rome', 'IT', 'LIRF', 'Rome');

// --- resources ------------------------------------------------------------------------------------------------

export interface HandForecast {
  mu_c: number;
  sigma_c: number;
  /** fetched_at of the three layers */
  at: string;
  /** the warmest model's Tmax (°C); the coolest is 2 °C below it. Default mu_c + 1. */
  tmax_max_c?: number;
}

/** `/forecasts` of a city-day: the desk's N(mu_c, sigma_c) in both units, two models 2 °C apart. */
export function forecasts(city_id: string, local_date: string, f: HandForecast): Forecasts {
  const top = f.tmax_max_c ?? f.mu_c + 1;
  const sigma_f = Math.round(f.sigma_c * 1.8 * 100) / 100;
  return checked(
    Forecasts,
    {
      city_id,
      svc_pro_forecast: {
        city_id,
        local_date,
        station_code: 'XXXX',
        unit: 'F',
        predicted_max: cToF(f.mu_c),
        predicted_max_f: cToF(f.mu_c),
        predicted_max_c: f.mu_c,
        sigma: sigma_f,
        sigma_f,
        sigma_c: f.sigma_c,
        pacing_delta: 0,
        pacing_source: 'none',
        hottest_model: 'icon',
        models_used: [
          { model: 'gfs', weight: 0.5, mae: 1 },
          { model: 'icon', weight: 0.5, mae: 1 },
        ],
        hourly_unit: 'C',
        reasoning: 'hand-built',
        fetched_at: f.at,
      },
      edge_ensemble_daily: {
        city_id,
        local_date,
        unit: 'C',
        fc_mean: f.mu_c,
        fc_mean_c: f.mu_c,
        fc_mean_f: cToF(f.mu_c),
        tmax_mean_c: f.mu_c,
        tmax_mean_f: cToF(f.mu_c),
        sigma: f.sigma_c,
        sigma_c: f.sigma_c,
        sigma_f,
        models: [
          { model: 'gfs', weight: 0.5 },
          { model: 'icon', weight: 0.5 },
        ],
        models_used: ['gfs', 'icon'],
        n_models: 2,
        fetched_at: f.at,
      },
      model_tmax_range: {
        city_id,
        local_date,
        station_code: 'XXXX',
        unit: 'F',
        tmax_min: cToF(top - 2),
        tmax_min_f: cToF(top - 2),
        tmax_min_c: top - 2,
        tmax_max: cToF(top),
        tmax_max_f: cToF(top),
        tmax_max_c: top,
        tmax_mean: cToF(top - 1),
        tmax_mean_f: cToF(top - 1),
        tmax_mean_c: top - 1,
        spread: 3.6,
        spread_f: 3.6,
        n_models: 2,
        models: [
          { model: 'gfs', tmax: cToF(top - 2) },
          { model: 'icon', tmax: cToF(top) },
        ],
        fetched_at: f.at,
      },
    },
    'forecasts',
  );
}

/** `/current` of a city: the four sources read `temp_c` (°F to a tenth) at one instant. */
export function current(city_id: string, at: string, temp_c: number): CurrentObservations {
  const source = { temp_f: cToF(temp_c), temp_c, fetched_at: at, observed_at: at };
  return checked(
    CurrentObservations,
    {
      city_id,
      wxa_current: source,
      wxb_current: source,
      metar_observations: { ...source, station_code: 'XXXX', raw: 'METAR' },
      pws_observations: source,
    },
    'current',
  );
}

const historical = (table: HistoricalTable, row: Record<string, unknown>): HistoricalRow =>
  checked(HISTORICAL_ROW[table], row, table) as HistoricalRow;

/** A METAR report: whole °C, °F to a tenth. */
export const metar = (id: number, city_id: string, local_date: string, at: string, temp_c: number): HistoricalRow =>
  historical('metar_observations_history', {
    id,
    city_id,
    local_date,
    station_code: 'XXXX',
    observed_at: at,
    fetched_at: at,
    temp_c,
    temp_f: cToF(temp_c),
    raw: `METAR ${temp_c}`,
  });

/** A bucket's slug as the venues make it from its label: `50-51°F` -> `50-51f`, `14°C or higher` -> `14c-or-higher`. */
export const slugOf = (label: string): string => label.toLowerCase().replace('°', '').replaceAll(' ', '-');

/** One bucket of a venue's snapshot. */
export function quote(
  id: number,
  city_id: string,
  local_date: string,
  at: string,
  label: string,
  yes: number,
  no: number,
): HistoricalRow {
  return historical('mkta_buckets_history', {
    id,
    city_id,
    local_date,
    event_slug: `${city_id}-${local_date}`,
    snapshot_at: at,
    bucket_slug: slugOf(label),
    bucket_label: label,
    yes_price: yes,
    no_price: no,
  });
}

/** A day's forecast score: the desk's high against the settled one, in the market's unit. */
export function forecastScore(
  id: number,
  city_id: string,
  local_date: string,
  unit: MarketUnit,
  predicted: number,
  actual: number,
): HistoricalRow {
  const error = Math.abs(actual - predicted);
  return historical('forecast_accuracy_daily', {
    id,
    city_id,
    local_date,
    unit,
    predicted_max: predicted,
    actual_max: actual,
    abs_error: error,
    abs_error_c: unit === 'C' ? error : Math.round((error / 1.8) * 100) / 100,
  });
}

/**
 * A row of any historical table, every field the contract names filled with plain values, its time column (DESIGN
 * 4) at `at` (or `at`'s UTC date for the daily tables): for tests of the cache's writes and reads, not of a pane.
 */
export function historicalRow(table: HistoricalTable, id: number, city_id: string, at: string): HistoricalRow {
  const local_date = at.slice(0, 10);
  const base = { id, city_id, local_date };
  const reading = { observed_at: at, fetched_at: at, temp_c: 10, temp_f: 50 };
  const bucket = { event_slug: `${city_id}-${local_date}`, bucket_slug: '50-51f', bucket_label: '50-51°F' };
  const rows: Record<HistoricalTable, Record<string, unknown>> = {
    metar_observations_history: { ...base, ...reading, station_code: 'XXXX', raw: 'METAR' },
    wxa_history: { ...base, ...reading, humidity: 60 },
    wxb_history: { ...base, ...reading, humidity: 60 },
    pws_observations_history: { ...base, ...reading, station_code: 'XXXX' },
    forecast_history: {
      ...base,
      fetched_at: at,
      predicted_max_f: 50,
      predicted_max_c: 10,
      sigma_f: 1.8,
      sigma_c: 1,
      pacing_delta: 0,
      hottest_model: 'gfs',
    },
    mkta_buckets_history: { ...base, ...bucket, snapshot_at: at, yes_price: 0.4, no_price: 0.62 },
    mktb_buckets_history: { ...base, ...bucket, snapshot_at: at, yes_price: 0.4, no_price: 0.62 },
    forecast_accuracy_daily: { ...base, unit: 'F', predicted_max: 50, actual_max: 51, abs_error: 1, abs_error_c: 0.56 },
    market_brief_daily: {
      ...base,
      event_slug: bucket.event_slug,
      unit: 'F',
      predicted_max: 50,
      sigma: 1.8,
      favourite_bucket_slug: bucket.bucket_slug,
      favourite_bucket_label: bucket.bucket_label,
      favourite_price: 0.4,
      brief: 'hand-built',
    },
    edge_resolved: {
      ...base,
      ...bucket,
      engine_trade_id: id,
      side: 'NO',
      entry_price: 0.6,
      exit_price: 1,
      qty: 10,
      operation: 'SETTLE',
      pnl_usd: 4,
      entered_at: at,
      resolved_at: at,
    },
    model_forecasts_daily: {
      ...base,
      model: 'gfs',
      unit: 'F',
      predicted_max_c: 10,
      predicted_max_f: 50,
      predicted_bucket_slug: bucket.bucket_slug,
      actual_max_c: 10,
      actual_max_f: 50,
      actual_bucket_slug: bucket.bucket_slug,
      exact_hit: true,
    },
  };
  return historical(table, rows[table]);
}

// --- strategy records and locks ---------------------------------------------------------------------------------

/** What a test says of a record; the rest is filler the panes do not show. Open unless `outcome` is given. */
export interface HandRecord {
  id: number;
  city_id: string;
  local_date: string;
  bucket_label: string;
  shares: number;
  /** entry price of the record's side: no_ask (no24), yes_ask (yescore, svc-max-picks) */
  ask: number;
  /** the service's own mark of the side (no24, yescore); default: the ask */
  mark?: number;
  /** default shares x ask, to the cent */
  stake?: number;
  outcome?: 'win' | 'loss';
  roi?: number;
}

function shared(r: HandRecord) {
  return {
    id: r.id,
    city_id: r.city_id,
    local_date: r.local_date,
    bucket_slug: slugOf(r.bucket_label),
    bucket_label: r.bucket_label,
    stake: r.stake ?? Math.round(r.shares * r.ask * 100) / 100,
    shares: r.shares,
    outcome: r.outcome ?? null,
    roi: r.outcome ? (r.roi ?? (r.outcome === 'win' ? 1 : -1)) : null,
  };
}

export const no24 = (r: HandRecord) =>
  checked(
    No24Record,
    {
      ...shared(r),
      side: 'NO' as const,
      strategy: 'no24' as const,
      model: 'svc_pro',
      model_exact_pct: 0.3,
      predicted_max_c: 10,
      predicted_max_f: 50,
      no_ask: r.ask,
      current_no_price: r.mark ?? r.ask,
    },
    'no24 record',
  );

export const yescore = (r: HandRecord) =>
  checked(
    YescoreRecord,
    {
      ...shared(r),
      side: 'YES' as const,
      strategy: 'yescore' as const,
      model: 'svc_pro',
      model_exact_pct: 0.4,
      predicted_max_c: 10,
      corrected_max_c: 10,
      bias_c: 0,
      yes_ask: r.ask,
      edge: 0.05,
      current_yes_price: r.mark ?? r.ask,
    },
    'yescore record',
  );

export const svcMaxPick = (r: HandRecord & { entry_hour: number }) =>
  checked(
    SvcMaxPickRecord,
    {
      ...shared(r),
      side: 'YES' as const,
      strategy: 'svc_max_11' as const,
      entry_hour: r.entry_hour,
      mu_c: 10,
      sigma_c: 1,
      n_models: 2,
      model_prob: 0.4,
      yes_ask: r.ask,
      edge: 0.1,
      mode: 'paper' as const,
    },
    'svc-max pick',
  );

export interface HandLock {
  id: string;
  city_id: string;
  local_date: string;
  peak_hour?: number;
  locked_at: string;
  bucket_label: string;
  yes_price: number;
  tokens: number;
  /** settled: whether the bucket won, and at what high (°C) */
  hit?: boolean;
  actual_c?: number;
}

/** A fusion lock; resolved when `hit` is given: a hit pays 1 a token, a miss nothing. */
export function fusionLock(l: HandLock): FusionLock {
  const resolved = l.hit !== undefined;
  const stake = Math.round(l.yes_price * l.tokens * 100) / 100;
  const payout = l.hit ? l.tokens : 0;
  return checked(
    FusionLock,
    {
      id: l.id,
      city_id: l.city_id,
      local_date: l.local_date,
      peak_hour: l.peak_hour ?? 15,
      locked_at: l.locked_at,
      bucket_slug: slugOf(l.bucket_label),
      bucket_label: l.bucket_label,
      event_slug: `${l.city_id}-${l.local_date}`,
      yes_price: l.yes_price,
      tokens: l.tokens,
      resolved,
      actual_tmax_f: resolved ? cToF(l.actual_c ?? 0) : null,
      actual_tmax_c: resolved ? (l.actual_c ?? 0) : null,
      hit: resolved ? (l.hit ?? false) : null,
      payout_usd: resolved ? payout : null,
      pnl_usd: resolved ? Math.round((payout - stake) * 100) / 100 : null,
    },
    'fusion lock',
  );
}

// --- webhook events -------------------------------------------------------------------------------------------

/** A leg on a whole-°C bucket (`12°C`), as the engine sends them for EU markets. */
export const cLeg = (name: InsuranceLeg['leg'], degree: number, over: Partial<InsuranceLeg> = {}): InsuranceLeg =>
  leg(name, degree, {
    bucket_slug: `${degree}c`,
    bucket_label: `${degree}°C`,
    bucket_low: degree,
    bucket_high: degree,
    ...over,
  });

export interface HandPick {
  pickId: string;
  city: City;
  date: string;
  at: string;
  legs: InsuranceLeg[];
  parent?: string;
  reason?: string;
}

/** An insurance event of a pick (created, addon, killed) on the city's own zone and unit. */
export function pickEvent(type: InsuranceEvent['event_type'], p: HandPick): InsuranceEvent {
  const event = insuranceEvent(type, {
    pickId: p.pickId,
    parentPickId: p.parent ?? null,
    city: p.city.city_id,
    marketDate: p.date,
    createdAt: p.at,
    legs: p.legs,
    reason: p.reason,
    tradeSeq: type === 'insurance.pick.created' ? 1 : 2,
  });
  const unit: MarketUnit = ['US', 'GB'].includes(p.city.country) ? 'F' : 'C';
  return checked(
    InsuranceEventSchema,
    { ...event, market: { ...event.market, market_tz: p.city.tz, bucket_unit: unit } },
    type,
  );
}

const SCHEMA_OF = (event: WebhookEvent): TSchema =>
  event.event_type === 'webhook.test'
    ? TestEvent
    : event.event_type.startsWith('edge.')
      ? EdgeEvent
      : InsuranceEventSchema;

const instantOf = (event: WebhookEvent): string =>
  'executed_at' in (('trade' in event ? event.trade : {}) as object)
    ? (event as EdgeEvent).trade.executed_at
    : (event as InsuranceEvent).created_at;

// --- the builder ----------------------------------------------------------------------------------------------

/** The stream names of the sync (DESIGN 3), for `streams`. */
export type StreamName =
  | 'cities'
  | 'current'
  | 'forecasts'
  | 'no24'
  | 'yescore'
  | 'svc-max-picks'
  | 'fusion-locks'
  | 'mkta-buckets'
  | 'mktb-buckets'
  | 'metar'
  | 'daily';

/**
 * A cache being written by hand: each method writes through the repository the monitor's own writer uses (the
 * sync's `resources`, the listener's `inbox`, the sync's `streams`), in one transaction, and returns the builder.
 * Historical rows get ids 1, 2, 3... in the order written unless a test gives its own.
 */
export class HandCache {
  private nextId = 1;
  constructor(readonly cache: Cache) {}

  /** The next `n` historical row ids. */
  ids(n: number): number[] {
    const from = this.nextId;
    this.nextId += n;
    return Array.from({ length: n }, (_, i) => from + i);
  }

  cities(...cities: City[]): this {
    this.cache.resources.upsertCities(cities);
    return this;
  }

  forecast(c: City, date: string, f: HandForecast): this {
    this.cache.resources.addForecasts(forecasts(c.city_id, date, f));
    return this;
  }

  current(c: City, at: string, tempC: number): this {
    this.cache.resources.addCurrent(current(c.city_id, at, tempC));
    return this;
  }

  /** METAR reports of a city's day: [instant, whole °C]. */
  metar(c: City, date: string, reports: [at: string, tempC: number][]): this {
    const ids = this.ids(reports.length);
    const rows = reports.map(([at, t], i) => metar(ids[i] as number, c.city_id, date, at, t));
    this.cache.resources.upsertHistorical('metar_observations_history', rows);
    return this;
  }

  /** One snapshot of a venue's buckets of a city-day: [label, yes, no], lowest bucket first. */
  quotes(
    venue: 'mkta' | 'mktb',
    c: City,
    date: string,
    at: string,
    buckets: [label: string, yes: number, no: number][],
  ): this {
    const ids = this.ids(buckets.length);
    const rows = buckets.map(([label, yes, no], i) => quote(ids[i] as number, c.city_id, date, at, label, yes, no));
    this.cache.resources.upsertHistorical(`${venue}_buckets_history`, rows);
    return this;
  }

  historical(table: HistoricalTable, rows: HistoricalRow[]): this {
    for (const row of rows) historical(table, row);
    for (let i = 0; i < rows.length; i += 5000) this.cache.resources.upsertHistorical(table, rows.slice(i, i + 5000));
    return this;
  }

  records(family: StrategyFamily, ...records: StrategyRecord[]): this {
    for (const r of records) checked(STRATEGY_RECORD[family], r, `${family} record`);
    this.cache.resources.upsertStrategy(family, records);
    return this;
  }

  locks(...locks: FusionLock[]): this {
    this.cache.resources.upsertFusionLocks(locks);
    return this;
  }

  /**
   * Webhook events as the listener stores them: through the inbox's intake with the monitor's alert rules (a kill
   * raises its alert), each received at its own instant (an insurance event's `created_at`, an edge trade's
   * `executed_at`) unless `receivedAt` is given.
   */
  deliver(events: WebhookEvent[], receivedAt?: string): IntakeOutcome[] {
    const entries = events.map((event) => {
      checked(SCHEMA_OF(event), event, event.event_type);
      const body = JSON.stringify(event);
      // an edge event has no id of its own: the listener keys it by the header's, a fresh one each delivery
      const eventId = 'event_id' in event ? event.event_id : randomUUID();
      return {
        eventId,
        replayKey: replayKey(event),
        eventType: event.event_type,
        deliveryId: `hand-${eventId}`,
        receivedAt: receivedAt ?? instantOf(event),
        body,
        event,
      };
    });
    return this.cache.inbox.intake(entries, INBOX_ALERT_RULES);
  }

  /** A signed delivery the listener refused, with the alert it raises. */
  rejected(receivedAt: string, reason: string, body: string): this {
    const rejected = { reason, receivedAt, deliveryId: `rejected-${receivedAt}`, body: Buffer.from(body) };
    this.cache.inbox.reject(rejected, rejectedWebhookAlert(rejected));
    return this;
  }

  /** Each stream's last success (instant, rows) and, after it, its last failure. */
  /**
   * Each stream's last good pass (`ok`), with the service's clock at its first answer (`complete`: up to when what it
   * holds is complete; left out, as a cache from before kept it, `ok` stands for it), and its last failure.
   */
  streams(
    states: Partial<
      Record<StreamName, { ok: string; complete?: string; rows?: number; failed?: [at: string, error: string] }>
    >,
  ) {
    for (const [stream, s] of Object.entries(states)) {
      this.cache.streams.recordSuccess(stream, s.ok, s.rows ?? 1, s.complete ?? null);
      if (s.failed) this.cache.streams.recordError(stream, s.failed[0], s.failed[1]);
    }
    return this;
  }
}

/**
 * Fresh cache files in a temp folder of their own: `open()` makes one (a HandCache over it), `close()` closes every
 * one made and removes the folder.
 */
export function handCaches(prefix = 'hand-cache-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const opened: Cache[] = [];
  let n = 0;
  return {
    root,
    open(): HandCache {
      const cache = openCache(join(root, `cache-${++n}.db`));
      opened.push(cache);
      return new HandCache(cache);
    },
    close(): void {
      for (const c of opened.splice(0)) c.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * handCaches in memory, for the unit tier (which writes no file): `open()` makes a HandCache over a fresh in-memory
 * cache, `close()` closes every one made.
 */
export function memoryCaches() {
  const opened: Cache[] = [];
  return {
    open(): HandCache {
      const cache = openCache(':memory:');
      opened.push(cache);
      return new HandCache(cache);
    },
    close(): void {
      for (const c of opened.splice(0)) c.close();
    },
  };
}
