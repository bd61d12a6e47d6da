import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { marketDateOf, readMarketDay } from '../../src/board/market-day.js';
import { readBoard } from '../../src/board/read-board.js';
import { type Cache, openCache, readNow } from '../../src/cache/index.js';
import { forecastData } from '../../src/tui/panes/forecasts/forecast-read.js';
import { forecasts, fusionLock, metar, PARIS, quote } from '../helpers/cache-builder.js';

/**
 * The service forecasts tomorrow once a city's day has passed its peak (its `/forecasts` answer local_date D + 1 from
 * the peak hour + 2 h): the newest poll of every layer is then tomorrow's, from about 17:00 local. Today stays the
 * city's market day, priced and judged by its own forecast and models; tomorrow's forecast prices tomorrow's row only.
 * One Paris day built by hand (UTC+1 in November), every figure this file's own:
 *
 * - 2026-11-24: the desk polled at 12:00Z, N(12, 1) °C, the warmest model 13 °C; METAR 13:00Z 12 °C and 16:30Z 13 °C;
 *   the fusion lock at 13:00Z (14:00 local), peak hour 14: `passed` from 16:00 local (15:00Z).
 * - 2026-11-25: the desk's forecast of it polled at 16:00Z (17:00 local), N(10, 1) °C, the warmest model 11 °C (the
 *   builder's mu + 1); listed on mkta at 09:30Z, repriced at 16:55Z.
 */
const TODAY = '2026-11-24';
const TOMORROW = '2026-11-25';
const at = (hhmm: string) => Date.parse(`${TODAY}T${hhmm}:00Z`);
/** 17:00Z, 18:00 in Paris: today has passed, and the newest poll is tomorrow's. */
const EVENING = at('17:00');

const LABELS = ['8°C or below', '9°C', '10°C', '11°C', '12°C or higher'] as const;
const PRICES: [number, number][] = [
  [0.05, 0.94],
  [0.2, 0.78],
  [0.4, 0.58],
  [0.25, 0.73],
  [0.05, 0.94],
];

let cache: Cache;
beforeEach(() => {
  cache = openCache(':memory:');
  cache.resources.upsertCities([PARIS]);
  cache.resources.addForecasts(
    forecasts('paris', TODAY, { mu_c: 12, sigma_c: 1, tmax_max_c: 13, at: `${TODAY}T12:00:00Z` }),
  );
  cache.resources.addForecasts(forecasts('paris', TOMORROW, { mu_c: 10, sigma_c: 1, at: `${TODAY}T16:00:00Z` }));
  cache.resources.upsertHistorical('metar_observations_history', [
    metar(1, 'paris', TODAY, `${TODAY}T13:00:00Z`, 12),
    metar(2, 'paris', TODAY, `${TODAY}T16:30:00Z`, 13),
  ]);
  cache.resources.upsertFusionLocks([
    fusionLock({
      id: 'lock-24',
      city_id: 'paris',
      local_date: TODAY,
      peak_hour: 14,
      locked_at: `${TODAY}T13:00:00Z`,
      bucket_label: '12°C',
      yes_price: 0.5,
      tokens: 10,
    }),
  ]);
  let id = 0;
  cache.resources.upsertHistorical('mkta_buckets_history', [
    quote(++id, 'paris', TODAY, `${TODAY}T16:55:00Z`, '13°C', 0.9, 0.09),
    ...LABELS.map((label, i) => {
      const [yes, no] = PRICES[i] as [number, number];
      return quote(++id, 'paris', TOMORROW, `${TODAY}T16:55:00Z`, label, yes, no);
    }),
  ]);
});
afterEach(() => cache.close());

describe("a passed day whose newest forecast poll is tomorrow's", () => {
  it("keeps today as the city's market day: the earlier of the poll's date and the city's own", () => {
    // 18:00 local: the poll says the 25th, the city's clock the 24th
    expect(marketDateOf(cache, PARIS, EVENING)).toBe(TODAY);
    // 00:30 local on the 25th (23:30Z): both say the 25th
    expect(marketDateOf(cache, PARIS, at('23:30'))).toBe(TOMORROW);
  });

  it("a service not yet rolled over keeps its day past the city's midnight", () => {
    const behind = openCache(':memory:');
    behind.resources.upsertCities([PARIS]);
    behind.resources.addForecasts(forecasts('paris', TODAY, { mu_c: 12, sigma_c: 1, at: `${TODAY}T22:30:00Z` }));
    // 23:30Z is 00:30 on the 25th in Paris; the newest poll is still of the 24th
    expect(marketDateOf(behind, PARIS, at('23:30'))).toBe(TODAY);
    behind.close();
  });

  it('reads the day with its own forecast and models, and judges its breakthrough on them', () => {
    const read = readMarketDay(cache, PARIS, EVENING);
    expect([read.date, read.primary?.local_date, read.primary?.predicted_max_c, read.range?.tmax_max_c]).toEqual([
      TODAY,
      TODAY,
      12,
      13,
    ]);
    // each high-setting reading against the warmest model of the day's own range published by then (12:00Z, 13 °C);
    // tomorrow's (16:00Z, 11 °C) would have judged the 16:30Z reading
    expect(read.highs.map((h) => [h.ms, h.highC, h.warmest?.c])).toEqual([
      [at('13:00'), 12, 13],
      [at('16:30'), 13, 13],
    ]);
    const day = boardDay(read);
    // 13 °C allows a true high of 12.5 °C: not above 13 °C (it is above tomorrow's 11 °C: a false BREAKTHROUGH)
    expect([day.phase, day.breakthrough, day.runningHighC]).toEqual(['passed', false, 13]);
  });

  it("the Forecasts pane shows today's forecast", () => {
    const page = readNow(forecastData(cache, { city: PARIS, nowMs: EVENING, settlement: {} }));
    expect([page?.day.date, page?.primary?.local_date, page?.primary?.predicted_max_c]).toEqual([TODAY, TODAY, 12]);
  });

  it("the board: today's row on its own N(12, 1), tomorrow's p from tomorrow's N(10, 1)", () => {
    const [today, next] = readBoard(cache, [PARIS], EVENING, {}, new Map(), { tomorrow: true });
    expect([today?.date, today?.phase, today?.forecast, today?.breakthrough]).toEqual([
      TODAY,
      'passed',
      { muC: 12, sigmaC: 1 },
      false,
    ]);
    expect([next?.date, next?.tomorrow, next?.forecast]).toEqual([TOMORROW, true, { muC: 10, sigmaC: 1 }]);
    // X ~ N(10, 1): p(≤8) = Φ(-1.5) = 0.066807; p(9) = Φ(-0.5) - Φ(-1.5) = 0.308538 - 0.066807 = 0.241731;
    // p(10) = Φ(0.5) - Φ(-0.5) = 0.691462 - 0.308538 = 0.382925; 11 and ≥12 mirror 9 and ≤8
    const p = next?.buckets.map((b) => b.p as number) ?? [];
    for (const [i, want] of [0.066807, 0.241731, 0.382925, 0.241731, 0.066807].entries())
      expect(p[i]).toBeCloseTo(want, 5);
    // YES 9°C at 0.20 less a cent's cost: 0.241731 - 0.20 - 0.01 = +0.031731
    expect([next?.best?.side, next?.best?.bucket.label]).toEqual(['YES', '9°C']);
    expect(next?.best?.edge).toBeCloseTo(0.031731, 5);
  });
});
