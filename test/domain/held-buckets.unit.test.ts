import { describe, expect, it } from 'vitest';
import { dyingHoldings, holdingsOf } from '../../src/domain/held-buckets.js';
import type { Market } from '../../src/domain/settlement.js';

const F_METAR: Market = { unit: 'F', rule: 'metar_c' };

import type { OpenBook, PickPosition, TradePosition } from '../../src/domain/position-pnl.js';

const strategy = (id: number, side: 'YES' | 'NO', label: string, date = '2026-11-24') =>
  ({
    family: side === 'NO' ? 'no24' : 'yescore',
    record: {
      id,
      city_id: 'nyc',
      local_date: date,
      bucket_slug: `s${id}`,
      bucket_label: label,
      side,
      shares: 10,
      stake: 4,
    },
  }) as unknown as OpenBook<PickPosition, TradePosition>['strategies'][number];

const book: OpenBook<PickPosition, TradePosition> = {
  strategies: [
    strategy(1, 'NO', '64-65°F'),
    strategy(2, 'YES', '66-67°F'),
    strategy(3, 'YES', '66-67°F', '2026-11-23'),
  ],
  locks: [
    {
      id: 'L1',
      city_id: 'nyc',
      local_date: '2026-11-24',
      bucket_slug: 'x',
      bucket_label: '68-69°F',
      yes_price: 0.8,
      tokens: 50,
    },
  ] as unknown as OpenBook<PickPosition, TradePosition>['locks'],
  picks: [
    {
      pick_id: 'P1',
      parent_pick_id: null,
      city_id: 'nyc',
      market_date: '2026-11-24',
      legs: [
        { bucket_slug: 'a', bucket_label: '63°F or below', shares: 20, stake_usd: 2 },
        { bucket_slug: 'b', bucket_label: 'not a bucket', shares: 5, stake_usd: 1 },
      ],
    } as unknown as PickPosition,
  ],
  trades: [
    {
      engine_trade_id: 41,
      city_id: 'nyc',
      market_date: '2026-11-24',
      side: 'NO',
      bucket_label: '82°F or higher',
      entry: null,
    },
    {
      engine_trade_id: 42,
      city_id: 'nyc',
      market_date: '2026-11-24',
      side: 'YES',
      bucket_label: '70-71°F',
      entry: { price: 0.3, qty: 10, total_usd: 3 },
    },
  ],
  counts: { strategies: { no24: 1, yescore: 2, 'svc-max-picks': 0 }, locks: 1, picks: 1, trades: 2 },
};

describe('holdings of a city-day', () => {
  it('lists every open holding of the day whose label is a bucket, with its bounds', () => {
    const h = holdingsOf(book, 'nyc', '2026-11-24');
    expect(h.map((x) => [x.family, x.side, x.bucket.label, x.bucket.low, x.bucket.high, x.shares, x.stake])).toEqual([
      ['no24', 'NO', '64-65°F', 64, 65, 10, 4],
      ['yescore', 'YES', '66-67°F', 66, 67, 10, 4],
      // 0.8 x 50 tokens = 40 USD
      ['fusion-locks', 'YES', '68-69°F', 68, 69, 50, 40],
      ['insurance', 'YES', '63°F or below', -999, 63, 20, 2],
      ['edge', 'YES', '70-71°F', 70, 71, 10, 3],
    ]);
    // each ref is the record's own id, the one Positions shows: an edge trade's too (it was its bucket label)
    expect(h.map((x) => x.ref)).toEqual(['1', '2', 'L1', 'P1', '42']);
    expect(holdingsOf(book, 'nyc', '2026-11-23').map((x) => x.ref)).toEqual(['3']);
    expect(holdingsOf(book, 'lon', '2026-11-24')).toEqual([]);
  });

  it('a YES on a bucket the running high has passed is dying; a NO there has won', () => {
    const h = holdingsOf(book, 'nyc', '2026-11-24');
    // the whole-°C METAR lattice (DESIGN 4): the low tail holds 17 °C and under (17 °C = 62.6 -> 63), 64-65 holds
    // 18 °C (64.4 -> 64), 66-67 holds 19 °C (66.2 -> 66; nothing settles at 67), 68-69 holds 20 °C (68.0)
    // a running high of 20 °C (68 °F): 64-65, 66-67 and the low tail are dead; 64-65 is held NO, so only the YES die
    expect(dyingHoldings(h, F_METAR, 20).map((x) => x.bucket.label)).toEqual(['66-67°F', '63°F or below']);
    // 19 °C (66.2, settles at 66): 66-67 is still alive
    expect(dyingHoldings(h, F_METAR, 19).map((x) => x.bucket.label)).toEqual(['63°F or below']);
    expect(dyingHoldings(h, F_METAR, null)).toEqual([]);
    // a °C market is another market: none of these °F holdings is in it
    expect(dyingHoldings(h, { unit: 'C', rule: 'metar_c' }, 30)).toEqual([]);
  });
});
