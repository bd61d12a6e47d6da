import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { breakthroughAlert } from '../../src/alerts/market-alerts.js';
import { boardDay } from '../../src/board/board-day.js';
import { exportBoard } from '../../src/board/board-export.js';
import { readMarketDay } from '../../src/board/market-day.js';
import { readBoard } from '../../src/board/read-board.js';
import { type Cache, openCache } from '../../src/cache/index.js';
import type { Forecasts } from '../../src/contract/forecasts.js';
import type { HistoricalRow } from '../../src/contract/historical.js';
import { at, DAY, fillAsOfDay, NYC } from '../cache/as-of-day.js';
import { marketDay, PARIS, range } from './fixtures.js';

/**
 * BREAKTHROUGH (DESIGN 4 "a flag means what it says") on the hand-built New York day of test/cache/as-of-day.ts (°F,
 * UTC-5): METAR 06:00Z 5 °C, 14:00Z 9, 17:00Z 12, 19:00Z 13 (the day's high), 22:00Z 11; the models' range polled
 * at 13:05Z with the warmest at 55 °F. A whole 13 °C allows 12.5 °C = 22.5 + 32 = 54.5 °F; 12 °C allows 11.5 °C =
 * 52.7 °F. The tests add polls of the range before and after the 19:00Z reading.
 */
let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  fillAsOfDay(cache);
});
afterEach(() => cache.close());

/** A `/forecasts` poll of New York at `fetchedAt`: the desk as the day's newest run has it, the warmest model given. */
const poll = (fetchedAt: string, maxF: number, date = DAY): Forecasts =>
  ({
    city_id: 'nyc',
    svc_pro_forecast: {
      city_id: 'nyc',
      local_date: date,
      unit: 'F',
      predicted_max_c: 12.5,
      predicted_max_f: 54.5,
      sigma_c: 0.8,
      sigma_f: 1.44,
      fetched_at: fetchedAt,
    },
    edge_ensemble_daily: { city_id: 'nyc', local_date: date, unit: 'C', fc_mean_c: 12.5 },
    model_tmax_range: {
      city_id: 'nyc',
      local_date: date,
      unit: 'F',
      tmax_max_f: maxF,
      tmax_max_c: Math.round((((maxF - 32) * 5) / 9) * 100) / 100,
      spread_f: 2,
    },
  }) as unknown as Forecasts;

/** The flags of the day's row: live (the book as it stands), replayed as of the instant, and `export board --at`. */
function flagsAt(atMs: number, date?: string): { live: string[]; replayed: string[]; exported: string[] } {
  const when = date === undefined ? {} : { date };
  const live = readBoard(cache, [NYC], atMs, {}, new Map(), when)[0]?.flags ?? [];
  const replayed = readBoard(cache, [NYC], atMs, {}, new Map(), { ...when, asOf: atMs })[0]?.flags ?? [];
  const exported = exportBoard(cache, { atMs, replay: true, cities: [NYC], ...when })[0]?.flags ?? [];
  const only = (flags: readonly string[]) => flags.filter((f) => f === 'BREAKTHROUGH');
  return { live: only(live), replayed: only(replayed), exported: only(exported) };
}

const none = { live: [], replayed: [], exported: [] };
const flagged = { live: ['BREAKTHROUGH'], replayed: ['BREAKTHROUGH'], exported: ['BREAKTHROUGH'] };

/** The day's models as `model_forecasts_daily` has them, the table a settled day read before: gfs at 52 °F. */
const dailyTable = (): HistoricalRow[] => [
  {
    id: 900,
    city_id: 'nyc',
    local_date: DAY,
    model: 'gfs',
    unit: 'F',
    predicted_max_f: 52,
    predicted_max_c: 11.11,
  } as unknown as HistoricalRow,
];

describe('BREAKTHROUGH judged against the models as they were at the reading', () => {
  it('a range published after the reading does not count: the earlier one is used, live, replayed, settled', () => {
    // 19:30Z, after the 19:00Z reading, the models cool to 53 °F: 54.5 is above 53, but that range came later.
    // Against the 13:05Z range (55 °F) the 13 °C reading is not a breakthrough, at no instant of the day
    cache.resources.addForecasts(poll(`${DAY}T19:30:00Z`, 53));
    // the next day's poll after midnight, and the daily table's colder models: what the settled day read before
    cache.resources.addForecasts(poll('2026-11-25T05:10:00Z', 60, '2026-11-25'));
    cache.resources.upsertHistorical('model_forecasts_daily', dailyTable());
    expect(flagsAt(at('19:00'))).toEqual(none);
    expect(flagsAt(at('21:00'))).toEqual(none);
    // the day settled (05:00Z the next day is its local midnight): the same
    expect(flagsAt(at('06:00', '2026-11-25'), DAY)).toEqual(none);
  });

  it('a range published before the reading counts, and stays the judge when the models warm later', () => {
    // 18:00Z the models cool to 54.4 °F; 19:00Z's 13 °C allows 54.5 °F, 0.1 above: BREAKTHROUGH from 19:00Z on.
    // 20:00Z the models warm to 58 °F: published after the reading, it changes nothing
    cache.resources.addForecasts(poll(`${DAY}T18:00:00Z`, 54.4));
    cache.resources.addForecasts(poll(`${DAY}T20:00:00Z`, 58));
    cache.resources.addForecasts(poll('2026-11-25T05:10:00Z', 60, '2026-11-25'));
    cache.resources.upsertHistorical('model_forecasts_daily', dailyTable());
    // 18:59Z: the high is 17:00Z's 12 °C, at least 52.7 °F, under the 55 °F published before it
    expect(flagsAt(at('18:59'))).toEqual(none);
    expect(flagsAt(at('19:00'))).toEqual(flagged);
    expect(flagsAt(at('21:00'))).toEqual(flagged);
    expect(flagsAt(at('06:00', '2026-11-25'), DAY)).toEqual(flagged);
  });

  it('a range published at the reading’s own instant does not count: the service publishes both at :00', () => {
    // 19:00Z the models cool to 54.4 °F, published with the 19:00Z reading (13 °C, at least 54.5 °F): live, the range
    // reaches the monitor minutes after the reading, so it is not "before" it; the 13:05Z range (55 °F) judges it
    cache.resources.addForecasts(poll(`${DAY}T19:00:00Z`, 54.4));
    expect(flagsAt(at('19:00'))).toEqual(none);
    expect(flagsAt(at('21:00'))).toEqual(none);
  });

  it('the alert is stamped with the reading, not the pass, and says what it was judged on', () => {
    cache.resources.addForecasts(poll(`${DAY}T18:00:00Z`, 54.4));
    cache.resources.addForecasts(poll(`${DAY}T20:00:00Z`, 58));
    // the pass at 21:00Z (16:00 local) finds it; the reading was 19:00Z (14:00 local)
    const day = boardDay(readMarketDay(cache, NYC, at('21:00')));
    const alert = breakthroughAlert({ day, holdings: [] }, '2026-11-24T21:00:00Z');
    expect(alert?.created_at).toBe('2026-11-24T19:00:00Z');
    // 13 °C = 55.4 °F
    expect(alert?.message).toBe(
      "nyc 2026-11-24: METAR high 55.4°F at 14:00 local (at least 54.5°F) is above every model's Tmax then (warmest 54.4°F): forecast breakthrough",
    );
  });
});

describe('BREAKTHROUGH at the half degree, in both units (board/board-day.ts)', () => {
  it('°C market: a whole 12 °C against the warmest 11.5 °C is not one, against 11.4 °C it is', () => {
    // 12 - 0.5 = 11.5: not above 11.5; 0.1 above 11.4
    expect(boardDay(marketDay({ city: PARIS, highC: 12, range: range(52.7, 11.5) })).breakthrough).toBe(false);
    expect(boardDay(marketDay({ city: PARIS, highC: 12, range: range(52.52, 11.4) })).breakthrough).toBe(true);
  });

  it('°F market: a whole 23 °C (73.4 °F) against the warmest 73.2 °F is not one', () => {
    // at least 22.5 °C = 40.5 + 32 = 72.5 °F, not above 73.2 °F, though 73.4 is
    expect(boardDay(marketDay({ highC: 23, range: range(73.2, 22.89), forecast: null })).breakthrough).toBe(false);
    // 24 °C: at least 23.5 °C = 74.3 °F, above 73.2 °F
    expect(boardDay(marketDay({ highC: 24, range: range(73.2, 22.89), forecast: null })).breakthrough).toBe(true);
  });
});
