import { describe, expect, it } from 'vitest';
import { marketBuckets } from '../../src/domain/buckets.js';
import { holdingsOf } from '../../src/domain/held-buckets.js';
import { payoffByOutcome } from '../../src/domain/payoff-by-outcome.js';
import type { OpenBook, PickPosition, TradePosition } from '../../src/domain/position-pnl.js';
import type { Market } from '../../src/domain/settlement.js';

type Book = OpenBook<PickPosition, TradePosition>;
const DAY = '2026-11-24';
const F_METAR: Market = { unit: 'F', rule: 'metar_c' };

/** One city-day: a YES, a NO, a two-leg pick and a lock, plus another day's YES that must not count. */
const book: Book = {
  strategies: [
    {
      family: 'yescore',
      record: {
        id: 1,
        city_id: 'nyc',
        local_date: DAY,
        bucket_slug: 'y',
        bucket_label: '68-69°F',
        side: 'YES',
        shares: 10,
        stake: 4,
      },
    },
    {
      family: 'no24',
      record: {
        id: 2,
        city_id: 'nyc',
        local_date: DAY,
        bucket_slug: 'n',
        bucket_label: '72-73°F',
        side: 'NO',
        shares: 20,
        stake: 15,
      },
    },
    {
      family: 'yescore',
      record: {
        id: 3,
        city_id: 'nyc',
        local_date: '2026-11-23',
        bucket_slug: 'o',
        bucket_label: '70-71°F',
        side: 'YES',
        shares: 99,
        stake: 9,
      },
    },
  ] as unknown as Book['strategies'],
  locks: [
    {
      id: 'L1',
      city_id: 'nyc',
      local_date: DAY,
      bucket_slug: 'l',
      bucket_label: '70-71°F',
      yes_price: 0.8,
      tokens: 50,
    },
  ] as unknown as Book['locks'],
  picks: [
    {
      pick_id: 'P1',
      parent_pick_id: null,
      city_id: 'nyc',
      market_date: DAY,
      legs: [
        { leg: 'A', bucket_slug: 'a', bucket_label: '70-71°F', shares: 30, stake_usd: 6 },
        { leg: 'B', bucket_slug: 'b', bucket_label: '72-73°F', shares: 25, stake_usd: 5 },
      ],
    } as unknown as PickPosition,
  ],
  trades: [],
  counts: { strategies: { no24: 1, yescore: 2, 'svc-max-picks': 0 }, locks: 1, picks: 1, trades: 0 },
};

describe('payoff by outcome', () => {
  // 61°F or below, 62-63 ... 78-79, 80°F or higher (marketBuckets around 70)
  const outcomes = marketBuckets('F', 70);

  it('adds up a YES, a NO, a two-leg pick and a lock of one city-day for every bucket it could settle in', () => {
    const payoff = payoffByOutcome(holdingsOf(book, 'nyc', DAY), outcomes, F_METAR);
    // stakes: YES 4 + NO 15 + legs 6 + 5 + lock 0.8 x 50 = 40 -> 70 USD
    expect(payoff.every((o) => o.stake === 70)).toBe(true);
    expect(payoff.map((o) => [o.bucket.label, o.payout, o.pnl])).toEqual([
      // below 68: only the NO on 72-73 pays, 20 shares -> 20 - 70 = -50
      ['61°F or below', 20, -50],
      ['62-63°F', 20, -50],
      ['64-65°F', 20, -50],
      ['66-67°F', 20, -50],
      // the YES on 68-69 pays its 10 shares and the NO its 20: 30 - 70 = -40
      ['68-69°F', 30, -40],
      // NO 20 + leg A 30 + lock 50 = 100: +30
      ['70-71°F', 100, 30],
      // the NO loses where its bucket wins; leg B pays 25: 25 - 70 = -45
      ['72-73°F', 25, -45],
      ['74-75°F', 20, -50],
      ['76-77°F', 20, -50],
      ['78-79°F', 20, -50],
      ['80°F or higher', 20, -50],
    ]);
  });

  it('marks the outcomes the running high has passed as dead, on the whole-°C lattice', () => {
    // a METAR high of 21 °C is 69.8 °F and settles at 70 or more: 68-69 holds only 20 °C (68.0), dead with every
    // bucket below it; 70-71 holds 21 °C, alive
    const dead = (highC: number) =>
      payoffByOutcome(holdingsOf(book, 'nyc', DAY), outcomes, F_METAR, highC)
        .filter((o) => o.dead)
        .map((o) => o.bucket.label);
    expect(dead(21)).toEqual(['61°F or below', '62-63°F', '64-65°F', '66-67°F', '68-69°F']);
    // 22 °C is 71.6 °F, settling at 72: 70-71 held only 21 °C, so it dies too; 72-73 (22 and 23 °C) lives
    expect(dead(22)).toEqual(['61°F or below', '62-63°F', '64-65°F', '66-67°F', '68-69°F', '70-71°F']);
  });

  it('on a day over, leaves alive only the bucket it settled in, whatever the running high said', () => {
    // settled at 73 °F: 72-73 is the outcome; 74-75 and above were alive under a 22 °C high, dead now
    const payoff = payoffByOutcome(holdingsOf(book, 'nyc', DAY), outcomes, F_METAR, 22, 73);
    expect(payoff.filter((o) => !o.dead).map((o) => o.bucket.label)).toEqual(['72-73°F']);
    expect(payoff.filter((o) => o.settledHere).map((o) => o.bucket.label)).toEqual(['72-73°F']);
    // the open-ended top bucket holds every degree from 80 up
    const top = payoffByOutcome(holdingsOf(book, 'nyc', DAY), outcomes, F_METAR, null, 84);
    expect(top.filter((o) => o.settledHere).map((o) => o.bucket.label)).toEqual(['80°F or higher']);
  });

  it('leaves a payout unknown where a holding covers part of an outcome, and another unit out', () => {
    const odd: Book = {
      ...book,
      strategies: [
        {
          family: 'yescore',
          record: {
            id: 4,
            city_id: 'nyc',
            local_date: DAY,
            bucket_slug: 'd',
            bucket_label: '70°F',
            side: 'YES',
            shares: 10,
            stake: 2,
          },
        },
        {
          family: 'yescore',
          record: {
            id: 5,
            city_id: 'nyc',
            local_date: DAY,
            bucket_slug: 'c',
            bucket_label: '21°C',
            side: 'YES',
            shares: 10,
            stake: 3,
          },
        },
      ] as unknown as Book['strategies'],
      locks: [],
      picks: [],
    };
    const payoff = payoffByOutcome(holdingsOf(odd, 'nyc', DAY), outcomes, F_METAR);
    const at = (label: string) => payoff.find((o) => o.bucket.label === label);
    // 70°F is half of 70-71: it pays if the high settles at 70, not at 71
    expect(at('70-71°F')).toMatchObject({ payout: null, pnl: null, stake: 2 });
    // elsewhere the 70°F YES pays nothing: 0 - 2 = -2 (the °C holding is another market's)
    expect(at('68-69°F')).toMatchObject({ payout: 0, pnl: -2, stake: 2 });
  });

  it('pays nothing and loses nothing without holdings', () => {
    expect(payoffByOutcome([], outcomes.slice(0, 1), F_METAR)).toEqual([
      { bucket: outcomes[0], dead: false, settledHere: false, payout: 0, stake: 0, pnl: 0 },
    ]);
  });
});
