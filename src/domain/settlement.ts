import type { MarketUnit } from '../contract/common.js';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from './buckets.js';
import { normalCdf } from './normal.js';
import { cToF, fToC } from './units.js';

/**
 * DESIGN 4 "bucket probability", the one place of the rule: how a daily-high market settles, and so the chance of
 * each of its buckets. The monitor (board, Forecasts, payoff, trader alerts, calibration, the board's record) and the
 * reference world (venues, edge engine, fusion locks, strategies) all price through this file.
 *
 * `metar_c` (the default, and the world's): the market settles on the day's METAR high, the highest whole-°C report
 * of the local day; a °F market on that value converted and rounded half up. So a °F market settles on a lattice:
 * 9 °C = 48.2 °F -> 48 and 10 °C = 50 °F, so 49 °F never occurs; `54-55°F` holds 12 °C (53.6) and 13 °C (55.4).
 * `whole_f` (DESIGN 3's config): a °F market settles on a native whole-°F high, every whole °F reachable.
 */
export type SettlementRule = 'metar_c' | 'whole_f';

/** A market's unit and the rule its settled value follows. */
export interface Market {
  unit: MarketUnit;
  rule: SettlementRule;
}

/** The chance the day's true high (°C) is below a temperature: a normal forecast, or a venue's own belief. */
export type HighBelief = (tempC: number) => number;

/** A whole degree rounded half up, as the venue settles: 69.5 -> 70, -0.5 -> 0. */
export const roundHalfUp = (value: number): number => Math.floor(value + 0.5);

/** The value a market settles at, in its unit, from the day's METAR high (whole °C). */
export function settledValue(metarHighC: number, unit: MarketUnit): number {
  return roundHalfUp(unit === 'F' ? cToF(metarHighC) : metarHighC);
}

/**
 * The whole degree a day settled at in the market's unit, from its high in °C (a whole-°C METAR high, converted and
 * rounded as the venue settles) or, without it, in °F (a resolved fusion lock's `actual_tmax_*`, a day's score's
 * `actual_max`); null without either.
 */
export function settledValueOf(unit: MarketUnit, highC: number | null, highF: number | null): number | null {
  if (highC !== null && Number.isFinite(highC)) return settledValue(roundHalfUp(highC), unit);
  if (highF === null || !Number.isFinite(highF)) return null;
  return unit === 'F' ? roundHalfUp(highF) : roundHalfUp(fToC(highF));
}

/**
 * The whole degrees C of METAR that settle in a bucket, as [lowest, highest] (null: an open end). A 2 °F bucket spans
 * 1.1 °C, so most hold one whole degree C and about one in nine holds two; lowest > highest when it holds none.
 */
export function wholeDegreesC(bucket: Bucket, unit: MarketUnit): [number | null, number | null] {
  const low = bucket.low === OPEN_LOW ? null : bucket.low;
  const high = bucket.high === OPEN_HIGH ? null : bucket.high;
  if (unit === 'C') return [low, high];
  // round(1.8 c + 32) >= low  <=>  c >= (low - 32.5) / 1.8;  round(1.8 c + 32) <= high  <=>  c < (high - 31.5) / 1.8
  // (1.8 c never ends in .5 for a whole c, so no conversion sits on a rounding tie)
  return [
    low === null ? null : Math.ceil((low - 32.5) / 1.8),
    high === null ? null : Math.ceil((high - 31.5) / 1.8) - 1,
  ];
}

/**
 * Where the day's true high X (°C) must end for the bucket to win, [from, to), and the floor the running high sets:
 * X is conditioned on X >= floor. Under `metar_c` the edges are the half degrees C around the whole degrees the
 * bucket holds, and the floor is half a degree under the running METAR high's whole degree; under `whole_f` they are
 * the half degrees F around the bucket's whole °F values and the running high's settled °F.
 */
function edgesC(
  bucket: Bucket,
  market: Market,
  runningHighC: number | null,
): { from: number; to: number; floor: number } {
  const none = Number.NEGATIVE_INFINITY;
  const floor = floorC(market, runningHighC);
  if (market.rule === 'whole_f' && market.unit === 'F') {
    return {
      from: bucket.low === OPEN_LOW ? none : fToC(bucket.low - 0.5),
      to: bucket.high === OPEN_HIGH ? Number.POSITIVE_INFINITY : fToC(bucket.high + 0.5),
      floor,
    };
  }
  const [low, high] = wholeDegreesC(bucket, market.unit);
  return { from: low === null ? none : low - 0.5, to: high === null ? Number.POSITIVE_INFINITY : high + 0.5, floor };
}

/** The least the day's true high (°C) can still be, given the running high: no condition before the first report. */
function floorC(market: Market, runningHighC: number | null): number {
  if (runningHighC === null) return Number.NEGATIVE_INFINITY;
  if (market.rule === 'whole_f' && market.unit === 'F') return fToC(settledValue(runningHighC, 'F') - 0.5);
  return roundHalfUp(runningHighC) - 0.5;
}

/** Below this the forecast leaves (numerically) no mass at or above the running high: the day settles where it is. */
const NO_MASS = 1e-9;

/**
 * The chance the market settles in `bucket`, given a belief about the day's true high and the running METAR high so
 * far today (°C; null before the first report: no condition). The sum, over the whole °C values c >= r whose settled
 * value falls in the bucket, of P(c - 0.5 <= X < c + 0.5), divided by P(X >= r - 0.5); a bucket no such c reaches is
 * dead (0); when the belief leaves no mass at or above r - 0.5 the bucket holding r gets 1.
 */
export function settlementChance(
  bucket: Bucket,
  market: Market,
  below: HighBelief,
  runningHighC: number | null,
): number {
  const { from, to, floor } = edgesC(bucket, market, runningHighC);
  const at = (x: number) => (x === Number.NEGATIVE_INFINITY ? 0 : x === Number.POSITIVE_INFINITY ? 1 : below(x));
  if (to <= floor || to <= from) return 0;
  const alive = 1 - at(floor);
  if (alive < NO_MASS) return from <= floor ? 1 : 0;
  return Math.min(1, Math.max(0, (at(to) - at(Math.max(from, floor))) / alive));
}

/** The desk's forecast of the day's high in °C (`svc_pro_forecast`'s `_c` aliases). */
export interface HighForecast {
  muC: number;
  sigmaC: number;
}

/** A forecast the rule can use: a finite mean and a finite, positive sigma. Anything else prices nothing. */
export function usableForecast(forecast: Partial<HighForecast> | null | undefined): HighForecast | null {
  const muC = forecast?.muC;
  const sigmaC = forecast?.sigmaC;
  if (typeof muC !== 'number' || typeof sigmaC !== 'number') return null;
  if (!Number.isFinite(muC) || !Number.isFinite(sigmaC) || sigmaC <= 0) return null;
  return { muC, sigmaC };
}

/** X ~ N(mu_c, sigma_c): the belief DESIGN 4 reads from the desk's forecast. */
export const normalBelief =
  ({ muC, sigmaC }: HighForecast): HighBelief =>
  (tempC) =>
    normalCdf(tempC, muC, sigmaC);

/**
 * DESIGN 4's bucket probability from the desk's forecast: null when the forecast is unusable (missing, zero, negative
 * or not finite sigma or mean), never NaN.
 */
export function bucketProbability(
  bucket: Bucket,
  market: Market,
  forecast: Partial<HighForecast> | null | undefined,
  runningHighC: number | null,
): number | null {
  const usable = usableForecast(forecast);
  return usable === null ? null : settlementChance(bucket, market, normalBelief(usable), runningHighC);
}

/**
 * The forecast leaves (numerically) no mass at or above the running high: the rule then settles the day where it
 * stands. A desk forecast is never that sure of a high it has not seen, so the monitor reads this as a running high far
 * outside the forecast (a bad METAR, most likely) and flags it rather than trade on it. False without a usable forecast
 * or a running high.
 */
export function runningHighBeyondForecast(
  market: Market,
  forecast: Partial<HighForecast> | null | undefined,
  runningHighC: number | null,
): boolean {
  const usable = usableForecast(forecast);
  if (usable === null || runningHighC === null || !Number.isFinite(runningHighC)) return false;
  return 1 - normalBelief(usable)(floorC(market, runningHighC)) < NO_MASS;
}

/** A bucket is dead once no value it settles on is still reachable from the running high: it can no longer win. */
export function bucketIsDead(bucket: Bucket, market: Market, runningHighC: number | null): boolean {
  if (runningHighC === null || !Number.isFinite(runningHighC)) return false;
  const { from, to, floor } = edgesC(bucket, market, runningHighC);
  return to <= floor || to <= from;
}

/** Whether the bucket holds the value the day would settle at if no higher report came. */
export function bucketHoldsRunningHigh(bucket: Bucket, market: Market, runningHighC: number): boolean {
  const { from, to, floor } = edgesC(bucket, market, runningHighC);
  return from <= floor && floor < to;
}

/**
 * DESIGN 4 "next": how far the running high must rise, in the market's unit, before the day can settle in a higher
 * bucket than `holding` (the bucket that holds the running high). Under `metar_c` that is the market-unit value of the
 * next whole °C whose settled value leaves the bucket, minus the running high (in a °F market 14 °C = 57.2 °F in
 * `56-57°F`: 15 °C = 59 °F leaves it, so 1.8); under `whole_f` the next whole °F above the bucket minus the running
 * high's whole °F. Null for the open top tail: there is no higher bucket.
 */
export function riseToNextBucket(holding: Bucket, market: Market, runningHighC: number): number | null {
  if (holding.high === OPEN_HIGH) return null;
  if (market.rule === 'whole_f' && market.unit === 'F') return holding.high + 1 - settledValue(runningHighC, 'F');
  const [, highC] = wholeDegreesC(holding, market.unit);
  if (highC === null) return null;
  const toUnit = (c: number) => (market.unit === 'F' ? cToF(c) : c);
  return toUnit(highC + 1) - toUnit(runningHighC);
}

/** What each side of a bucket is worth over its price, after the cost of crossing the venue's spread. */
export interface EffectiveEdge {
  yes: number;
  no: number;
  cost: number;
}

/**
 * DESIGN 4's cost of dealing on a venue: half its overround (what its YES and NO prices add to over 1), never under
 * a cent: `max(0.01, (yes_price + no_price - 1) / 2)`. The one rule for the effective edge and a venue cross
 * (venue-cross.ts).
 */
export const venueCost = (yesPrice: number, noPrice: number): number => Math.max(0.01, (yesPrice + noPrice - 1) / 2);

/**
 * DESIGN 4 "effective edge": YES `p - yes_price - cost`, NO `(1 - p) - no_price - cost`, with cost the venue's
 * (`venueCost`).
 */
export function effectiveEdge(p: number, yesPrice: number, noPrice: number): EffectiveEdge {
  const cost = venueCost(yesPrice, noPrice);
  return { yes: p - yesPrice - cost, no: 1 - p - noPrice - cost, cost };
}
