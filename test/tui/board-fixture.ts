import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { Forecasts } from '../../src/contract/forecasts.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { insuranceEvent, leg } from '../helpers/webhook-events.js';

/**
 * A small cache written by hand for the board, every figure chosen so the expected cells can be worked out on paper.
 * Now is 17:00Z on 2026-11-24: 12:00 in New York, 18:00 in Paris, 09:00 in Seattle.
 */
export const BOARD_NOW = Date.parse('2026-11-24T17:00:00Z');
export const DAY = '2026-11-24';

const city = (city_id: string, city_name: string, country: string, tz: string, icao: string): City => ({
  city_id,
  city_name,
  country,
  lat: 0,
  lon: 0,
  tz,
  icao,
  station_name: icao,
});

/**
 * The three layers of `/forecasts`: mu and sigma of the day's high in both units (DESIGN 4 prices the `_c` ones), an
 * hourly curve in °C, the models' Tmax range with its warmest member in both units; for the fixture's day unless
 * `date` says another.
 */
export function forecasts(
  cityId: string,
  f: { mu_f: number; mu_c: number; sigma_f: number; sigma_c: number },
  tmax: { f: number; c: number },
  spread: number,
  date = DAY,
): Forecasts {
  const at = '2026-11-24T16:05:00Z';
  return {
    city_id: cityId,
    svc_pro_forecast: {
      city_id: cityId,
      local_date: date,
      station_code: 'X',
      unit: 'F',
      predicted_max: f.mu_f,
      predicted_max_f: f.mu_f,
      predicted_max_c: f.mu_c,
      sigma: f.sigma_f,
      sigma_f: f.sigma_f,
      sigma_c: f.sigma_c,
      pacing_delta: 0.4,
      pacing_source: 'metar',
      hottest_model: 'gfs',
      models_used: [],
      hourly: [0, 3, 6, 9, 12, 15, 18, 21].map((h, i) => ({
        h: `${String(h).padStart(2, '0')}:00`,
        t: f.mu_c - ([6, 7, 7, 4, 1, 0, 3, 5][i] as number),
      })),
      hourly_unit: 'C',
      reasoning: 'hand-made: the models agree on a mild afternoon',
      fetched_at: at,
    },
    edge_ensemble_daily: {
      city_id: cityId,
      local_date: date,
      unit: 'C',
      fc_mean: f.mu_c,
      fc_mean_c: f.mu_c,
      fc_mean_f: f.mu_f,
      tmax_mean_c: f.mu_c,
      tmax_mean_f: f.mu_f,
      sigma: f.sigma_c,
      sigma_c: f.sigma_c,
      sigma_f: f.sigma_f,
      models: [
        { model: 'gfs', weight: 0.6 },
        { model: 'icon', weight: 0.4 },
      ],
      models_used: [],
      n_models: 2,
    },
    model_tmax_range: {
      city_id: cityId,
      local_date: date,
      station_code: 'X',
      unit: 'F',
      tmax_min: tmax.f - spread,
      tmax_min_f: tmax.f - spread,
      tmax_min_c: 0,
      tmax_max: tmax.f,
      tmax_max_f: tmax.f,
      tmax_max_c: tmax.c,
      tmax_mean: tmax.f - spread / 2,
      tmax_mean_f: tmax.f - spread / 2,
      tmax_mean_c: 0,
      spread,
      spread_f: spread,
      n_models: 2,
      models: [
        { model: 'gfs', tmax: tmax.f - spread },
        { model: 'icon', tmax: tmax.f },
      ],
      // published before the day's readings: a BREAKTHROUGH is judged against the models of its reading (DESIGN 4)
      fetched_at: '2026-11-24T12:05:00Z',
    },
  } as unknown as Forecasts;
}

let ids = 1000;
const metar = (cityId: string, at: string, temp_f: number, temp_c: number) =>
  ({
    id: ++ids,
    city_id: cityId,
    local_date: DAY,
    station_code: 'X',
    observed_at: at,
    fetched_at: at,
    temp_f,
    temp_c,
    raw: '',
  }) as unknown as HistoricalRow;
const quote = (cityId: string, slug: string, label: string, yes: number, no: number) =>
  ({
    id: ++ids,
    city_id: cityId,
    local_date: DAY,
    event_slug: 'e',
    bucket_slug: slug,
    bucket_label: label,
    yes_price: yes,
    no_price: no,
    snapshot_at: '2026-11-24T16:55:00Z',
  }) as unknown as HistoricalRow;

/** An open fusion lock on the fixture's day, locked at the city's peak hour (15:00Z in New York, 14:00Z elsewhere). */
export const lock = (
  id: string,
  cityId: string,
  slug: string,
  label: string,
  yesPrice: number,
  tokens: number,
): FusionLock => ({
  id,
  city_id: cityId,
  local_date: DAY,
  peak_hour: 15,
  locked_at: cityId === 'nyc' ? '2026-11-24T15:00:00Z' : '2026-11-24T14:00:00Z',
  bucket_slug: slug,
  bucket_label: label,
  event_slug: 'e',
  yes_price: yesPrice,
  tokens,
  resolved: false,
  actual_tmax_f: null,
  actual_tmax_c: null,
  hit: null,
  payout_usd: null,
  pnl_usd: null,
});

/**
 * New York (°F): N(21, 1) °C (69.8 ± 1.8 °F), METAR 19 °C at 14:00Z and 20 °C (68.0 °F) at 16:00Z, the venue's five
 * buckets, a dead YES 66-67 (10 shares for 3.00), a NO on 72 or higher (20 shares for 14.00) and a lock on 70-71 (40
 * tokens at 0.25); the four current sources. Paris (°C): N(12, 0.5), METAR 13 °C = 55.4 °F above every model (53.0 °F,
 * 11.67 °C), its lock's peak at 15:00 long past, an unacknowledged kill, no quotes. Seattle: only the city. `extra`
 * more cities without data (C01.., in UTC) make a board taller than a screen.
 */
export function boardCache(root = mkdtempSync(join(tmpdir(), 'board-test-')), extra = 0): Cache {
  const cache = openCache(join(root, `board-${++ids}.db`));
  cache.resources.upsertCities([
    city('nyc', 'New York City', 'US', 'America/New_York', 'KLGA'),
    city('paris', 'Paris', 'FR', 'Europe/Paris', 'LFPG'),
    city('sea', 'Seattle', 'US', 'America/Los_Angeles', 'KSEA'),
    ...Array.from({ length: extra }, (_, i) =>
      city(`c${String(i + 1).padStart(2, '0')}`, `C${String(i + 1).padStart(2, '0')}`, 'GB', 'UTC', 'EGLL'),
    ),
  ]);
  cache.resources.addForecasts(
    forecasts('nyc', { mu_f: 69.8, mu_c: 21, sigma_f: 1.8, sigma_c: 1 }, { f: 72, c: 22.22 }, 4),
  );
  cache.resources.addForecasts(
    forecasts('paris', { mu_f: 53.6, mu_c: 12, sigma_f: 0.9, sigma_c: 0.5 }, { f: 53, c: 11.67 }, 1.8),
  );
  cache.resources.upsertHistorical('metar_observations_history', [
    metar('nyc', '2026-11-24T14:00:00Z', 66.2, 19),
    metar('nyc', '2026-11-24T16:00:00Z', 68, 20),
    metar('paris', '2026-11-24T13:00:00Z', 55.4, 13),
  ]);
  const source = (temp_f: number, temp_c?: number) => ({
    temp_f,
    ...(temp_c === undefined ? {} : { temp_c }),
    fetched_at: '2026-11-24T16:50:00Z',
  });
  cache.resources.addCurrent({
    city_id: 'nyc',
    wxa_current: source(68.5),
    wxb_current: source(67.9),
    metar_observations: source(68, 20),
    pws_observations: source(68.9),
  });
  cache.resources.upsertHistorical('mkta_buckets_history', [
    quote('nyc', '65f-or-below', '65°F or below', 0.01, 0.99),
    quote('nyc', '66-67f', '66-67°F', 0.05, 0.97),
    quote('nyc', '68-69f', '68-69°F', 0.3, 0.72),
    quote('nyc', '70-71f', '70-71°F', 0.3, 0.72),
    quote('nyc', '72f-or-higher', '72°F or higher', 0.3, 0.72),
  ]);
  cache.resources.upsertHistorical('mktb_buckets_history', [quote('nyc', '70-71f', '70-71°F', 0.28, 0.74)]);
  const shared = {
    city_id: 'nyc',
    local_date: DAY,
    outcome: null,
    model: 'gfs',
    model_exact_pct: 0.3,
    predicted_max_c: 21,
    predicted_max_f: 70,
  };
  cache.resources.upsertStrategy('yescore', [
    {
      ...shared,
      id: 11,
      strategy: 'yescore',
      side: 'YES',
      bucket_slug: '66-67f',
      bucket_label: '66-67°F',
      shares: 10,
      stake: 3,
      yes_ask: 0.3,
      current_yes_price: 0.3,
    } as unknown as StrategyRecord,
  ]);
  cache.resources.upsertStrategy('no24', [
    {
      ...shared,
      id: 12,
      strategy: 'no24',
      side: 'NO',
      bucket_slug: '72f-or-higher',
      bucket_label: '72°F or higher',
      shares: 20,
      stake: 14,
      no_ask: 0.7,
      current_no_price: 0.7,
    } as unknown as StrategyRecord,
  ]);
  cache.resources.upsertFusionLocks([
    lock('L-nyc', 'nyc', '70-71f', '70-71°F', 0.25, 40),
    lock('L-paris', 'paris', '13c', '13°C', 0.5, 10),
  ]);
  // Paris' lock resolved nothing yet, but its pick was killed and nobody acknowledged the alert
  const kill = insuranceEvent('insurance.pick.killed', {
    city: 'paris',
    marketDate: DAY,
    pickId: 'pick-paris',
    legs: [leg('A', 50)],
  });
  cache.inbox.intake(
    [
      {
        eventId: kill.event_id,
        replayKey: null,
        eventType: kill.event_type,
        deliveryId: 'd-kill',
        receivedAt: '2026-11-24T16:30:00Z',
        body: JSON.stringify(kill),
        event: kill,
      },
    ],
    INBOX_ALERT_RULES,
  );
  return cache;
}
