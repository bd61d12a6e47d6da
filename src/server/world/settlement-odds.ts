import type { MarketUnit } from '../../contract/common.js';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from '../../domain/buckets.js';
import { normalCdf } from '../../domain/normal.js';

/**
 * What the world knows of settlement that DESIGN 4's bucket probability does not: METAR reports whole degrees C, so a
 * day settles on one whole degree C, and a degree F market on that degree's conversion. The venues and the service's
 * own edge engine price on this lattice; the monitor's formula treats the high as continuous in the market's unit.
 */

/** `atMost(c)`: the chance the day settles at whole degree C `c` or below. */
export type SettlesAtMost = (wholeC: number) => number;

/** A bucket's chance from the chances of settling at or below each whole degree C. */
export function bucketChance(bucket: Bucket, unit: MarketUnit, atMost: SettlesAtMost): number {
  const [lowC, highC] = wholeDegreesC(bucket, unit);
  return Math.max(0, (highC === null ? 1 : atMost(highC)) - (lowC === null ? 0 : atMost(lowC - 1)));
}

/**
 * The day settles on max(running high, the highest reading still to come rounded): no chance below the running
 * high's degree, and at each whole degree above it the chance that what is still to come stays under its top,
 * `stillToComeBelow(c + 0.5)`.
 */
export function settlement(runningC: number | null, stillToComeBelow: (tempC: number) => number): SettlesAtMost {
  const floor = runningC ?? Number.NEGATIVE_INFINITY;
  return (wholeC) => (wholeC < floor ? 0 : stillToComeBelow(wholeC + 0.5));
}

/** `settlement` with what is still to come N(centreC, sigmaC). */
export const normalSettlement = (centreC: number, sigmaC: number, runningC: number | null): SettlesAtMost =>
  settlement(runningC, (tempC) => normalCdf(tempC, centreC, sigmaC));

/**
 * The whole degrees C of METAR that settle in a bucket, as [lowest, highest] (null: open). A degree F bucket holds
 * the whole degrees C whose conversion rounds (half up) into it: 2 degrees F span 1.1 degrees C, so most hold one
 * whole degree C and about one in nine holds two.
 */
export function wholeDegreesC(bucket: Bucket, unit: MarketUnit): [number | null, number | null] {
  const low = bucket.low === OPEN_LOW ? null : bucket.low;
  const high = bucket.high === OPEN_HIGH ? null : bucket.high;
  if (unit === 'C') return [low, high];
  // round(1.8 c + 32) >= low  <=>  c >= (low - 32.5) / 1.8;  round(1.8 c + 32) <= high  <=>  c < (high - 31.5) / 1.8
  return [
    low === null ? null : Math.ceil((low - 32.5) / 1.8),
    high === null ? null : Math.ceil((high - 31.5) / 1.8) - 1,
  ];
}
