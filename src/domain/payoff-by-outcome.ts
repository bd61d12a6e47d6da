import { type Bucket, bucketHolds } from './buckets.js';
import type { Holding } from './held-buckets.js';
import { bucketIsDead, type Market } from './settlement.js';
import { round } from './units.js';

/** What the open book of a city-day pays if the day settles in one bucket. */
export interface OutcomePayoff {
  bucket: Bucket;
  /** The running high has already passed this bucket, or the day settled in another: it can no longer pay here. */
  dead: boolean;
  /** The day is over and settled in this bucket. */
  settledHere: boolean;
  /** USD paid out, the stakes of every holding counted, and the difference; null when a holding's bucket covers only
   * part of this outcome (the bucket grids differ), so what it pays depends on the exact degree. */
  payout: number | null;
  stake: number;
  pnl: number | null;
}

/** Whether a holding's bucket wins when the day settles somewhere in `outcome`: yes, no, or it depends (null). */
function wins(held: Bucket, outcome: Bucket): boolean | null {
  if (outcome.low >= held.low && outcome.high <= held.high) return true;
  if (outcome.high < held.low || outcome.low > held.high) return false;
  return null;
}

/**
 * Payoff by outcome: for every bucket the day could settle in, what all open positions, picks and locks of the
 * city-day pay and their P&L if it settles there. A YES share pays 1 USD when its bucket wins, else nothing; a NO
 * share pays 1 USD when its bucket loses. P&L = payout - stake, over every holding of the market's unit (a holding of
 * another unit belongs to another market). The running high (whole °C METAR) marks the outcomes already dead under
 * the market's settlement rule (DESIGN 4); on a day over, `settled` (the whole degree it settled at, in the market's
 * unit) leaves one outcome alive, the bucket it settled in.
 */
export function payoffByOutcome(
  holdings: readonly Holding[],
  outcomes: readonly Bucket[],
  market: Market,
  runningHighC: number | null = null,
  settled: number | null = null,
): OutcomePayoff[] {
  const mine = holdings.filter((h) => h.bucket.unit === market.unit);
  const stake = round(mine.reduce((n, h) => n + h.stake, 0));
  return outcomes.map((bucket) => {
    let payout: number | null = 0;
    for (const h of mine) {
      const won = wins(h.bucket, bucket);
      if (won === null || payout === null) {
        payout = null;
        continue;
      }
      if (won === (h.side === 'YES')) payout += h.shares;
    }
    const settledHere = settled !== null && bucketHolds(bucket, settled);
    return {
      bucket,
      dead: settled === null ? bucketIsDead(bucket, market, runningHighC) : !settledHere,
      settledHere,
      payout: payout === null ? null : round(payout),
      stake,
      pnl: payout === null ? null : round(payout - stake),
    };
  });
}
