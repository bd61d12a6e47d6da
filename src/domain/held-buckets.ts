import type { MarketUnit } from '../contract/common.js';
import { parseBucketLabel } from './bucket-label.js';
import type { Bucket } from './buckets.js';
import { type Family, lockStake, type OpenBook, type PickPosition, type TradePosition } from './position-pnl.js';
import { bucketIsDead, type Market } from './settlement.js';

/**
 * One open holding on a bucket of a city-day: which book holds it, on which side, how many shares (each pays 1 USD
 * if its side wins) and what it cost. The board marks these buckets on its ladder, payoff by outcome adds them up,
 * and the dying-bucket alert watches them.
 */
export interface Holding {
  family: Family;
  /** The record's own id (strategy record, lock, pick, edge trade) so a trader can find it in Positions. */
  ref: string;
  side: 'YES' | 'NO';
  bucket: Bucket & { unit: MarketUnit };
  shares: number;
  stake: number;
}

/**
 * Every open holding of one city-day with a bucket the label parser understands. A record whose label is of another
 * shape cannot be placed on the day's outcomes and is left out (the Positions pane still lists it); an edge trade
 * whose entry has not arrived holds nothing yet.
 */
export function holdingsOf<Pick extends PickPosition, Trade extends TradePosition>(
  open: OpenBook<Pick, Trade>,
  cityId: string,
  date: string,
): Holding[] {
  const out: Holding[] = [];
  const add = (h: Omit<Holding, 'bucket'>, label: string, slug: string) => {
    const bucket = parseBucketLabel(label, slug);
    if (bucket) out.push({ ...h, bucket });
  };
  for (const { family, record: r } of open.strategies) {
    if (r.city_id !== cityId || r.local_date !== date) continue;
    add({ family, ref: String(r.id), side: r.side, shares: r.shares, stake: r.stake }, r.bucket_label, r.bucket_slug);
  }
  for (const l of open.locks) {
    if (l.city_id !== cityId || l.local_date !== date) continue;
    const stake = lockStake(l);
    add(
      { family: 'fusion-locks', ref: String(l.id), side: 'YES', shares: l.tokens, stake },
      l.bucket_label,
      l.bucket_slug,
    );
  }
  for (const p of open.picks) {
    if (p.city_id !== cityId || p.market_date !== date) continue;
    for (const leg of p.legs) {
      const h = {
        family: 'insurance' as const,
        ref: p.pick_id,
        side: 'YES' as const,
        shares: leg.shares,
        stake: leg.stake_usd,
      };
      add(h, leg.bucket_label, leg.bucket_slug);
    }
  }
  for (const t of open.trades) {
    if (t.city_id !== cityId || t.market_date !== date || t.entry === null) continue;
    const h = {
      family: 'edge' as const,
      ref: String(t.engine_trade_id),
      side: t.side,
      shares: t.entry.qty,
      stake: t.entry.total_usd,
    };
    add(h, t.bucket_label, '');
  }
  return out;
}

/**
 * The holdings a running high (whole °C METAR) has just made losers: a YES on a bucket of the market now dead under
 * its settlement rule (DESIGN 4). (A NO on a dead bucket has won, so it is not dying.)
 */
export function dyingHoldings(holdings: readonly Holding[], market: Market, runningHighC: number | null): Holding[] {
  return holdings.filter(
    (h) => h.side === 'YES' && h.bucket.unit === market.unit && bucketIsDead(h.bucket, market, runningHighC),
  );
}
