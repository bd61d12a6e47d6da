import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { boardCityOf } from '../../src/board/board-export.js';
import { boardRow } from '../../src/board/board-row.js';
import { HELD, marketDay, NEW_YORK, NO_BOOK, PARIS, primary, quote, range } from './fixtures.js';

/**
 * DESIGN 3: numbers carry the precision they mean in `export board`: probabilities, prices and edges 4 decimals,
 * temperatures, `spread` and `next` 2, money 2 (issue 44 item 8: never `"next": 3.6000000000000014` or
 * `"spread": 1.4444444444444444`).
 */
describe('export board writes each number at its precision (board/board-export.ts)', () => {
  it('rounds next, p and the best edge of a °F day (New York, priced-day.unit.test.ts works them out)', () => {
    const row = boardRow(boardDay(NEW_YORK), HELD);
    // next: 12 °C (53.6 °F) sits in 54-55°F with 13 °C; 14 °C = 57.2 °F leaves it: 57.2 - 53.6, in floating point
    // 3.6000000000000014
    expect(row.next).not.toBe(3.6);
    const city = boardCityOf(row);
    expect(city.next).toBe(3.6);
    // p 0, 0, 0.811427, 0.161533, 0.027040 and the unreadable label's null
    expect(city.buckets.map((b) => b.p)).toEqual([0, 0, 0.8114, 0.1615, 0.027, null]);
    // 54-55°F YES on mkta at 0.70: 0.811427 - 0.70 - 0.01 = 0.101427
    expect(city.best_edge).toEqual({ venue: 'mkta', bucket_slug: '54-55°F', side: 'YES', price: 0.7, edge: 0.1014 });
    // the desk's °F aliases: 12.5 °C = 54.5 °F, 1 °C = 1.8 °F; the running high a whole °C
    expect([city.mu_c, city.sigma_c, city.mu, city.sigma, city.running_high_c]).toEqual([12.5, 1, 54.5, 1.8, 12]);
    // money to the cent (board-row.unit.test.ts: 3 + 10 staked, -2.80 + 18.00)
    expect([city.staked, city.pnl]).toEqual([13, 15.2]);
  });

  it("rounds a °C market's spread, converted from the models' °F spread, and the desk's aliases", () => {
    // the models' spread 2.6 °F = 2.6 x 5 / 9 = 1.4444... °C; the desk's N(12.347, 0.8765) °C as cached
    const day = boardDay(
      marketDay({
        city: PARIS,
        forecast: primary(12.347, 0.8765),
        range: range(55, 12.78, 2.6),
        highC: null,
        mkta: [quote('12°C or below', 0.3337, 0.66666)],
      }),
    );
    expect(day.spread).not.toBe(1.44);
    const city = boardCityOf(boardRow(day, NO_BOOK));
    expect(city.spread).toBe(1.44);
    // 12.347 -> 12.35, 0.8765 -> 0.88
    expect([city.mu_c, city.sigma_c]).toEqual([12.35, 0.88]);
    expect([city.mu, city.sigma]).toEqual([12.35, 0.88]);
    // prices 4 decimals: 0.66666 -> 0.6667
    expect(city.buckets[0]?.mkta).toMatchObject({ yes_price: 0.3337, no_price: 0.6667 });
    // 12°C or below: P(X < 12.5) under N(12.347, 0.8765) = Φ(0.153 / 0.8765 = 0.174558) = 0.569286: 4 decimals
    expect(city.buckets[0]?.p).toBe(0.5693);
  });
});
