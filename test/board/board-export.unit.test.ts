import { describe, expect, it } from 'vitest';
import { boardDay } from '../../src/board/board-day.js';
import { boardCityOf, boardCsvRecords } from '../../src/board/board-export.js';
import { boardRow, type DayBook } from '../../src/board/board-row.js';
import type { MarketDay } from '../../src/board/market-day.js';
import { BOARD_CITY_FIELDS, HELD, marketDay, NO_BOOK, primary, quote } from './fixtures.js';

/**
 * New York (°F), N(12.5, 1) °C, METAR high 12 °C: 52-53°F dead (holds 11 °C), 54-55°F (12 and 13 °C) 0.811427,
 * 56-57°F (14 °C) 0.161533, a label the monitor cannot read (worked in priced-day.unit.test.ts).
 */
const DAY_OF = (over: Parameters<typeof marketDay>[0] = {}) =>
  marketDay({
    highC: 12,
    mkta: [
      quote('52-53°F', 0.02, 0.97, '52-53f'),
      quote('54-55°F', 0.7, 0.32, '54-55f'),
      quote('56-57°F', 0.1, 0.91, '56-57f'),
    ],
    mktb: [quote('54-55°F', 0.75, 0.27, '54-55f'), quote('Over 60 F', 0.01, 0.99, 'over-60f')],
    ...over,
  });

/** The board's row of a market day with a book (board-row.ts): what `export board` writes a city from. */
const ROW_OF = (day: MarketDay, book: DayBook = NO_BOOK) => boardRow(boardDay(day), book);

/**
 * New York's own fields: 12:00 on its day, its forecast's aliases and in °F (12.5 °C = 54.5 °F, 1 °C = 1.8 °F), no
 * models' range cached, its running high (12 °C, 53.6 °F, in 54-55°F; 14 °C = 57.2 °F is the first value leaving it:
 * next 57.2 - 53.6 = 3.6), no book.
 */
const CITY = {
  city_id: 'nyc',
  city_name: 'New York City',
  local_date: '2026-11-24',
  local_time: '12:00',
  phase: 'peak',
  unit: 'F',
  mu_c: 12.5,
  sigma_c: 1,
  mu: 54.5,
  sigma: 1.8,
  spread: null,
  running_high_c: 12,
  // 57.2 - 53.6 = 3.6000000000000014 in floating point: 2 decimals (DESIGN 3)
  next: 3.6,
  behind: null,
  staked: 0,
  pnl: null,
  // 54-55°F: mkta sells YES at 0.70 (0.70 + 0.32 = 1.02: cost 0.01), mktb bids 1 - 0.27 = 0.73 for it (0.75 + 0.27 =
  // 1.02: cost 0.01), both snapshots of 16:55Z: 0.73 - 0.70 - 0.01 - 0.01 = 0.01 > 0, a venue cross (issue 45)
  flags: ['CROSS'],
};

describe('export board (DESIGN 3)', () => {
  it('writes a city as DESIGN 3 names its fields: buckets with p, dead and both venues, the best edge', () => {
    const city = boardCityOf(ROW_OF(DAY_OF()));
    expect(Object.keys(city)).toEqual(BOARD_CITY_FIELDS);
    expect(city).toMatchObject(CITY);
    expect(city.buckets.map((b) => [b.bucket_slug, b.bucket_label, b.low, b.high, b.dead, b.held])).toEqual([
      ['52-53f', '52-53°F', 52, 53, true, false],
      ['54-55f', '54-55°F', 54, 55, false, false],
      ['56-57f', '56-57°F', 56, 57, false, false],
      ['over-60f', 'Over 60 F', null, null, false, false],
    ]);
    // 0.811427 and 0.161533 at DESIGN 3's 4 decimals
    expect(city.buckets.map((b) => b.p)).toEqual([0, 0.8114, 0.1615, null]);
    expect(city.buckets[1]?.mkta).toEqual({ yes_price: 0.7, no_price: 0.32, snapshot_at: '2026-11-24T16:55:00Z' });
    expect(city.buckets[1]?.mktb).toEqual({ yes_price: 0.75, no_price: 0.27, snapshot_at: '2026-11-24T16:55:00Z' });
    expect(city.buckets[0]?.mktb).toBeNull();
    // 54-55°F YES on mkta: 0.811427 - 0.70 - 0.01 = +0.101427, 4 decimals
    expect(city.best_edge).toEqual({ venue: 'mkta', bucket_slug: '54-55f', side: 'YES', price: 0.7, edge: 0.1014 });
  });

  it('carries what the row shows of the book: the buckets held, the stake, the P&L at mkta, the flags', () => {
    // yescore YES 52-53°F (10 shares for 3.00) and a lock on 54-55°F (40 tokens at 0.25), marked at mkta: 10 x 0.02 -
    // 3 = -2.80 and 40 x 0.70 - 10 = +18.00, so +15.20 on 13 staked; 52-53°F (11 °C) died at 12 °C: DEAD
    // (the book's records name their buckets by the labels, as these quotes' slugs do)
    const mkta = [quote('52-53°F', 0.02, 0.97), quote('54-55°F', 0.7, 0.32), quote('56-57°F', 0.1, 0.91)];
    const mktb = [quote('54-55°F', 0.75, 0.27), quote('Over 60 F', 0.01, 0.99)];
    const city = boardCityOf(ROW_OF(DAY_OF({ mkta, mktb }), HELD));
    expect(city.buckets.map((b) => [b.bucket_label, b.held])).toEqual([
      ['52-53°F', true],
      ['54-55°F', true],
      ['56-57°F', false],
      ['Over 60 F', false],
    ]);
    // and 54-55°F crosses, as in CITY
    expect([city.staked, city.pnl, city.flags]).toEqual([13, 15.2, ['DEAD', 'CROSS']]);
  });

  it('says which side is behind when a price and the model are of different instants, and offers no edge', () => {
    // the snapshots of 16:55Z against METAR and forecasts held up to 16:50Z (DESIGN 4)
    const city = boardCityOf(ROW_OF(DAY_OF({ modelKnownUntilMs: Date.parse('2026-11-24T16:50:00Z') })));
    expect([city.behind, city.best_edge]).toEqual(['model', null]);
    expect(city.buckets[1]?.p).toBe(0.8114);
  });

  it('an unusable forecast: p and the best edge null, never NaN; the aliases as cached', () => {
    const zero = boardCityOf(ROW_OF(DAY_OF({ forecast: primary(12.5, 0) })));
    expect([zero.mu_c, zero.sigma_c]).toEqual([12.5, 0]);
    expect(zero.buckets.map((b) => b.p)).toEqual([null, null, null, null]);
    expect(zero.best_edge).toBeNull();
    const missing = boardCityOf(ROW_OF(DAY_OF({ forecast: null })));
    expect([missing.mu_c, missing.sigma_c, missing.best_edge]).toEqual([null, null, null]);
    expect(JSON.stringify([zero, missing])).not.toContain('NaN');
  });

  it('open ends are null; buckets laid out around the forecast are not the venues’ and are not listed', () => {
    const tails = boardCityOf(
      ROW_OF(DAY_OF({ mkta: [quote('51°F or below', 0.01, 0.99), quote('58°F or higher', 0.01, 0.99)], mktb: [] })),
    );
    expect(tails.buckets.map((b) => [b.low, b.high])).toEqual([
      [null, 51],
      [58, null],
    ]);
    expect(boardCityOf(ROW_OF(DAY_OF({ mkta: [], mktb: [] }))).buckets).toEqual([]);
  });

  it('as CSV: one record a bucket, the city repeated, the venues and the best edge flattened', () => {
    const [first, , , last] = boardCsvRecords([boardCityOf(ROW_OF(DAY_OF()))]);
    expect(first).toEqual({
      ...CITY,
      bucket_slug: '52-53f',
      bucket_label: '52-53°F',
      low: 52,
      high: 53,
      p: 0,
      dead: true,
      held: false,
      mkta_yes_price: 0.02,
      mkta_no_price: 0.97,
      mkta_snapshot_at: '2026-11-24T16:55:00Z',
      mktb_yes_price: null,
      mktb_no_price: null,
      mktb_snapshot_at: null,
      best_edge_venue: 'mkta',
      best_edge_bucket_slug: '54-55f',
      best_edge_side: 'YES',
      best_edge_price: 0.7,
      best_edge_edge: 0.1014,
    });
    expect(last).toMatchObject({ bucket_label: 'Over 60 F', p: null, mkta_yes_price: null, mktb_yes_price: 0.01 });
    // a city with no bucket yet still has its record
    const empty = boardCsvRecords([boardCityOf(ROW_OF(DAY_OF({ mkta: [], mktb: [] })))]);
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ city_id: 'nyc', bucket_slug: null, p: null, dead: null, best_edge_venue: null });
  });
});
