import type { HistoricalRow, HistoricalTable } from '../../src/contract/historical.js';
import { cToF, type HandCache, NYC } from './cache-builder.js';

/**
 * One New York market day as a backfill leaves it (`sync --backfill`): the day is in the history tables only, and
 * the polls (`/current`, `/forecasts`) are of other instants. Every row is this file's own; New York is UTC-5 in
 * November, so 2026-11-26 runs from 05:00Z to 05:00Z the next day and 17:00Z (BACKFILLED_AT) is 12:00 local.
 *
 * Before 17:00Z (what the page as of it shows):
 * - `forecast_history`: the desk's run of 16:00Z, N(10, 1) °C = 50.0 ± 1.8 °F, pacing +0.3 °C, hottest model gfs
 * - `wxa_history` 16:30Z 9 °C (48.2 °F), `wxb_history` 16:45Z 8.5 °C (47.3 °F), `pws_observations_history` 16:40Z
 *   10.5 °C (50.9 °F); `metar_observations_history` 15:00Z 8 °C, 16:30Z 12 °C (53.6 °F: settles at 54 °F)
 * - `model_forecasts_daily` of the day: gfs 11 °C (51.8 °F), icon 9 (48.2), ecmwf_ifs 10 (50.0): min 48.2, mean
 *   50.0, max 51.8, spread 3.6 °F; the blends svc_pro 10.1 (50.2), edge_ensemble 10.2 (50.4), model_mean 10 (50.0);
 *   each row's actual high (15 °C, 59.0 °F) is the day's outcome, known only after it
 * - a `/current` poll of 12:00Z (5 °C, 41.0 °F): older than every history reading
 * - mkta and mktb snapshots of 16:55Z: 47°F or below, 48-49°F, 50-51°F, 52-53°F, 54°F or higher
 *
 * After it (what the page as of it never shows):
 * - `forecast_history` 18:00Z N(14, 1) °C (57.2 °F), hottest model jma; the polled layers of 18:00Z, N(14, 1) °C with
 *   the warmest model at 30 °C (86.0 °F)
 * - readings of 17:30Z: wxa 20 °C (68.0 °F), wxb 21 (69.8), PWS 22 (71.6), METAR 17:51Z 13 °C (55.4 °F); a poll of
 *   the next day, 25 °C (77.0 °F)
 * - `model_forecasts_daily` of the next day: gfs 20 °C (68.0 °F), icon 19 (66.2)
 *
 * The running high 12 °C = 53.6 °F is above the daily table's warmest model (51.8 °F), but no `model_tmax_range` was
 * published before its 16:30Z reading: no BREAKTHROUGH (DESIGN 4 judges a reading against the models of its instant).
 */
export const BACKFILLED_DAY = '2026-11-26';
export const BACKFILLED_AT = Date.parse(`${BACKFILLED_DAY}T17:00:00Z`);

const at = (hhmm: string, date = BACKFILLED_DAY) => `${date}T${hhmm}:00Z`;

export function backfilledDay(h: HandCache): HandCache {
  const d = BACKFILLED_DAY;
  const next = '2026-11-27';
  const row = (table: HistoricalTable, fields: Record<string, unknown>[]) => {
    const ids = h.ids(fields.length);
    h.historical(
      table,
      fields.map((f, i) => ({ id: ids[i], city_id: 'nyc', local_date: d, ...f }) as HistoricalRow),
    );
  };
  const desk = (time: string, c: number, hottest: string) => ({
    fetched_at: at(time),
    predicted_max_c: c,
    predicted_max_f: cToF(c),
    sigma_c: 1,
    sigma_f: 1.8,
    pacing_delta: 0.3,
    hottest_model: hottest,
  });
  const reading = (time: string, c: number, extra: Record<string, unknown>) => ({
    observed_at: at(time),
    fetched_at: at(time),
    temp_c: c,
    temp_f: cToF(c),
    ...extra,
  });
  const provider = { humidity: 60 };
  const station = { station_code: 'KLGA' };
  const model = (date: string, name: string, c: number) => ({
    local_date: date,
    model: name,
    unit: 'F',
    predicted_max_c: c,
    predicted_max_f: cToF(c),
    predicted_bucket_slug: '50-51f',
    actual_max_c: 15,
    actual_max_f: 59,
    actual_bucket_slug: '58-59f',
    exact_hit: false,
  });

  h.cities(NYC);
  h.current(NYC, at('12:00'), 5);
  h.current(NYC, at('12:00', next), 25);
  h.forecast(NYC, d, { mu_c: 14, sigma_c: 1, at: at('18:00'), tmax_max_c: 30 });
  row('forecast_history', [desk('16:00', 10, 'gfs'), desk('18:00', 14, 'jma')]);
  row('wxa_history', [reading('16:30', 9, provider), reading('17:30', 20, provider)]);
  row('wxb_history', [reading('16:45', 8.5, provider), reading('17:30', 21, provider)]);
  row('pws_observations_history', [reading('16:40', 10.5, station), reading('17:30', 22, station)]);
  const raw = { ...station, raw: 'METAR KLGA' };
  row('metar_observations_history', [reading('15:00', 8, raw), reading('16:30', 12, raw), reading('17:51', 13, raw)]);
  row('model_forecasts_daily', [
    model(d, 'gfs', 11),
    model(d, 'icon', 9),
    model(d, 'ecmwf_ifs', 10),
    model(d, 'svc_pro', 10.1),
    model(d, 'edge_ensemble', 10.2),
    model(d, 'model_mean', 10),
    model(next, 'gfs', 20),
    model(next, 'icon', 19),
  ]);
  const book: [string, number, number][] = [
    ['47°F or below', 0.02, 0.99],
    ['48-49°F', 0.05, 0.96],
    ['50-51°F', 0.1, 0.91],
    ['52-53°F', 0.2, 0.81],
    ['54°F or higher', 0.65, 0.36],
  ];
  h.quotes('mkta', NYC, d, at('16:55'), book);
  h.quotes('mktb', NYC, d, at('16:55'), book);
  return h;
}
