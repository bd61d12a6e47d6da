import type { Cache } from '../../src/cache/index.js';
import { forecasts, type HandCache, NYC } from '../helpers/cache-builder.js';

/**
 * New York (°F, metar_c) on 2026-11-24, written by hand for the Forecasts chart and the two venues' table. Now is
 * 17:00Z, 12:00 in New York.
 *
 * The desk: N(12, 1) °C, its hourly curve 7 6 6 8 11 12 10 8 °C at 00 03 ... 21 local. METAR 10 °C at 14:00Z, 11 at
 * 15:00Z and 12 (53.6 °F, settles at 54) at 16:00Z (09, 10, 11 local): the running high is 12 °C.
 *
 * The whole-°C lattice (DESIGN 4): `49°F or below` holds 9 °C and under (9 -> 48.2 -> 48; 10 -> 50.0), `50-51°F` 10,
 * `52-53°F` 11 (51.8 -> 52), `54-55°F` 12 and 13 (53.6 -> 54, 55.4 -> 55), `56-57°F` 14 (57.2), `58°F or higher`
 * 15 and over (59.0). Below 12 °C dead.
 *
 * p, conditioned on X >= 11.5 (mass Φ(0.5) = 0.691462): 54-55 (Φ(1.5) - Φ(-0.5)) / 0.691462 = (0.933193 - 0.308538)
 * / 0.691462 = 0.903383; 56-57 (Φ(2.5) - Φ(1.5)) / 0.691462 = (0.993790 - 0.933193) / 0.691462 = 0.087636; 58+
 * (1 - 0.993790) / 0.691462 = 0.008981.
 *
 * Both venues quote every bucket at 16:55Z, [YES, NO]; cost max(0.01, (yes + no - 1) / 2) is 0.01 on every quote:
 *   bucket      mkta          mktb          cross (bid - ask - 0.01 - 0.01)
 *   49-         0.01 0.99     0.01 0.99     none (0.01 and 0.99 are no offers)
 *   50-51       0.02 0.98     0.02 0.98     none
 *   52-53       0.03 0.97     0.03 0.97     none
 *   54-55       0.40 0.62     0.44 0.54     YES on mkta at 0.40, sold on mktb at 1 - 0.54 = 0.46: +0.04 CROSS
 *   56-57       0.20 0.81     0.23 0.78     mkta's 0.20 against mktb's 1 - 0.78 = 0.22: 0.00, none (the boundary)
 *   58+         0.05 0.96     0.08 0.929    mkta's 0.05 against mktb's 1 - 0.929 = 0.071: +0.001 CROSS
 * Each venue's larger side (points): 54-55 mkta YES 0.903383 - 0.40 - 0.01 = +49.3 (the day's best), mktb YES
 * 0.903383 - 0.44 - 0.01 = +45.3; 56-57 mkta NO (1 - 0.087636) - 0.81 - 0.01 = +9.2, mktb NO 0.912364 - 0.78 - 0.01
 * = +12.2; 58+ mkta NO 0.991019 - 0.96 - 0.01 = +2.1, mktb NO 0.991019 - 0.929 - 0.01 = +5.2; 52-53 (p 0) NO 1 - 0.97
 * - 0.01 = +2.0 on both; 50-51 NO 1 - 0.98 - 0.01 = +1.0; 49- NO 1 - 0.99 - 0.01 = 0.0.
 */
export const CHART_NOW = Date.parse('2026-11-24T17:00:00Z');
const DAY = '2026-11-24';

export function chartCache(h: HandCache): Cache {
  h.cities(NYC);
  const f = forecasts('nyc', DAY, { mu_c: 12, sigma_c: 1, at: '2026-11-24T16:05:00Z' });
  f.svc_pro_forecast.hourly = [7, 6, 6, 8, 11, 12, 10, 8].map((t, i) => ({
    h: `${String(i * 3).padStart(2, '0')}:00`,
    t,
  }));
  h.cache.resources.addForecasts(f);
  h.metar(NYC, DAY, [
    ['2026-11-24T14:00:00Z', 10],
    ['2026-11-24T15:00:00Z', 11],
    ['2026-11-24T16:00:00Z', 12],
  ]);
  const at = '2026-11-24T16:55:00Z';
  h.quotes('mkta', NYC, DAY, at, [
    ['49°F or below', 0.01, 0.99],
    ['50-51°F', 0.02, 0.98],
    ['52-53°F', 0.03, 0.97],
    ['54-55°F', 0.4, 0.62],
    ['56-57°F', 0.2, 0.81],
    ['58°F or higher', 0.05, 0.96],
  ]);
  h.quotes('mktb', NYC, DAY, at, [
    ['49°F or below', 0.01, 0.99],
    ['50-51°F', 0.02, 0.98],
    ['52-53°F', 0.03, 0.97],
    ['54-55°F', 0.44, 0.54],
    ['56-57°F', 0.23, 0.78],
    ['58°F or higher', 0.08, 0.929],
  ]);
  return h.cache;
}
