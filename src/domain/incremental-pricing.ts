import type { FusionLock } from '../contract/fusion-locks.js';
import type { StrategyFamily, StrategyRecord } from '../contract/strategies.js';
import {
  lockQuote,
  type OpenBook,
  type PickPosition,
  type Priced,
  type PricedPositions,
  priceLock,
  pricePicks,
  priceStrategy,
  priceTrade,
  type Quote,
  type Quotes,
  strategyQuote,
  type TradePosition,
} from './position-pnl.js';

/** What a mark was made from besides the position itself: the quote's two prices (none: no quote). */
const quoteKey = (q: Quote | undefined): string => (q ? `${q.yes_price}|${q.no_price}` : '-');

interface Kept<T> {
  family: StrategyFamily | 'fusion-locks';
  quote: string;
  priced: Priced<T>;
}

/**
 * pricePositions again after a change, pricing only the rows that changed: a strategy record or a fusion lock keeps
 * its mark while it is the same object (the cache hands back the object it parsed before for an unchanged row) and
 * its quote has the same prices; every other one is priced afresh, by the same rules. Insurance picks and edge
 * trades (a few, rebuilt from their columns at each read) are always priced. The marks are those pricePositions
 * gives.
 */
export class IncrementalPricer {
  private strategies = new WeakMap<StrategyRecord, Kept<StrategyRecord>>();
  private locks = new WeakMap<FusionLock, Kept<FusionLock>>();
  /** Positions the last `price` marked afresh; the rest kept their marks. */
  repriced = 0;

  price<Pick extends PickPosition, Trade extends TradePosition>(
    open: OpenBook<Pick, Trade>,
    quotes: (cityId: string) => Quotes,
  ): PricedPositions<Pick, Trade> {
    let repriced = 0;
    const strategies = open.strategies.map(({ family, record }) => {
      const quote = quoteKey(strategyQuote(record, quotes));
      const kept = this.strategies.get(record);
      if (kept && kept.family === family && kept.quote === quote) return kept.priced;
      repriced++;
      const priced = priceStrategy(family, record, quotes);
      this.strategies.set(record, { family, quote, priced });
      return priced;
    });
    const locks = open.locks.map((lock) => {
      const quote = quoteKey(lockQuote(lock, quotes));
      const kept = this.locks.get(lock);
      if (kept && kept.quote === quote) return kept.priced;
      repriced++;
      const priced = priceLock(lock, quotes);
      this.locks.set(lock, { family: 'fusion-locks', quote, priced });
      return priced;
    });
    const picks = pricePicks(open.picks, quotes);
    const trades = open.trades.map((t) => priceTrade(t, quotes));
    this.repriced = repriced + open.picks.length + trades.length;
    return { strategies, locks, picks, trades, counts: open.counts };
  }
}
