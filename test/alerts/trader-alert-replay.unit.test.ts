import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Cache, openCache } from '../../../src/cache/index.js';
import { ReplayTraderAlerts } from '../../../src/tui/state/replay-trader-alerts.js';
import { HandCache, PARIS } from '../../helpers/cache-builder.js';
import { REPLAY_DAY, REPLAY_PICK, replayDay, repriceAtReadings } from '../../helpers/replay-day.js';

/**
 * Time travel's trader alerts on the Paris day of helpers/replay-day.ts: the desk N(12, 1), mkta's prices (from 10:00Z
 * snapshotted again at each reading, so no price is older than the high it is compared with) (10°C or below .10/.92, 11°C .20/.82, 12°C .40/.62, 13°C .20/.82, 14°C or higher .10/.92: each sums to 1.02, so
 * the cost is 0.01), the pick's YES legs on 10°C and 11°C (40 shares, 10 USD each) until its kill at 11:10Z. The
 * rules run at each half hour from the local midnight (23:00Z the day before). Worked by hand, edge_min 0.08:
 *
 * - before 10:00Z no side reaches 0.08 (from 07:00Z the 06:30Z prices predate the readings and offer nothing)
 * - 10:00Z, high 11 °C: 10°C died (held: a dying-bucket alert); P(X >= 10.5) = Phi(1.5) = 0.933193; NO 10°C or
 *   below 1 - 0.92 - 0.01 = 0.07, YES 11°C 0.241731 / 0.933193 - 0.21 = 0.049036: none reaches 0.08
 * - 11:00Z, high 12 °C: 11°C died (held: dying); P(X >= 11.5) = Phi(0.5) = 0.691462; NO 11°C 1 - 0.82 - 0.01 = 0.17,
 *   YES 12°C 0.382925 / 0.691462 - 0.41 = 0.143790 (model 55.4%), YES 13°C 0.241731 / 0.691462 - 0.21 = 0.139594
 *   (model 35.0%): the day's edge alert, once, on the best, NO 11°C
 * - 12:00Z, high 13 °C (the pick killed, nothing held but the lock's 13°C, not dead): P(X >= 12.5) = 0.308538;
 *   NO 12°C 1 - 0.62 - 0.01 = 0.37, YES 14°C or higher 0.066807 / 0.308538 - 0.11 = 0.106529 (model 21.7%): the day
 *   has had its edge alert, so nothing
 */
let cache: Cache;
beforeEach(() => {
  const h = new HandCache(openCache(':memory:'));
  cache = replayDay(h);
  repriceAtReadings(h);
});
afterEach(() => cache.close());

const at = (hhmm: string) => Date.parse(`${REPLAY_DAY}T${hhmm}:00Z`);
const alertsAt = (model: ReplayTraderAlerts, atMs: number) =>
  model.at(cache, [PARIS], { atMs, date: REPLAY_DAY }, 0.08, {}).map((a) => [a.created_at, a.kind, a.message]);

const DIED_10 = [
  '2026-11-20T10:00:00Z',
  'dying-bucket',
  `paris 2026-11-20: held bucket 10°C died, METAR high so far 11.0°C settles at 11°C or more; YES 40 shares, 10.00 USD staked (insurance ${REPLAY_PICK})`,
];
const AT_11 = [
  [
    '2026-11-20T11:00:00Z',
    'dying-bucket',
    `paris 2026-11-20: held bucket 11°C died, METAR high so far 12.0°C settles at 12°C or more; YES 40 shares, 10.00 USD staked (insurance ${REPLAY_PICK})`,
  ],
  ['2026-11-20T11:00:00Z', 'edge', 'paris 2026-11-20: edge +17.0 points on NO 11°C at 0.82 on mkta (model 100.0%)'],
];
/** 12:00Z raises nothing: the day's edge alert came at 11:00Z. */
const AT_12: string[][] = [];

describe('time travel’s trader alerts', () => {
  it('are what the rules raise at each half hour up to the instant, newest first, each rule once as it would live', () => {
    const model = new ReplayTraderAlerts();
    expect(alertsAt(model, at('09:59'))).toEqual([]);
    expect(alertsAt(model, at('10:30'))).toEqual([DIED_10]);
    expect(alertsAt(model, at('11:30'))).toEqual([...AT_11, DIED_10]);
    expect(alertsAt(model, at('12:00'))).toEqual([...AT_12, ...AT_11, DIED_10]);
  });

  it('the same instant gives the same alerts however it was reached; a step back forgets what came after', () => {
    const stepped = new ReplayTraderAlerts();
    for (const hhmm of ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00']) alertsAt(stepped, at(hhmm));
    expect(alertsAt(stepped, at('12:00'))).toEqual(alertsAt(new ReplayTraderAlerts(), at('12:00')));
    expect(alertsAt(stepped, at('10:30'))).toEqual([DIED_10]);
  });

  it('between two steps, adds what the rules raise at the instant itself, from the step before it', () => {
    // 11:20Z: the 11:00Z step's alerts, and at 11:20Z itself none again
    expect(alertsAt(new ReplayTraderAlerts(), at('11:20'))).toEqual([...AT_11, DIED_10]);
    // 10:45Z: the 10:30Z step raised nothing new, nor does 10:45Z
    expect(alertsAt(new ReplayTraderAlerts(), at('10:45'))).toEqual([DIED_10]);
  });

  it('stores nothing: the cache keeps its one alert, the kill', () => {
    alertsAt(new ReplayTraderAlerts(), at('12:00'));
    expect(cache.alerts.counts()).toEqual({ unacknowledged: 1, kills: 1 });
    expect(cache.alerts.older('other', null, 10)).toEqual([]);
  });
});
