import { INBOX_ALERT_RULES } from '../../src/alerts/kill-alert.js';
import type { Cache, InboxEntry } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { WebhookEvent } from '../../src/contract/events.js';
import type { Forecasts } from '../../src/contract/forecasts.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import type { StrategyRecord } from '../../src/contract/strategies.js';
import { CITIES } from '../helpers/calibration-history.js';
import { edgeEvent, insuranceEvent, leg } from '../helpers/webhook-events.js';

/**
 * One New York market day built by hand, every row of it with its own time, for the reads as of an instant
 * (DESIGN 4 "the board as of an instant"). 2026-11-24 in New York (UTC-5) runs from 05:00Z to 05:00Z the next day.
 * Every figure is this file's own; none comes from the simulated world.
 *
 * - METAR (history): 06:00Z 5 °C, 14:00Z 9 °C, 17:00Z 12 °C, 19:00Z 13 °C, 22:00Z 11 °C; polled /current: 18:30Z
 *   12.4 °C (54.3 °F).
 * - mkta snapshots of the day's two buckets `52-53°F` / `54-55°F`: 14:00Z 0.30 / 0.40, 16:00Z 0.35 / 0.45,
 *   18:00Z 0.10 / 0.80; yesterday's market at 04:30Z (0.5 / 0.5), listed between.
 * - the desk: `forecasts` polled at 13:05Z (mu 11.0 °C, sigma 1.0, all three layers); `forecast_history` runs at
 *   13:05Z (mu 99: the same run as the poll, which wins), 14:05Z (mu 12.0) and 15:05Z (mu 12.5, sigma 0.8).
 * - no24 record 1 on `54-55°F` (entered 00:01 local = 05:01Z), settled now: a loss, roi -1, current_no_price 0.
 *   svc-max-picks record 2 (entry hour 11 = 16:00Z), settled now: a win. A yescore record 3 of the next day, open.
 * - fusion lock `lock-24` locked at 20:00Z (15:00 local), resolved now (13 °C, a hit, pnl 5).
 * - insurance pick `pick-1` created at 14:00Z, killed at 19:00Z (the kill's alert received at 19:00:05Z,
 *   acknowledged at 20:00Z).
 * - edge trade 7 entered at 15:00Z, exited at 18:00Z.
 */
export const DAY = '2026-11-24';
export const at = (hhmm: string, date = DAY) => Date.parse(`${date}T${hhmm}:00Z`);

/** New York as the calibration's hand-built history has it. */
export const NYC = CITIES.find((c) => c.city_id === 'nyc') as City;

/** A METAR report of New York at an instant (ISO), by its own id (the day's are 1 to 5): a late one, say. */
export const metarReport = (id: number, at: string, c: number): HistoricalRow =>
  ({
    id,
    city_id: 'nyc',
    local_date: at.slice(0, 10),
    station_code: 'KLGA',
    observed_at: at,
    fetched_at: at,
    temp_c: c,
    temp_f: Math.round(((c * 9) / 5 + 32) * 10) / 10,
    raw: 'METAR',
  }) as HistoricalRow;

let ids = 0;
const metar = (hhmm: string, c: number): HistoricalRow => metarReport(++ids, `${DAY}T${hhmm}:00Z`, c);

const snapshot = (snapshotAt: string, date: string, prices: [number, number]): HistoricalRow[] =>
  (['52-53°F', '54-55°F'] as const).map(
    (label, i) =>
      ({
        id: ++ids,
        city_id: 'nyc',
        local_date: date,
        event_slug: `highest-temperature-in-nyc-${date}`,
        snapshot_at: snapshotAt,
        bucket_slug: label === '52-53°F' ? '52-53f' : '54-55f',
        bucket_label: label,
        yes_price: prices[i],
        no_price: Math.round((1 - (prices[i] as number)) * 100) / 100,
      }) as HistoricalRow,
  );

const run = (hhmm: string, muC: number, sigmaC = 1): HistoricalRow =>
  ({
    id: ++ids,
    city_id: 'nyc',
    local_date: DAY,
    fetched_at: `${DAY}T${hhmm}:00Z`,
    predicted_max_c: muC,
    predicted_max_f: (muC * 9) / 5 + 32,
    sigma_c: sigmaC,
    sigma_f: (sigmaC * 9) / 5,
    pacing_delta: 0,
    hottest_model: 'gfs',
  }) as HistoricalRow;

const RECORDS: [string, StrategyRecord][] = [
  [
    'no24',
    {
      id: 1,
      city_id: 'nyc',
      local_date: DAY,
      bucket_slug: '54-55f',
      bucket_label: '54-55°F',
      stake: 10,
      shares: 12.5,
      outcome: 'loss',
      roi: -1,
      side: 'NO',
      strategy: 'no24',
      model: 'gfs',
      model_exact_pct: 0.1,
      predicted_max_c: 11,
      predicted_max_f: 51.8,
      no_ask: 0.8,
      current_no_price: 0,
    },
  ],
  [
    'svc-max-picks',
    {
      id: 2,
      city_id: 'nyc',
      local_date: DAY,
      bucket_slug: '54-55f',
      bucket_label: '54-55°F',
      stake: 10,
      shares: 16,
      outcome: 'win',
      roi: 0.6,
      side: 'YES',
      strategy: 'svc_max_11',
      entry_hour: 11,
      mu_c: 12,
      sigma_c: 1,
      n_models: 7,
      model_prob: 0.7,
      yes_ask: 0.625,
      edge: 0.075,
      mode: 'paper',
    },
  ],
  [
    'yescore',
    {
      id: 3,
      city_id: 'nyc',
      local_date: '2026-11-25',
      bucket_slug: '54-55f',
      bucket_label: '54-55°F',
      stake: 10,
      shares: 20,
      outcome: null,
      roi: null,
      side: 'YES',
      strategy: 'yescore',
      model: 'icon',
      model_exact_pct: 0.3,
      predicted_max_c: 12,
      corrected_max_c: 12,
      bias_c: 0,
      yes_ask: 0.5,
      edge: 0.1,
      current_yes_price: 0.5,
    },
  ],
];

export const LOCK: FusionLock = {
  id: 'lock-24',
  city_id: 'nyc',
  local_date: DAY,
  peak_hour: 15,
  locked_at: `${DAY}T20:00:00Z`,
  bucket_slug: '54-55f',
  bucket_label: '54-55°F',
  event_slug: `highest-temperature-in-nyc-${DAY}`,
  yes_price: 0.5,
  tokens: 20,
  resolved: true,
  actual_tmax_f: 55.4,
  actual_tmax_c: 13,
  hit: true,
  payout_usd: 20,
  pnl_usd: 10,
};

const forecasts = (fetchedAt: string, muC: number): Forecasts =>
  ({
    city_id: 'nyc',
    svc_pro_forecast: {
      city_id: 'nyc',
      local_date: DAY,
      unit: 'F',
      predicted_max_c: muC,
      predicted_max_f: (muC * 9) / 5 + 32,
      sigma_c: 1,
      sigma_f: 1.8,
      fetched_at: fetchedAt,
    },
    edge_ensemble_daily: { city_id: 'nyc', local_date: DAY, unit: 'C', fc_mean_c: muC },
    model_tmax_range: { city_id: 'nyc', local_date: DAY, unit: 'F', tmax_max_c: muC + 1, tmax_max_f: 55 },
  }) as unknown as Forecasts;

function delivery(event: WebhookEvent, eventId: string, receivedAt: string): InboxEntry {
  return {
    eventId,
    replayKey:
      'trade' in event && 'engine_trade_id' in event.trade
        ? `edge:${event.trade.engine_trade_id}:${event.trade.operation}`
        : null,
    eventType: event.event_type,
    deliveryId: `d-${eventId}`,
    receivedAt,
    body: JSON.stringify(event),
    event,
  };
}

/** Writes the day above into `cache`. */
export function fillAsOfDay(cache: Cache): void {
  cache.resources.upsertCities([NYC]);
  cache.resources.upsertHistorical('metar_observations_history', [
    metar('06:00', 5),
    metar('14:00', 9),
    metar('17:00', 12),
    metar('19:00', 13),
    metar('22:00', 11),
  ]);
  cache.resources.addCurrent({
    city_id: 'nyc',
    metar_observations: { temp_f: 54.3, temp_c: 12.4, fetched_at: `${DAY}T18:30:00Z` },
    wxa_current: { temp_f: 50, fetched_at: `${DAY}T18:30:00Z` },
    wxb_current: { temp_f: 51, fetched_at: `${DAY}T18:30:00Z` },
    pws_observations: { temp_f: 52, fetched_at: `${DAY}T18:30:00Z` },
  } as never);
  cache.resources.upsertHistorical('mkta_buckets_history', [
    ...snapshot(`${DAY}T04:30:00Z`, '2026-11-23', [0.5, 0.5]),
    ...snapshot(`${DAY}T14:00:00Z`, DAY, [0.3, 0.4]),
    ...snapshot(`${DAY}T16:00:00Z`, DAY, [0.35, 0.45]),
    ...snapshot(`${DAY}T18:00:00Z`, DAY, [0.1, 0.8]),
  ]);
  cache.resources.addForecasts(forecasts(`${DAY}T13:05:00Z`, 11));
  cache.resources.upsertHistorical('forecast_history', [run('13:05', 99), run('14:05', 12), run('15:05', 12.5, 0.8)]);
  for (const [family, record] of RECORDS) cache.resources.upsertStrategy(family as never, [record]);
  cache.resources.upsertFusionLocks([LOCK]);
  const legs = [leg('A', 52), leg('B', 54)];
  const created = insuranceEvent('insurance.pick.created', {
    pickId: 'pick-1',
    createdAt: `${DAY}T14:00:00Z`,
    marketDate: DAY,
    legs,
  });
  const killed = insuranceEvent('insurance.pick.killed', {
    pickId: 'pick-1',
    createdAt: `${DAY}T19:00:00Z`,
    marketDate: DAY,
    legs,
  });
  const entered = edgeEvent('edge.trade.entered', {
    tradeId: 7,
    city: 'nyc',
    marketDate: DAY,
    executedAt: `${DAY}T15:00:00+00:00`,
  });
  const exited = edgeEvent('edge.trade.exited', {
    tradeId: 7,
    city: 'nyc',
    marketDate: DAY,
    executedAt: `${DAY}T18:00:00+00:00`,
  });
  cache.inbox.intake(
    [
      delivery(created, created.event_id, `${DAY}T14:00:02Z`),
      delivery(entered, 'edge-in-7', `${DAY}T15:00:01Z`),
      delivery(exited, 'edge-out-7', `${DAY}T18:00:01Z`),
      delivery(killed, killed.event_id, `${DAY}T19:00:05Z`),
    ],
    INBOX_ALERT_RULES,
  );
  const kill = cache.alerts.older('kill', null, 1)[0];
  if (kill) cache.alerts.acknowledge(kill.id, `${DAY}T20:00:00.000Z`);
}
