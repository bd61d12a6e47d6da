import { fusionLock, type HandCache, NYC, no24 } from '../helpers/cache-builder.js';

/**
 * One New York day built by hand for the selected city's detail (board/city-detail.ts), every figure the test's own.
 * Now is 20:00Z on 2026-11-24: 15:00 in New York (UTC-5).
 *
 * - desk: N(21, 1) °C, fetched 19:35Z; the models' warmest 23 °C (no BREAKTHROUGH: 19.5 °C is under it)
 * - METAR (whole °C, °F converted): 17:00Z 19 °C, 18:00Z 20 °C, 19:00Z 19 °C, 19:30Z 20 °C: the running high 20 °C =
 *   68.0 °F, first reached at 18:00Z (13:00 local); the newest 20 °C at 19:30Z (14:30 local)
 * - mkta at 19:50Z (after the desk's run: comparable): 65°F or below 0.01/0.99, 66-67°F 0.01/0.99, 68-69°F 0.30/0.72,
 *   70-71°F 0.36/0.66, 72°F or higher 0.30/0.72 (YES/NO)
 * - mktb at 19:20Z, before the desk's run of 19:35Z: `stale prices` (DESIGN 4): 70-71°F 0.45/0.57, 72°F or higher
 *   0.25/0.77
 * - a no24 NO on 72°F or higher, 20 shares at 0.70 (stake 14.00); a fusion lock YES 70-71°F, 40 tokens at 0.25 (stake
 *   10.00), locked at 19:00Z (14:00 local) with peak hour 14
 */
export const DETAIL_NOW = Date.parse('2026-11-24T20:00:00Z');
export const DETAIL_DAY = '2026-11-24';

export function detailDay(hand: HandCache): HandCache {
  return hand
    .cities(NYC)
    .forecast(NYC, DETAIL_DAY, { mu_c: 21, sigma_c: 1, at: '2026-11-24T19:35:00Z', tmax_max_c: 23 })
    .metar(NYC, DETAIL_DAY, [
      ['2026-11-24T17:00:00Z', 19],
      ['2026-11-24T18:00:00Z', 20],
      ['2026-11-24T19:00:00Z', 19],
      ['2026-11-24T19:30:00Z', 20],
    ])
    .quotes('mkta', NYC, DETAIL_DAY, '2026-11-24T19:50:00Z', [
      ['65°F or below', 0.01, 0.99],
      ['66-67°F', 0.01, 0.99],
      ['68-69°F', 0.3, 0.72],
      ['70-71°F', 0.36, 0.66],
      ['72°F or higher', 0.3, 0.72],
    ])
    .quotes('mktb', NYC, DETAIL_DAY, '2026-11-24T19:20:00Z', [
      ['70-71°F', 0.45, 0.57],
      ['72°F or higher', 0.25, 0.77],
    ])
    .records(
      'no24',
      no24({ id: 12, city_id: 'nyc', local_date: DETAIL_DAY, bucket_label: '72°F or higher', shares: 20, ask: 0.7 }),
    )
    .locks(
      fusionLock({
        id: 'L-nyc',
        city_id: 'nyc',
        local_date: DETAIL_DAY,
        peak_hour: 14,
        locked_at: '2026-11-24T19:00:00Z',
        bucket_label: '70-71°F',
        yes_price: 0.25,
        tokens: 40,
      }),
    );
}

/**
 * The detail's lines under its title for this day at 15:00, as the unit test works each figure out by hand
 * (test/tui/panes/board/city-detail.unit.test.ts) and the pseudo-terminal shows them (test/e2e/city-detail.test.ts).
 */
export const DETAIL_LINES = [
  '  METAR 68.0°F at 14:30 · last 3: 68.0 → 66.2 → 68.0°F · high 68.0°F set 13:00',
  '  next edge 69.8°F (+1.8) to leave 68-69°F · p 0.741 it settles above',
  '  peak 14:00 (1.0 h ago) · peak phase to 16:00 (in 1.0 h) · lock YES 70-71°F 14:00, settles 00:00 (in 9.0 h)',
  '  70-71°F         favourite held p 0.410  mkta bid 0.340 ask 0.360 · mktb bid 0.430 ask 0.450 stale prices',
  '  72°F or higher  held           p 0.331  mkta bid 0.280 ask 0.300 · mktb bid 0.230 ask 0.250 stale prices',
  '  positions 2 · staked 24.00 · P&L +4.80',
  '    no24 NO 72°F or higher       stake    14.00  P&L +0.40',
  '    lock YES 70-71°F             stake    10.00  P&L +4.40',
  '  New York City: best edge +4.0 YES 70-71°F 0.36 mkta · min-0.10 mkta record: n < 10',
];
