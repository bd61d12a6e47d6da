import type { InsuranceLeg } from '../contract/events.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import type { StrategyFamily, StrategyRecord } from '../contract/strategies.js';
import { type BookHorizon, PICK_NOT_RECEIVED } from './book-horizon.js';
import type { Bucket } from './buckets.js';
import { sideWon } from './paper-trade.js';
import { round } from './units.js';

/** Where a current price came from: the mkta quotes of the cache (`m`), or the record's own mark (`r`). */
export type PriceSource = 'm' | 'r';

/**
 * A position marked to market. Unpriced is unpriced: `pnl` is null whenever a figure it needs is unknown (no current
 * price, no entry yet, a leg without a quote), and such a position is never counted as priced nor added into a total.
 */
export interface Mark {
  /** The entry price; null when the entry has not arrived (an edge trade known only by its exit). */
  entry: number | null;
  current: number | null;
  source: PriceSource | null;
  stake: number;
  /** Value at the current price less the stake; null without a current price or an entry. */
  pnl: number | null;
}

export type Family = 'no24' | 'yescore' | 'svc-max-picks' | 'fusion-locks' | 'insurance' | 'edge';

export interface Priced<T> {
  family: Family;
  item: T;
  mark: Mark;
}

/**
 * A bucket's newest quote: what YES and NO trade at. A stored row may lack either price (a real service promises only
 * `id`, `city_id` and `local_date`): that side is then unquoted, never a NaN.
 */
export interface Quote {
  yes_price: number | null;
  no_price: number | null;
}

/**
 * A bucket's quote once its day settled at `settled` (a whole degree of the market's unit): a share pays 1 USD if its
 * side won, so the winning side is worth 1 and the other 0 (YES wins inside the bucket, NO outside it).
 */
export function settledQuote(bucket: Pick<Bucket, 'low' | 'high'>, settled: number): Quote {
  const won = sideWon('YES', bucket, settled);
  return { yes_price: won ? 1 : 0, no_price: won ? 0 : 1 };
}

/** The price of one side of a quote, or null when the quote or that side's price is missing. */
const sidePrice = (quote: Quote | undefined, side: 'YES' | 'NO'): number | null => {
  const value = side === 'NO' ? quote?.no_price : quote?.yes_price;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
};

/** The newest quotes of one city's markets: by market date and bucket slug, or bucket label (edge trades). */
export interface Quotes {
  bySlugOf(date: string, slug: string): Quote | undefined;
  byLabelOf(date: string, label: string): Quote | undefined;
}

/** What pricing reads of an insurance pick; the caller's own view of it rides along untouched. */
export interface PickPosition {
  pick_id: string;
  parent_pick_id: string | null;
  city_id: string;
  market_date: string;
  legs: readonly InsuranceLeg[];
  /** An addon whose own pick the cache never received (DESIGN 4 "the book's horizon"): it stands apart. */
  parent_not_received?: true;
}

/** What pricing reads of an edge trade: its id, bucket, side and entry (null when only the exit arrived). */
export interface TradePosition {
  engine_trade_id: number;
  city_id: string;
  market_date: string;
  side: 'YES' | 'NO';
  bucket_label: string;
  entry: { price: number; qty: number; total_usd: number } | null;
}

/** Everything open, by kind, and how many are open of each (the lists may stop short of that). */
export interface OpenBook<Pick extends PickPosition, Trade extends TradePosition> {
  strategies: { family: StrategyFamily; record: StrategyRecord }[];
  locks: FusionLock[];
  picks: Pick[];
  trades: Trade[];
  counts: { strategies: Record<StrategyFamily, number>; locks: number; picks: number; trades: number };
  /** The instant from which insurance picks reach the cache (null: none ever did); undefined where not read. */
  horizon?: BookHorizon | null;
}

export interface PricedPick<Pick extends PickPosition> {
  pick: Pick;
  legs: { leg: InsuranceLeg; mark: Mark }[];
  mark: Mark;
  addons: PricedPick<Pick>[];
}

export interface PricedPositions<Pick extends PickPosition, Trade extends TradePosition> {
  strategies: Priced<StrategyRecord>[];
  locks: Priced<FusionLock>[];
  picks: PricedPick<Pick>[];
  trades: Priced<Trade>[];
  counts: OpenBook<Pick, Trade>['counts'];
}

const mark = (
  entry: number,
  units: number,
  stake: number,
  current: number | null,
  source: PriceSource | null,
): Mark => ({
  entry,
  current,
  source: current === null ? null : source,
  stake,
  pnl: current === null ? null : round(units * current - stake),
});

/** One position made of parts (a pick's legs): priced only when every part is. */
const whole = (marks: Mark[]): Mark => {
  const stake = marks.reduce((n, m) => n + m.stake, 0);
  const pnl = marks.some((m) => m.pnl === null) ? null : round(marks.reduce((n, m) => n + (m.pnl ?? 0), 0));
  return { entry: null, current: null, source: null, stake, pnl };
};

/** A family's total: every stake, and the P&L of the positions priced (null when none is). */
export const total = (marks: Mark[]): Mark => {
  const known = marks.filter((m) => m.pnl !== null);
  const stake = marks.reduce((n, m) => n + m.stake, 0);
  const pnl = known.length === 0 ? null : round(known.reduce((n, m) => n + (m.pnl ?? 0), 0));
  return { entry: null, current: null, source: null, stake, pnl };
};

/**
 * Marks every open position to market. The current price is the newest mkta quote of the position's bucket in the
 * cache (`m`); without one (or without that side's price), no24 and yescore fall back to the record's own `current_*_price` (marked hourly by the
 * service); svc-max-picks, locks, picks and edge trades then have no current price.
 */
export function pricePositions<Pick extends PickPosition, Trade extends TradePosition>(
  open: OpenBook<Pick, Trade>,
  quotes: (cityId: string) => Quotes,
): PricedPositions<Pick, Trade> {
  return {
    strategies: open.strategies.map(({ family, record }) => priceStrategy(family, record, quotes)),
    locks: open.locks.map((l) => priceLock(l, quotes)),
    picks: pricePicks(open.picks, quotes),
    trades: open.trades.map((t) => priceTrade(t, quotes)),
    counts: open.counts,
  };
}

/** A strategy record's mark: its bucket's newest quote, else (no24, yescore) the record's own mark. */
export function priceStrategy(
  family: StrategyFamily,
  r: StrategyRecord,
  quotes: (cityId: string) => Quotes,
): Priced<StrategyRecord> {
  const quoted = sidePrice(strategyQuote(r, quotes), r.side === 'NO' ? 'NO' : 'YES');
  const own = r.strategy === 'no24' ? r.current_no_price : r.strategy === 'yescore' ? r.current_yes_price : null;
  const entry = r.strategy === 'no24' ? r.no_ask : r.yes_ask;
  const current = quoted ?? own;
  return { family, item: r, mark: mark(entry, r.shares, r.stake, current, quoted !== null ? 'm' : 'r') };
}

/** The quote a strategy record is marked with (undefined: none cached). */
export const strategyQuote = (r: StrategyRecord, quotes: (cityId: string) => Quotes): Quote | undefined =>
  quotes(r.city_id).bySlugOf(r.local_date, r.bucket_slug);

/** What a fusion lock staked: its YES price times its tokens, to the cent (positions, holdings, signals alike). */
export const lockStake = (l: Pick<FusionLock, 'yes_price' | 'tokens'>): number => round(l.yes_price * l.tokens);

/** A fusion lock's mark: the YES price of its bucket's newest quote. */
export function priceLock(l: FusionLock, quotes: (cityId: string) => Quotes): Priced<FusionLock> {
  const stake = lockStake(l);
  return {
    family: 'fusion-locks',
    item: l,
    mark: mark(l.yes_price, l.tokens, stake, sidePrice(lockQuote(l, quotes), 'YES'), 'm'),
  };
}

/** The quote a fusion lock is marked with (undefined: none cached). */
export const lockQuote = (l: FusionLock, quotes: (cityId: string) => Quotes): Quote | undefined =>
  quotes(l.city_id).bySlugOf(l.local_date, l.bucket_slug);

/**
 * An edge trade's mark: its side of its bucket's newest quote, found by label. Without its entry (only the exit
 * arrived) it has no entry price, no stake known and no P&L: unpriced, shown as such, never a 0.
 */
export function priceTrade<Trade extends TradePosition>(t: Trade, quotes: (cityId: string) => Quotes): Priced<Trade> {
  const quote = quotes(t.city_id).byLabelOf(t.market_date, t.bucket_label);
  const current = sidePrice(quote, t.side);
  if (t.entry === null) {
    return {
      family: 'edge',
      item: t,
      mark: { entry: null, current, source: current === null ? null : 'm', stake: 0, pnl: null },
    };
  }
  return { family: 'edge', item: t, mark: mark(t.entry.price, t.entry.qty, t.entry.total_usd, current, 'm') };
}

function pricePick<Pick extends PickPosition>(pick: Pick, quotes: (cityId: string) => Quotes): PricedPick<Pick> {
  const book = quotes(pick.city_id);
  const legs = pick.legs.map((leg) => {
    const q = book.bySlugOf(pick.market_date, leg.bucket_slug);
    return { leg, mark: mark(leg.snapshot_price, leg.shares, leg.stake_usd, sidePrice(q, 'YES'), 'm') };
  });
  return { pick, legs, mark: whole(legs.map((l) => l.mark)), addons: [] };
}

/**
 * Primaries with their addons beneath; an addon whose parent is not live (killed, or of a day gone) stands on its own,
 * and so does one whose parent the cache never received (`parent_not_received`), which familyTotals counts apart.
 */
export function pricePicks<Pick extends PickPosition>(
  picks: Pick[],
  quotes: (cityId: string) => Quotes,
): PricedPick<Pick>[] {
  const priced = picks.map((p) => pricePick(p, quotes));
  const byId = new Map(priced.map((p) => [p.pick.pick_id, p]));
  const top: PricedPick<Pick>[] = [];
  for (const p of priced) {
    const parent = p.pick.parent_pick_id ? byId.get(p.pick.parent_pick_id) : undefined;
    if (parent) parent.addons.push(p);
    else top.push(p);
  }
  return top;
}

/** The totals' row of addons whose own pick the cache never received: their stake is held all the same. */
export const NOT_RECEIVED_ROW = PICK_NOT_RECEIVED;

/**
 * Count, stake and unrealised P&L a family. `open` is every open position of the family (counted in SQL); the
 * other figures cover the positions listed, which stop at the newest 500 of a kind (`count` < `open` says so).
 * Addons whose own pick never reached the cache (DESIGN 4 "the book's horizon") are counted apart, after the
 * families, under NOT_RECEIVED_ROW, their stake and P&L with them: never dropped, never joined to nothing.
 */
export function familyTotals(
  p: PricedPositions<PickPosition, TradePosition>,
): { family: Family | typeof NOT_RECEIVED_ROW; open: number; count: number; priced: number; mark: Mark }[] {
  const marks = new Map<Family, Mark[]>();
  // pushed, not copied: a family lists up to 500 positions, and a copy an add made this quadratic (4 ms a read)
  const add = (family: Family, m: Mark) => {
    const list = marks.get(family);
    if (list) list.push(m);
    else marks.set(family, [m]);
  };
  for (const s of p.strategies) add(s.family, s.mark);
  for (const l of p.locks) add('fusion-locks', l.mark);
  const apart: Mark[] = [];
  for (const pick of p.picks)
    for (const x of [pick, ...pick.addons]) {
      if (x.pick.parent_not_received) apart.push(x.mark);
      else add('insurance', x.mark);
    }
  for (const t of p.trades) add('edge', t.mark);
  const order: Family[] = ['no24', 'yescore', 'svc-max-picks', 'fusion-locks', 'insurance', 'edge'];
  const families = order.map((family) => {
    const list = marks.get(family) ?? [];
    const c = p.counts;
    const open =
      family === 'fusion-locks'
        ? c.locks
        : family === 'edge'
          ? c.trades
          : family === 'insurance'
            ? Math.max(c.picks - apart.length, list.length)
            : c.strategies[family];
    // picks count their addons as rows in the list; a city-local filter may also drop a few counted in SQL
    return {
      family,
      open: Math.max(open, list.length),
      count: list.length,
      priced: list.filter((m) => m.pnl !== null).length,
      mark: total(list),
    };
  });
  if (apart.length === 0) return families;
  const notReceived = {
    family: NOT_RECEIVED_ROW,
    open: apart.length,
    count: apart.length,
    priced: apart.filter((m) => m.pnl !== null).length,
    mark: total(apart),
  };
  return [...families, notReceived];
}
