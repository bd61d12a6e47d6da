import { type Bucket, OPEN_HIGH, OPEN_LOW } from './buckets.js';
import { normalCdf } from './normal.js';

/** The whole degree a reading settles at: the venue rounds half up (69.5 -> 70, -0.5 -> 0). */
export const settledWhole = (value: number): number => Math.floor(value + 0.5);

/**
 * DESIGN 4 "bucket probability": the chance a market settles in `bucket`, all in the market's unit. The market settles
 * on the METAR high rounded half up to a whole degree, so a bucket covering whole values a..b covers the day's true
 * high X in [a - 0.5, b + 0.5), with X ~ N(mu, sigma) of `svc_pro_forecast`.
 *
 * `runningHigh` is the METAR high so far today (unrounded, in the market's unit). The day's high cannot settle below
 * the whole degree the running high already settles at, so X is conditioned on X >= round(runningHigh) - 0.5 rather
 * than on X >= runningHigh: the bucket that holds the running high keeps the whole of its own degree and stays alive
 * (a running high of 72.4 °F settles at 72, so `72-73°F` keeps [71.5, 73.5)), and every bucket whose top is below
 * that degree is dead (0). When the forecast leaves (numerically) no mass above the running high, the high is taken
 * to settle where it already is: the bucket holding it gets 1.
 */
export function bucketProbability(bucket: Bucket, mu: number, sigma: number, runningHigh?: number): number {
  const floor = runningHigh === undefined || !Number.isFinite(runningHigh) ? null : settledWhole(runningHigh) - 0.5;
  const lowEdge = bucket.low === OPEN_LOW ? Number.NEGATIVE_INFINITY : bucket.low - 0.5;
  const highEdge = bucket.high === OPEN_HIGH ? Number.POSITIVE_INFINITY : bucket.high + 0.5;
  const cdf = (x: number) =>
    x === Number.NEGATIVE_INFINITY ? 0 : x === Number.POSITIVE_INFINITY ? 1 : normalCdf(x, mu, sigma);
  if (floor === null) return Math.max(0, cdf(highEdge) - cdf(lowEdge));
  if (highEdge <= floor) return 0;
  const alive = 1 - cdf(floor);
  if (alive < 1e-9) return lowEdge <= floor ? 1 : 0;
  return Math.min(1, Math.max(0, (cdf(highEdge) - cdf(Math.max(lowEdge, floor))) / alive));
}

/** A bucket is dead once the running high has settled above its top: it can no longer win. */
export function bucketIsDead(bucket: Bucket, runningHigh: number | undefined): boolean {
  if (runningHigh === undefined || !Number.isFinite(runningHigh) || bucket.high === OPEN_HIGH) return false;
  return bucket.high < settledWhole(runningHigh);
}

/** What each side of a bucket is worth over its price, after the cost of crossing the venue's spread. */
export interface EffectiveEdge {
  yes: number;
  no: number;
  cost: number;
}

/**
 * DESIGN 4 "effective edge": YES `p - yes_price - cost`, NO `(1 - p) - no_price - cost`, with cost half the venue's
 * overround and never under a cent: `max(0.01, (yes_price + no_price - 1) / 2)`.
 */
export function effectiveEdge(p: number, yesPrice: number, noPrice: number): EffectiveEdge {
  const cost = Math.max(0.01, (yesPrice + noPrice - 1) / 2);
  return { yes: p - yesPrice - cost, no: 1 - p - noPrice - cost, cost };
}
