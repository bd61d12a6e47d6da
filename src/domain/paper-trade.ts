import { type Bucket, bucketHolds } from './buckets.js';

/**
 * DESIGN 4 "the board's record": each edge the board showed is taken as a paper trade of a flat stake at the venue's
 * price and settled by the day's outcome. The rules of one such trade, in one place.
 */

/** The stake of a paper trade, in USD: the strategy families' flat stake (spec 2.5). */
export const PAPER_STAKE_USD = 10;

/** A price a share can be bought at: above 0 (nothing is sold at 0) and below 1 (nothing is won at 1). */
export const tradablePrice = (price: number): boolean => Number.isFinite(price) && price > 0 && price < 1;

/** Whether a side of a bucket won, the day having settled at `settled` (a whole degree of the market's unit). */
export function sideWon(side: 'YES' | 'NO', bucket: Pick<Bucket, 'low' | 'high'>, settled: number): boolean {
  const inside = bucketHolds(bucket, settled);
  return side === 'YES' ? inside : !inside;
}

/**
 * A paper trade of `PAPER_STAKE_USD` at `price` settled: it bought stake / price shares, each paying 1 USD if its
 * side won. P&L = shares - stake on a win, -stake on a loss.
 */
export function paperTrade(
  side: 'YES' | 'NO',
  price: number,
  bucket: Pick<Bucket, 'low' | 'high'>,
  settled: number,
): { won: boolean; pnl: number } {
  const won = sideWon(side, bucket, settled);
  return { won, pnl: won ? PAPER_STAKE_USD / price - PAPER_STAKE_USD : -PAPER_STAKE_USD };
}

/** The model's probability of the side taken: p for YES, 1 - p for NO. */
export const sideProbability = (side: 'YES' | 'NO', p: number): number => (side === 'YES' ? p : 1 - p);

/** The Brier score of one trade: (the side's probability - 1 if it won, else 0) squared. */
export const tradeBrier = (probability: number, won: boolean): number => (probability - (won ? 1 : 0)) ** 2;

/** DESIGN 4's edge bands: from the alert threshold to 0.10, 0.10 to 0.20, 0.20 and above. */
export const EDGE_BANDS = ['min-0.10', '0.10-0.20', '0.20+'] as const;
export type EdgeBand = (typeof EDGE_BANDS)[number];

export function edgeBand(edge: number): EdgeBand {
  if (edge < 0.1) return 'min-0.10';
  return edge < 0.2 ? '0.10-0.20' : '0.20+';
}
