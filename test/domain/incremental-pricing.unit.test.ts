import { describe, expect, it } from 'vitest';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { No24Record, YescoreRecord } from '../../src/contract/strategies.js';
import { IncrementalPricer } from '../../src/domain/incremental-pricing.js';
import {
  type OpenBook,
  type PickPosition,
  pricePositions,
  type Quote,
  type Quotes,
  type TradePosition,
} from '../../src/domain/position-pnl.js';

/** Quotes of New York's 2026-11-21 buckets by slug; nothing elsewhere. */
const quotesOf =
  (bySlug: Record<string, Quote>) =>
  (cityId: string): Quotes => ({
    bySlugOf: (date, slug) => (cityId === 'nyc' && date === '2026-11-21' ? bySlug[slug] : undefined),
    byLabelOf: () => undefined,
  });

const market = { city_id: 'nyc', local_date: '2026-11-21', bucket_label: '48-49°F' };
const no24 = (id: number, slug: string, shares: number, currentNo: number) =>
  ({
    ...market,
    id,
    bucket_slug: slug,
    strategy: 'no24',
    side: 'NO',
    shares,
    stake: 10,
    no_ask: 0.8,
    current_no_price: currentNo,
  }) as No24Record;
const yescore = {
  ...market,
  id: 9,
  bucket_slug: '50-51f',
  strategy: 'yescore',
  side: 'YES',
  shares: 20,
  stake: 8,
  yes_ask: 0.4,
  current_yes_price: 0.45,
} as YescoreRecord;
const lock = { ...market, id: 'lock-1', bucket_slug: '48-49f', yes_price: 0.333, tokens: 30 } as FusionLock;

const bookOf = (records: { family: 'no24' | 'yescore'; record: No24Record | YescoreRecord }[]) =>
  ({
    strategies: records,
    locks: [lock],
    picks: [],
    trades: [],
    counts: { strategies: { no24: 2, yescore: 1, 'svc-max-picks': 0 }, locks: 1, picks: 0, trades: 0 },
  }) as OpenBook<PickPosition, TradePosition>;

const marks = (p: ReturnType<typeof pricePositions>) => [
  ...p.strategies.map((s) => [s.item.id, s.mark.current, s.mark.source, s.mark.pnl]),
  ...p.locks.map((l) => [l.item.id, l.mark.current, l.mark.source, l.mark.pnl]),
];

describe('pricing open positions again after a change', () => {
  const a = no24(1, '48-49f', 12.5, 0.75);
  const b = no24(2, '52-53f', 25, 0.6);
  const before = quotesOf({ '48-49f': { yes_price: 0.3, no_price: 0.7 }, '50-51f': { yes_price: 0.5, no_price: 0.5 } });

  it('prices every position the first time, as pricePositions does', () => {
    const pricer = new IncrementalPricer();
    const book = bookOf([
      { family: 'no24', record: a },
      { family: 'no24', record: b },
      { family: 'yescore', record: yescore },
    ]);
    const priced = pricer.price(book, before);
    // a: NO 0.70 quoted: 12.5 x 0.70 - 10 = -1.25; b: no quote, own mark 0.60: 25 x 0.60 - 10 = +5.00;
    // yescore: YES 0.50 quoted: 20 x 0.50 - 8 = +2.00; the lock: YES 0.30: 30 x 0.30 - 0.333 x 30 (9.99) = -0.99
    expect(marks(priced)).toEqual([
      [1, 0.7, 'm', -1.25],
      [2, 0.6, 'r', 5],
      [9, 0.5, 'm', 2],
      ['lock-1', 0.3, 'm', -0.99],
    ]);
    expect(marks(priced)).toEqual(marks(pricePositions(book, before)));
    expect(pricer.repriced).toBe(4);
  });

  it('prices again only the rows that changed (a new record object, a quote with new prices), with the same marks as pricing all', () => {
    const pricer = new IncrementalPricer();
    pricer.price(
      bookOf([
        { family: 'no24', record: a },
        { family: 'no24', record: b },
        { family: 'yescore', record: yescore },
      ]),
      before,
    );
    // b's row changed (the service marked it at 0.55: a new object), and 48-49f now trades NO at 0.64 (a and the
    // lock's bucket); 50-51f is quoted again at the same prices, a new object
    const b2 = no24(2, '52-53f', 25, 0.55);
    const after = quotesOf({
      '48-49f': { yes_price: 0.36, no_price: 0.64 },
      '50-51f': { yes_price: 0.5, no_price: 0.5 },
    });
    const book = bookOf([
      { family: 'no24', record: a },
      { family: 'no24', record: b2 },
      { family: 'yescore', record: yescore },
    ]);
    const priced = pricer.price(book, after);
    // a: 12.5 x 0.64 - 10 = -2.00; b: 25 x 0.55 - 10 = +3.75; yescore unchanged +2.00;
    // the lock: 30 x 0.36 - 9.99 = 10.80 - 9.99 = +0.81
    expect(marks(priced)).toEqual([
      [1, 0.64, 'm', -2],
      [2, 0.55, 'r', 3.75],
      [9, 0.5, 'm', 2],
      ['lock-1', 0.36, 'm', 0.81],
    ]);
    expect(marks(priced)).toEqual(marks(pricePositions(book, after)));
    // a, b and the lock priced again; yescore kept its mark
    expect(pricer.repriced).toBe(3);
  });

  it('keeps every mark when nothing changed', () => {
    const pricer = new IncrementalPricer();
    const book = bookOf([{ family: 'no24', record: a }]);
    const first = pricer.price(book, before);
    const second = pricer.price(book, before);
    expect(pricer.repriced).toBe(0);
    expect(second.strategies[0]).toBe(first.strategies[0]);
    expect(marks(second)).toEqual([
      [1, 0.7, 'm', -1.25],
      ['lock-1', 0.3, 'm', -0.99],
    ]);
  });
});
