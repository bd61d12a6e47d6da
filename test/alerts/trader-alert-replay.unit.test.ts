import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReplayChains, replayTraderAlerts } from '../../src/alerts/trader-alert-replay.js';
import { type Cache, readNow } from '../../src/cache/index.js';
import { PARIS } from '../helpers/cache-builder.js';
import { REPLAY_DAY, REPLAY_PICK, repricedReplayDay } from '../helpers/replay-day.js';

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
  cache = repricedReplayDay();
});
afterEach(() => cache.close());

const at = (hhmm: string) => Date.parse(`${REPLAY_DAY}T${hhmm}:00Z`);
const alertsAt = (chains: ReplayChains, atMs: number) =>
  readNow(replayTraderAlerts(cache, [PARIS], { atMs, date: REPLAY_DAY }, 0.08, {}, chains)).map((a) => [
    a.created_at,
    a.kind,
    a.message,
  ]);

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
    const chains = new ReplayChains();
    expect(alertsAt(chains, at('09:59'))).toEqual([]);
    expect(alertsAt(chains, at('10:30'))).toEqual([DIED_10]);
    expect(alertsAt(chains, at('11:30'))).toEqual([...AT_11, DIED_10]);
    expect(alertsAt(chains, at('12:00'))).toEqual([...AT_12, ...AT_11, DIED_10]);
  });

  it('the same instant gives the same alerts however it was reached; a step back forgets what came after', () => {
    const stepped = new ReplayChains();
    for (const hhmm of ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00']) alertsAt(stepped, at(hhmm));
    expect(alertsAt(stepped, at('12:00'))).toEqual(alertsAt(new ReplayChains(), at('12:00')));
    expect(alertsAt(stepped, at('10:30'))).toEqual([DIED_10]);
  });

  it('between two steps, adds what the rules raise at the instant itself, from the step before it', () => {
    // 11:20Z: the 11:00Z step's alerts, and at 11:20Z itself none again
    expect(alertsAt(new ReplayChains(), at('11:20'))).toEqual([...AT_11, DIED_10]);
    // 10:45Z: the 10:30Z step raised nothing new, nor does 10:45Z
    expect(alertsAt(new ReplayChains(), at('10:45'))).toEqual([DIED_10]);
  });

  it('stores nothing: the cache keeps its one alert, the kill', () => {
    alertsAt(new ReplayChains(), at('12:00'));
    expect(cache.alerts.counts()).toEqual({ unacknowledged: 1, kills: 1 });
    expect(cache.alerts.older('other', null, 10)).toEqual([]);
  });

  it('yields after each half hour it runs: no step of the read runs the rules more than once', () => {
    // each rule step reads the city's book once (positions.openOfDay): count them between yields
    const books = vi.spyOn(cache.positions, 'openOfDay');
    const read = replayTraderAlerts(cache, [PARIS], { atMs: at('12:00'), date: REPLAY_DAY }, 0.08, {});
    let yields = 0;
    let most = 0;
    for (let step = read.next(); !step.done; step = read.next()) {
      yields++;
      most = Math.max(most, books.mock.calls.length);
      books.mockClear();
    }
    // Paris's day starts at 23:00Z the day before (UTC+1): 23:00Z to 12:00Z, 13 hours at two steps an hour plus the
    // step at 12:00Z itself = 27 steps, one yield after each
    expect(yields).toBe(27);
    expect(most).toBe(1);
    // 11:20Z: the 25 steps from 23:00Z to 11:00Z, then the instant itself from the 11:00Z step = 26
    let between = 0;
    const read2 = replayTraderAlerts(cache, [PARIS], { atMs: at('11:20'), date: REPLAY_DAY }, 0.08, {});
    for (let step = read2.next(); !step.done; step = read2.next()) between++;
    expect(between).toBe(26);
  });

  it('a read stopped part way keeps only whole steps: the next read goes on from them to the same alerts', () => {
    const chains = new ReplayChains();
    const read = replayTraderAlerts(cache, [PARIS], { atMs: at('12:00'), date: REPLAY_DAY }, 0.08, {}, chains);
    // 23:00Z to 10:30Z (24 steps), then stopped as a cancelled slice stops it
    for (let i = 0; i < 24; i++) read.next();
    read.return([]);
    expect(alertsAt(chains, at('12:00'))).toEqual([...AT_12, ...AT_11, DIED_10]);
  });
});
