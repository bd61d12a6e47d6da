import { describe, expect, it } from 'vitest';
import type { InsuranceLeg } from '../../src/contract/events.js';
import type { FusionLock } from '../../src/contract/fusion-locks.js';
import type { No24Record, SvcMaxPickRecord, YescoreRecord } from '../../src/contract/strategies.js';
import { holdingsOf } from '../../src/domain/held-buckets.js';
import {
  familyTotals,
  type OpenBook,
  type PickPosition,
  pricePositions,
  type Quotes,
  type TradePosition,
} from '../../src/domain/position-pnl.js';

// one quoted bucket in New York: YES 0.30, NO 0.70; Paris has no quotes at all
const NYC_QUOTE = { yes_price: 0.3, no_price: 0.7 };
const quotes = (cityId: string): Quotes => ({
  bySlugOf: (date, slug) => (cityId === 'nyc' && date === '2026-11-21' && slug === '48-49f' ? NYC_QUOTE : undefined),
  byLabelOf: (date, label) =>
    cityId === 'nyc' && date === '2026-11-21' && label === '48-49°F' ? NYC_QUOTE : undefined,
});

const market = { city_id: 'nyc', local_date: '2026-11-21', bucket_slug: '48-49f', bucket_label: '48-49°F' };
const no24 = {
  ...market,
  id: 1,
  strategy: 'no24',
  side: 'NO',
  shares: 12.5,
  stake: 10,
  no_ask: 0.8,
  current_no_price: 0.75,
} as No24Record;
const yescore = {
  ...market,
  id: 2,
  city_id: 'paris',
  strategy: 'yescore',
  side: 'YES',
  shares: 20,
  stake: 8,
  yes_ask: 0.4,
  current_yes_price: 0.45,
} as YescoreRecord;
const svcMax = {
  ...market,
  id: 3,
  city_id: 'paris',
  strategy: 'svc_max_11',
  side: 'YES',
  shares: 10,
  stake: 5,
  yes_ask: 0.5,
} as SvcMaxPickRecord;
const lock = { ...market, id: 'lock-1', yes_price: 0.333, tokens: 30 } as FusionLock;

const leg = (name: 'A' | 'B' | 'C', slug: string, price: number, shares: number, stake: number) =>
  ({ leg: name, bucket_slug: slug, snapshot_price: price, shares, stake_usd: stake }) as InsuranceLeg;
type Pick = PickPosition & { note: string };
const pick = (id: string, parent: string | null, legs: InsuranceLeg[]): Pick => ({
  pick_id: id,
  parent_pick_id: parent,
  city_id: 'nyc',
  market_date: '2026-11-21',
  legs,
  note: `the caller's own field of ${id}`,
});
const primary = pick('p1', null, [leg('A', '48-49f', 0.25, 20, 5), leg('B', '50-51f', 0.2, 20, 4)]);
const addon = pick('p2', 'p1', [leg('C', '48-49f', 0.28, 10, 2.8)]);
const orphan = pick('p3', 'gone', [leg('C', '52-53f', 0.1, 30, 3)]);

const trade = (id: number, side: 'YES' | 'NO', entry: TradePosition['entry']): TradePosition => ({
  engine_trade_id: id,
  city_id: 'nyc',
  market_date: '2026-11-21',
  side,
  bucket_label: '48-49°F',
  entry,
});

const book: OpenBook<Pick, TradePosition> = {
  strategies: [
    { family: 'no24', record: no24 },
    { family: 'yescore', record: yescore },
    { family: 'svc-max-picks', record: svcMax },
  ],
  locks: [lock],
  picks: [primary, addon, orphan],
  trades: [trade(7, 'NO', { price: 0.65, qty: 10, total_usd: 6.5 }), trade(8, 'YES', null)],
  counts: { strategies: { no24: 3, yescore: 1, 'svc-max-picks': 1 }, locks: 1, picks: 1, trades: 2 },
};

describe('P&L: open positions marked to market', () => {
  const priced = pricePositions(book, quotes);

  it('marks a strategy record to the newest quote of its side, else no24 and yescore to their own mark', () => {
    const [n, y, s] = priced.strategies.map((p) => p.mark);
    // 12.5 shares x NO 0.70 = 8.75, less the 10.00 stake
    expect(n).toEqual({ entry: 0.8, current: 0.7, source: 'm', stake: 10, pnl: -1.25 });
    // no Paris quote: the record's own 0.45; 20 x 0.45 = 9.00 less 8.00
    expect(y).toEqual({ entry: 0.4, current: 0.45, source: 'r', stake: 8, pnl: 1 });
    // svc-max-picks carries no mark of its own: no price, no P&L
    expect(s).toEqual({ entry: 0.5, current: null, source: null, stake: 5, pnl: null });
  });

  it('treats a stored quote missing a side’s price as no quote for that side: the own mark, never a NaN', () => {
    // the row has YES 0.30 but no NO price: no24 (a NO position) falls back to its own 0.75, 12.5 x 0.75 = 9.375
    // less 10.00 = -0.625, rounded half up to the cent: -0.62; the lock (YES) still marks to 0.30; a row with neither price leaves it unpriced
    const partial = (yes: number | null, no: number | null) => (): Quotes => ({
      bySlugOf: () => ({ yes_price: yes, no_price: no }),
      byLabelOf: () => ({ yes_price: yes, no_price: no }),
    });
    const half = pricePositions({ ...book, picks: [] }, partial(0.3, null));
    expect(half.strategies[0]?.mark).toEqual({ entry: 0.8, current: 0.75, source: 'r', stake: 10, pnl: -0.62 });
    expect(half.locks[0]?.mark).toMatchObject({ current: 0.3, source: 'm' });
    const bare = pricePositions({ ...book, picks: [] }, partial(null, null));
    expect(bare.locks[0]?.mark).toEqual({ entry: 0.333, current: null, source: null, stake: 9.99, pnl: null });
    expect(bare.trades[0]?.mark).toMatchObject({ current: null, pnl: null });
  });

  it('stakes a lock at price x tokens to the cent and marks it to YES', () => {
    // 0.333 x 30 = 9.99 staked; 30 x 0.30 = 9.00 now
    expect(priced.locks[0]?.mark).toEqual({ entry: 0.333, current: 0.3, source: 'm', stake: 9.99, pnl: -0.99 });
  });

  it('a lock stakes the same to the cent in Positions and in the day’s holdings (payoff, dying bucket)', () => {
    // 0.333 x 7 = 2.331, to the cent 2.33: one rounding, lockStake, for both
    const small = { ...lock, tokens: 7 };
    const one = { ...book, strategies: [], picks: [], trades: [], locks: [small] };
    expect(pricePositions(one, quotes).locks[0]?.mark.stake).toBe(2.33);
    expect(holdingsOf(one, 'nyc', '2026-11-21').map((h) => h.stake)).toEqual([2.33]);
  });

  it('sums a pick over its legs, unpriced while a leg is, and puts addons under their primary', () => {
    expect(priced.picks.map((p) => p.pick.pick_id)).toEqual(['p1', 'p3']);
    const [p1, p3] = priced.picks;
    // leg A: 20 x 0.30 = 6.00 less 5.00 = +1.00; leg B unquoted, so the pick's P&L is unknown; stake 5 + 4
    expect(p1?.legs.map((l) => l.mark.pnl)).toEqual([1, null]);
    expect(p1?.mark).toEqual({ entry: null, current: null, source: null, stake: 9, pnl: null });
    // with leg B quoted too (YES 0.25 on 50-51f: 20 x 0.25 = 5.00 less 4.00 = +1.00): +1.00 + 1.00
    const both = pricePositions({ ...book, picks: [primary] }, () => ({
      bySlugOf: (_date, slug) => (slug === '50-51f' ? { yes_price: 0.25, no_price: 0.75 } : NYC_QUOTE),
      byLabelOf: () => NYC_QUOTE,
    }));
    expect(both.picks[0]?.mark).toEqual({ entry: null, current: null, source: null, stake: 9, pnl: 2 });
    // the addon's leg C: 10 x 0.30 = 3.00 less 2.80
    expect(p1?.addons.map((a) => [a.pick.pick_id, a.mark.pnl])).toEqual([['p2', 0.2]]);
    // an addon whose primary is not live stands on its own, unpriced here
    expect(p3?.mark.pnl).toBeNull();
    expect(p3?.pick.note).toBe("the caller's own field of p3");
  });

  it('marks an edge trade by its bucket label and side; one without an entry is unpriced, not a 0', () => {
    const [no, bare] = priced.trades.map((t) => t.mark);
    // 10 x NO 0.70 = 7.00 less the 6.50 paid
    expect(no).toEqual({ entry: 0.65, current: 0.7, source: 'm', stake: 6.5, pnl: 0.5 });
    // the bucket's YES is quoted (0.30), but without the entry nothing is known of what was paid
    expect(bare).toEqual({ entry: null, current: 0.3, source: 'm', stake: 0, pnl: null });
  });

  it('totals each family: every open one counted, stake and unrealised over those listed', () => {
    const totals = Object.fromEntries(familyTotals(priced).map((t) => [t.family, t]));
    expect(Object.keys(totals)).toEqual(['no24', 'yescore', 'svc-max-picks', 'fusion-locks', 'insurance', 'edge']);
    // three open in SQL, one listed: the pane says the totals cover fewer
    expect(totals.no24).toMatchObject({ open: 3, count: 1, priced: 1, mark: { stake: 10, pnl: -1.25 } });
    expect(totals['svc-max-picks']).toMatchObject({ open: 1, count: 1, priced: 0, mark: { stake: 5, pnl: null } });
    // primary (leg B unquoted: unpriced), its addon (+0.20) and the lone addon (unpriced); stake 9 + 2.80 + 3
    expect(totals.insurance).toMatchObject({ open: 3, count: 3, priced: 1, mark: { pnl: 0.2 } });
    expect(totals.insurance?.mark.stake).toBeCloseTo(14.8, 10);
    // the trade without an entry is counted open and listed, but not priced
    expect(totals.edge).toMatchObject({ open: 2, count: 2, priced: 1, mark: { stake: 6.5, pnl: 0.5 } });
  });
});
