import type { Cache } from '../../src/cache/index.js';
import type { City } from '../../src/contract/cities.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { HistoricalRow, HistoricalTable } from '../../src/contract/historical.js';

/**
 * A small history built by hand for the calibration (History's summaries), written into a real cache:
 *
 * berlin (°C, UTC+1 in November: 12:00 local is 11:00Z), buckets `19°C or below`, `20°C`, `21°C`, `22°C or higher`
 * - 11-01 settled at 21 (resolved lock, 21.0 °C). Desk at 12:00: the 10:05Z run, mu 20.5 sigma 1 (the 09:05Z run is
 *   older, the 11:05Z one after noon). METAR 15.0 at 00:00, 20.6 at 12:00, 21.2 at 14:00. mkta at 11:00Z
 *   0.05 0.30 0.50 0.25 (its 12:00Z snapshot is after noon); mktb 0.10 0.20 0.60 0.10.
 * - 11-02 settled at 23 (resolved lock). Desk mu 20.5 sigma 1; METAR 23.0 at 13:00 only; mkta 0.10 0.40 0.40 0.10.
 * - 11-03 quoted and forecast, but its lock is open: not settled, not scored.
 * nyc (°F, UTC-5 on 11-02): 11-02 settled at 54 by its forecast score (no lock, no forecast); METAR 10 °C (50.0 °F)
 * at 00:00, 12 °C (53.6 °F, settling at 54) at 10:00.
 */
const at = (iso: string) => `${iso}Z`;

export const CITIES: City[] = [
  {
    city_id: 'berlin',
    city_name: 'Berlin',
    country: 'DE',
    lat: 52.56,
    lon: 13.29,
    tz: 'Europe/Berlin',
    icao: 'EDDB',
    station_name: 'Berlin Brandenburg',
  },
  {
    city_id: 'nyc',
    city_name: 'New York',
    country: 'US',
    lat: 40.78,
    lon: -73.97,
    tz: 'America/New_York',
    icao: 'KNYC',
    station_name: 'Central Park',
  },
];

const lock = (date: string, c: number | null): FusionLock => ({
  id: `fl-berlin-${date}`,
  city_id: 'berlin',
  local_date: date,
  peak_hour: 15,
  locked_at: at(`${date}T14:00:00`),
  bucket_slug: '21c',
  bucket_label: '21°C',
  event_slug: `highest-temperature-in-berlin-${date}`,
  yes_price: 0.5,
  tokens: 20,
  resolved: c !== null,
  actual_tmax_c: c,
  actual_tmax_f: c === null ? null : (c * 9) / 5 + 32,
  hit: c === null ? null : c === 21,
  payout_usd: c === null ? null : 0,
  pnl_usd: c === null ? null : -10,
});

let ids = 0;
const LABELS = ['19°C or below', '20°C', '21°C', '22°C or higher'];
const snapshot = (date: string, instant: string, prices: number[]) =>
  LABELS.map((bucket_label, i) => ({
    id: ++ids,
    city_id: 'berlin',
    local_date: date,
    event_slug: `highest-temperature-in-berlin-${date}`,
    snapshot_at: at(instant),
    bucket_slug: `b${i}`,
    bucket_label,
    yes_price: prices[i] as number,
    no_price: 1 - (prices[i] as number),
  }));
const forecast = (date: string, instant: string, mu: number) => ({
  id: ++ids,
  city_id: 'berlin',
  local_date: date,
  fetched_at: at(instant),
  predicted_max_c: mu,
  predicted_max_f: (mu * 9) / 5 + 32,
  sigma_c: 1,
  sigma_f: 1.8,
  pacing_delta: 0,
  hottest_model: 'gfs',
});
const metar = (city: string, date: string, instant: string, c: number) => ({
  id: ++ids,
  city_id: city,
  local_date: date,
  station_code: city === 'nyc' ? 'KNYC' : 'EDDB',
  observed_at: at(instant),
  fetched_at: at(instant),
  temp_c: c,
  temp_f: Math.round(((c * 9) / 5 + 32) * 10) / 10,
  raw: 'METAR',
});

const HISTORY: [HistoricalTable, Record<string, unknown>[]][] = [
  [
    'mkta_buckets_history',
    [
      ...snapshot('2026-11-01', '2026-11-01T10:00:00', [0.25, 0.25, 0.25, 0.25]),
      ...snapshot('2026-11-01', '2026-11-01T11:00:00', [0.05, 0.3, 0.5, 0.25]),
      ...snapshot('2026-11-01', '2026-11-01T12:00:00', [0.01, 0.01, 0.97, 0.01]),
      ...snapshot('2026-11-02', '2026-11-02T11:00:00', [0.1, 0.4, 0.4, 0.1]),
      ...snapshot('2026-11-03', '2026-11-03T11:00:00', [0.1, 0.4, 0.4, 0.1]),
    ],
  ],
  ['mktb_buckets_history', snapshot('2026-11-01', '2026-11-01T11:00:00', [0.1, 0.2, 0.6, 0.1])],
  [
    'forecast_history',
    [
      forecast('2026-11-01', '2026-11-01T09:05:00', 10),
      forecast('2026-11-01', '2026-11-01T10:05:00', 20.5),
      forecast('2026-11-01', '2026-11-01T11:05:00', 25),
      forecast('2026-11-02', '2026-11-02T10:05:00', 20.5),
      forecast('2026-11-03', '2026-11-03T10:05:00', 20.5),
    ],
  ],
  [
    'metar_observations_history',
    [
      metar('berlin', '2026-11-01', '2026-10-31T23:00:00', 15),
      metar('berlin', '2026-11-01', '2026-11-01T11:00:00', 20.6),
      metar('berlin', '2026-11-01', '2026-11-01T13:00:00', 21.2),
      metar('berlin', '2026-11-02', '2026-11-02T12:00:00', 23),
      metar('berlin', '2026-11-03', '2026-11-03T12:00:00', 24),
      metar('nyc', '2026-11-02', '2026-11-02T05:00:00', 10),
      metar('nyc', '2026-11-02', '2026-11-02T15:00:00', 12),
    ],
  ],
  [
    'forecast_accuracy_daily',
    [
      {
        id: ++ids,
        city_id: 'nyc',
        local_date: '2026-11-02',
        unit: 'F',
        predicted_max: 53,
        actual_max: 54,
        abs_error: 1,
        abs_error_c: 0.56,
      },
    ],
  ],
];

/** Writes the cities, the locks and the history above into `cache`. */
export function fillCalibrationHistory(cache: Cache): void {
  cache.resources.upsertCities(CITIES);
  cache.resources.upsertFusionLocks([lock('2026-11-01', 21), lock('2026-11-02', 23), lock('2026-11-03', null)]);
  for (const [table, rows] of HISTORY) cache.resources.upsertHistorical(table, rows as HistoricalRow[]);
}
