import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportBoard } from '../../src/board/board-export.js';
import { readBoard } from '../../src/board/read-board.js';
import { openCache } from '../../src/cache/index.js';
import { boardColumns, boardLine } from '../../src/tui/panes/board/board-columns.js';
import { forecastData } from '../../src/tui/panes/forecasts/forecast-read.js';
import { payoffSection } from '../../src/tui/panes/forecasts/forecast-sections.js';
import { fusionLock, HandCache, NYC, no24, svcMaxPick } from '../helpers/cache-builder.js';

/*
 * A settled day on the board (issue 32, item 3), on a New York day written by hand. 2026-11-24 in New York (UTC-5)
 * runs from 05:00Z to 05:00Z on the 25th.
 *
 * - the desk N(12.5, 1) °C fetched at 13:00Z; mkta's snapshot at 22:00Z (17:00 local), yes / no:
 *   51°F or below .01/.99, 52-53°F .02/.97, 54-55°F .70/.32, 56-57°F .20/.81, 58°F or higher .05/.96
 * - METAR 15:00Z 11 °C, 19:00Z 13 °C, 22:00Z 12 °C: the day's high 13 °C = 55.4 °F, which settles at 55 (DESIGN 4):
 *   `54-55°F` wins (it holds 12 °C = 53.6 -> 54 and 13 °C = 55.4 -> 55); every other bucket loses
 * - held, each stored as the cache keeps it now, settled:
 *   no24 record 1, NO 54-55°F, 12.5 shares at 0.80 = 10.00 staked (a loss)
 *   svc-max-picks record 2, YES 54-55°F, entry hour 11 (16:00Z), 16 shares at 0.625 = 10.00 (a win)
 *   the fusion lock, YES 56-57°F, locked at 20:00Z (15:00 local), 20 tokens at 0.25 = 5.00 (a miss at 13 °C)
 *
 * Settled at 55, a share pays 1 USD if its side won: the NO on 54-55 pays 0 (-10.00), the YES on 54-55 pays 16
 * (+6.00), the YES on 56-57 pays 0 (-5.00): staked 25.00, P&L -9.00.
 */
const DAY = '2026-11-24';
const at = (iso: string) => Date.parse(iso);
const AFTER = at('2026-11-25T06:00:00Z'); // 01:00 local the next day: the day is over
const LAST_MINUTE = at('2026-11-25T04:59:00Z'); // 23:59 local on the day itself

let hand: HandCache;
beforeEach(() => {
  hand = new HandCache(openCache(':memory:'));
});
afterEach(() => hand.cache.close());

function fill(lockResolved: boolean): void {
  hand
    .cities(NYC)
    .forecast(NYC, DAY, { mu_c: 12.5, sigma_c: 1, at: `${DAY}T13:00:00Z` })
    .quotes('mkta', NYC, DAY, `${DAY}T22:00:00Z`, [
      ['51°F or below', 0.01, 0.99],
      ['52-53°F', 0.02, 0.97],
      ['54-55°F', 0.7, 0.32],
      ['56-57°F', 0.2, 0.81],
      ['58°F or higher', 0.05, 0.96],
    ])
    .metar(NYC, DAY, [
      [`${DAY}T15:00:00Z`, 11],
      [`${DAY}T19:00:00Z`, 13],
      [`${DAY}T22:00:00Z`, 12],
    ])
    .records(
      'no24',
      no24({
        id: 1,
        city_id: 'nyc',
        local_date: DAY,
        bucket_label: '54-55°F',
        shares: 12.5,
        ask: 0.8,
        outcome: 'loss',
      }),
    )
    .records(
      'svc-max-picks',
      svcMaxPick({
        id: 2,
        city_id: 'nyc',
        local_date: DAY,
        bucket_label: '54-55°F',
        shares: 16,
        ask: 0.625,
        outcome: 'win',
        entry_hour: 11,
      }),
    )
    .locks(
      fusionLock({
        id: 'lock-24',
        city_id: 'nyc',
        local_date: DAY,
        peak_hour: 15,
        locked_at: `${DAY}T20:00:00Z`,
        bucket_label: '56-57°F',
        yes_price: 0.25,
        tokens: 20,
        ...(lockResolved ? { hit: false, actual_c: 13 } : {}),
      }),
    );
}

const boardAt = (atMs: number) => readBoard(hand.cache, [NYC], atMs, {}, new Map(), { date: DAY, asOf: atMs })[0];

describe('a settled day on the board (board/settled-day.ts)', () => {
  it('shows its outcome: the winning bucket, every other dead, no next, the P&L of what was held', () => {
    fill(true);
    const row = boardAt(AFTER);
    expect(row?.buckets.map((b) => [b.label, b.p, b.dead])).toEqual([
      ['51°F or below', 0, true],
      ['52-53°F', 0, true],
      ['54-55°F', 1, false],
      ['56-57°F', 0, true],
      ['58°F or higher', 0, true],
    ]);
    expect([row?.phase, row?.runningHighC, row?.next, row?.best, row?.settled]).toEqual([
      'settled',
      13,
      null,
      null,
      55,
    ]);
    // the winner is the ladder's favourite, held by both records; the lock's 56-57 held and dead
    expect(row?.ladder.map((c) => [c.state, c.held])).toEqual([
      ['dead', false],
      ['dead', false],
      ['favourite', true],
      ['dead', true],
      ['dead', false],
    ]);
    expect([row?.positions, row?.exposure, row?.pnl, row?.flags]).toEqual([3, 25, -9, []]);

    // the board's line as the TUI draws it: high 55.4 and no next, the ladder, no edge, staked and P&L
    const line = (row ? boardLine(row, boardColumns([row], 160)) : [])
      .map((s) => s.text)
      .join('')
      .replace(/ +/g, ' ');
    // 01:00 the day after its midnight: +1d
    expect(line).toBe('New York City +1d 01:00 settled 54.5±1.8°F 3.6 55.4 — xx[*][x]x — 25.00 -9.00 ');

    // export board reads the same row: the same outcome, fields and figures
    const [city] = exportBoard(hand.cache, { atMs: AFTER, replay: true, date: DAY, cities: [NYC] });
    expect([city?.phase, city?.next, city?.best_edge, city?.staked, city?.pnl, city?.flags]).toEqual([
      'settled',
      null,
      null,
      25,
      -9,
      [],
    ]);
    expect(city?.buckets.map((b) => [b.bucket_label, b.p, b.dead, b.held])).toEqual([
      ['51°F or below', 0, true, false],
      ['52-53°F', 0, true, false],
      ['54-55°F', 1, false, true],
      ['56-57°F', 0, true, true],
      ['58°F or higher', 0, true, false],
    ]);
  });

  it('a minute before its midnight the day still runs: priced by the forecast, the book at mkta', () => {
    fill(true);
    const row = boardAt(LAST_MINUTE);
    // 13 °C sits in 54-55; 14 °C = 57.2 °F is the next to leave it: 57.2 - 55.4 = 1.8
    expect([row?.phase, row?.next?.toFixed(1)]).toEqual(['passed', '1.8']);
    // X ~ N(12.5, 1) given X >= 12.5 (P = 0.5): 54-55 holds 12.5 <= X < 13.5: (Phi(1) - 0.5) / 0.5 = 0.682689
    expect(row?.buckets[2]?.p).toBeCloseTo(0.682689, 6);
    // at mkta: NO 12.5 x 0.32 - 10 = -6.00; YES 16 x 0.70 - 10 = +1.20; lock 20 x 0.20 - 5 = -1.00: -5.80
    expect([row?.positions, row?.exposure, row?.pnl]).toEqual([3, 25, -5.8]);
  });

  it('without a resolved lock the day is settled by its METAR high: passed, its outcome shown all the same', () => {
    // the lock never resolved in this cache (synced before it did): DESIGN 4's phase stays passed, but the day's
    // METAR high is complete past its midnight and decides (55: 54-55°F), the lock held through the end a miss
    fill(false);
    const row = boardAt(AFTER);
    expect(row?.buckets.map((b) => b.p)).toEqual([0, 0, 1, 0, 0]);
    expect([row?.phase, row?.next, row?.settled]).toEqual(['passed', null, 55]);
    expect([row?.positions, row?.exposure, row?.pnl]).toEqual([3, 25, -9]);
  });
});

describe("a settled day's payoff by outcome (Forecasts)", () => {
  it('lists what was held through the day, the bucket it settled in the one alive', () => {
    fill(true);
    const read = forecastData(hand.cache, { city: NYC, nowMs: AFTER, settlement: {}, date: DAY });
    let step = read.next();
    while (!step.done) step = read.next();
    const view = step.value;
    expect(view?.holdings).toHaveLength(3);
    const text = payoffSection({ ...(view as NonNullable<typeof view>), unit: 'F' }).map((l) =>
      l
        .map((s) => s.text)
        .join('')
        .replace(/ +/g, ' ')
        .trim(),
    );
    // settled at 55: the NO on 54-55 pays 12.5 wherever 54-55 loses, the YES 16 where it wins, the lock 20 on 56-57
    expect(text).toEqual([
      'PAYOFF BY OUTCOME 3 held through the day, 25.00 USD staked: it settled at 55°F',
      'bucket held pays P&L',
      '51°F or below 12.50 -12.50 dead',
      '52-53°F 12.50 -12.50 dead',
      '54-55°F 2 NO+YES 16.00 -9.00 settled here',
      '56-57°F YES 32.50 +7.50 dead',
      '58°F or higher 12.50 -12.50 dead',
    ]);
  });
});
