import { type Cache, openCache } from '../../src/cache/index.js';
import { cLeg, fusionLock, HandCache, PARIS, pickEvent } from './cache-builder.js';

/**
 * One Paris market day written by hand for time travel (DESIGN 3 `t`, `--at`): every row has its own instant, every
 * figure is this file's own, none comes from the simulated world. Paris is UTC+1 in November: 2026-11-20 runs from
 * 2026-11-19T23:00Z to 2026-11-20T23:00Z.
 *
 * - the desk N(12, 1) °C fetched at 06:00Z (07:00 local); mkta's snapshot at 06:30Z (and, with
 *   `repriceAtReadings`, again at 10:00Z, 11:00Z and 12:00Z at the same prices):
 *   10°C or below .10/.92, 11°C .20/.82, 12°C .40/.62, 13°C .20/.82, 14°C or higher .10/.92
 * - METAR (history): 07:00Z 8 °C, 09:00Z 10, 10:00Z 11, 11:00Z 12, 12:00Z 13
 * - the insurance pick REPLAY_PICK (legs A 10°C, B 11°C) created at 08:00Z (09:00 local), killed at 11:10Z (12:10
 *   local; the kill's alert is raised at its receipt then, and never acknowledged)
 * - the fusion lock of the day, peak hour 14, locked at 13:00Z on 13°C, resolved: a hit at 13 °C
 *
 * The cache's span: from the desk's fetch (06:00Z) to the lock (13:00Z).
 */
export const REPLAY_DAY = '2026-11-20';
export const REPLAY_PICK = '55555555-5555-4555-8555-555555555555';
export const REPLAY_SPAN = 'the cache spans 2026-11-20T06:00:00Z to 2026-11-20T13:00:00Z';

/** mkta's prices of the day, the same at every snapshot. */
const MKTA: [string, number, number][] = [
  ['10°C or below', 0.1, 0.92],
  ['11°C', 0.2, 0.82],
  ['12°C', 0.4, 0.62],
  ['13°C', 0.2, 0.82],
  ['14°C or higher', 0.1, 0.92],
];

export function replayDay(h: HandCache): Cache {
  const d = REPLAY_DAY;
  h.cities(PARIS);
  h.forecast(PARIS, d, { mu_c: 12, sigma_c: 1, at: `${d}T06:00:00Z` });
  h.quotes('mkta', PARIS, d, `${d}T06:30:00Z`, MKTA);
  h.metar(PARIS, d, [
    [`${d}T07:00:00Z`, 8],
    [`${d}T09:00:00Z`, 10],
    [`${d}T10:00:00Z`, 11],
    [`${d}T11:00:00Z`, 12],
    [`${d}T12:00:00Z`, 13],
  ]);
  h.locks(
    fusionLock({
      id: 'L-paris-1120',
      city_id: 'paris',
      local_date: d,
      peak_hour: 14,
      locked_at: `${d}T13:00:00Z`,
      bucket_label: '13°C',
      yes_price: 0.4,
      tokens: 10,
      hit: true,
      actual_c: 13,
    }),
  );
  const pick = { pickId: REPLAY_PICK, city: PARIS, date: d, legs: [cLeg('A', 10), cLeg('B', 11)] };
  h.deliver([pickEvent('insurance.pick.created', { ...pick, at: `${d}T08:00:00Z` })]);
  h.deliver([
    pickEvent('insurance.pick.killed', {
      ...pick,
      at: `${d}T11:10:00Z`,
      reason: 'METAR high so far 12°C is above every leg',
    }),
  ]);
  return h.cache;
}

/**
 * mkta snapshotted again, at the same prices, at each reading from 10:00Z on (10:00Z, 11:00Z, 12:00Z): prices no older
 * than the reading that set the running high, which the board needs before it offers an edge. Without them the one
 * 06:30Z snapshot predates every reading that moved the high, and offers nothing from 07:00Z on.
 */
export function repriceAtReadings(h: HandCache): void {
  for (const hhmm of ['10:00', '11:00', '12:00'])
    h.quotes('mkta', PARIS, REPLAY_DAY, `${REPLAY_DAY}T${hhmm}:00Z`, MKTA);
}

/** The day in an in-memory cache (the unit tier's), mkta snapshotted again at each reading (repriceAtReadings). */
export function repricedReplayDay(): Cache {
  const h = new HandCache(openCache(':memory:'));
  const cache = replayDay(h);
  repriceAtReadings(h);
  return cache;
}
