import { type Bucket, bucketHolds, OPEN_HIGH, OPEN_LOW } from './buckets.js';
import { bucketProbability, type HighForecast, type Market, roundHalfUp, settledValue } from './settlement.js';

/**
 * Calibration of bucket probabilities against how days settled (issue 14, History's summaries). Buckets and settled
 * values in the market's unit, forecasts and METAR readings in °C as DESIGN 4 prices them; every function takes
 * small plain inputs so the rules can be checked by hand.
 */

/**
 * The smallest probability log loss takes from a forecast: a bucket priced or forecast at 0 that then wins would
 * otherwise score infinity and swamp every other day. -ln(0.001) = 6.91 is the worst a day can score.
 */
const PROBABILITY_FLOOR = 0.001;

/**
 * Multi-class Brier score of one settled event: the sum over its buckets of (p - o)^2, o = 1 for the bucket the day
 * settled in and 0 for the others. 0 is a certain, right forecast; 2 a certain, wrong one.
 */
export function brierScore(probabilities: readonly number[], winner: number): number {
  return probabilities.reduce((sum, p, i) => sum + (p - (i === winner ? 1 : 0)) ** 2, 0);
}

/** Log loss of one settled event: -ln p(winning bucket), p floored at `PROBABILITY_FLOOR`. */
export function logLoss(probabilities: readonly number[], winner: number, floor = PROBABILITY_FLOOR): number {
  return -Math.log(Math.max(floor, probabilities[winner] ?? 0));
}

/**
 * A venue's YES prices read as probabilities: each divided by their sum. The prices of an event's buckets add up to a
 * little more than 1 (the venue's overround); scored raw, the venue would gain in log loss (more on the winner) and
 * lose in Brier for its margin rather than for what it believes. Null when there is nothing to divide by.
 */
export function pricesAsProbabilities(yesPrices: readonly number[]): number[] | null {
  const sum = yesPrices.reduce((a, b) => a + b, 0);
  if (!(sum > 0) || yesPrices.some((p) => !Number.isFinite(p) || p < 0)) return null;
  return yesPrices.map((p) => p / sum);
}

/**
 * Whether buckets, lowest first, cover every whole degree once: an open-low tail, contiguous buckets, an open-high
 * tail. Only such a ladder has exactly one winner whatever the day does, which multi-class scores need.
 */
export function isCompleteLadder(buckets: readonly Bucket[]): boolean {
  if (buckets.length < 2 || buckets[0]?.low !== OPEN_LOW || buckets[buckets.length - 1]?.high !== OPEN_HIGH)
    return false;
  return buckets.every((b, i) => i === 0 || b.low === (buckets[i - 1] as Bucket).high + 1);
}

/** The index of the bucket a settled whole-degree value falls in; -1 when none holds it. */
export function winningBucket(buckets: readonly Bucket[], settled: number): number {
  return buckets.findIndex((b) => bucketHolds(b, settled));
}

/** The index of the highest probability (the first of equals): the favourite. */
export function favourite(probabilities: readonly number[]): number {
  return probabilities.reduce((best, p, i) => (p > (probabilities[best] ?? -1) ? i : best), 0);
}

/** One forecaster's scores on one settled day. */
export interface DayScore {
  brier: number;
  logLoss: number;
  /** Its favourite bucket was the one the day settled in. */
  favouriteWon: boolean;
}

const scoreOf = (probabilities: readonly number[], winner: number): DayScore => ({
  brier: brierScore(probabilities, winner),
  logLoss: logLoss(probabilities, winner),
  favouriteWon: favourite(probabilities) === winner,
});

/** The desk and a venue on the same event at the same instant. */
export interface PairedScore {
  desk: DayScore;
  venue: DayScore;
}

/**
 * The desk against a venue on one settled day: the desk's DESIGN 4 bucket probabilities under the market's settlement
 * rule, from its forecast (`mu_c`, `sigma_c`) conditioned on the running METAR high (°C) at that instant, the venue's
 * YES prices normalised by their sum, both over the venue's buckets. Null when the buckets are not one complete
 * ladder, none holds the settled value, or the forecast is unusable.
 */
export function scoreDay(
  buckets: readonly Bucket[],
  yesPrices: readonly number[],
  market: Market,
  forecast: HighForecast,
  runningHighC: number | null,
  settled: number,
): PairedScore | null {
  if (buckets.length !== yesPrices.length || !isCompleteLadder(buckets)) return null;
  const winner = winningBucket(buckets, settled);
  const venue = pricesAsProbabilities(yesPrices);
  if (winner < 0 || venue === null) return null;
  const desk = buckets.map((b) => bucketProbability(b, market, forecast, runningHighC));
  if (desk.some((p) => p === null)) return null;
  return { desk: scoreOf(desk as number[], winner), venue: scoreOf(venue, winner) };
}

/** Mean scores over days: Brier, log loss and the share of days the favourite won. */
export interface MeanScore {
  brier: number;
  logLoss: number;
  favouriteHit: number;
}

const meanOf = (scores: readonly DayScore[]): MeanScore => ({
  brier: scores.reduce((s, d) => s + d.brier, 0) / scores.length,
  logLoss: scores.reduce((s, d) => s + d.logLoss, 0) / scores.length,
  favouriteHit: scores.filter((d) => d.favouriteWon).length / scores.length,
});

/** The desk's and the venue's mean scores over the same days; null for no day. */
export function meanPairedScores(
  days: readonly PairedScore[],
): { days: number; desk: MeanScore; venue: MeanScore } | null {
  if (days.length === 0) return null;
  return { days: days.length, desk: meanOf(days.map((d) => d.desk)), venue: meanOf(days.map((d) => d.venue)) };
}

/** A METAR reading on its local day: the local wall-clock hour (13.5 = half past one) and the value in °C. */
export interface DayReading {
  hour: number;
  value: number;
}

/** The running high as the clock strikes `hour` (readings at or before it); null before the day's first reading. */
export function runningHighAt(readings: readonly DayReading[], hour: number): number | null {
  let high: number | null = null;
  for (const r of readings) if (r.hour <= hour && (high === null || r.value > high)) high = r.value;
  return high;
}

/**
 * For each hour 0..23 of the local day, whether the running high at that hour (at hh:00), a whole °C, already settles
 * at the day's settled value in the market's unit: the bucket holding it is then already the winner.
 */
export function settledByHour(readings: readonly DayReading[], settled: number, unit: Market['unit']): boolean[] {
  const sorted = [...readings].sort((a, b) => a.hour - b.hour);
  const out: boolean[] = [];
  let high: number | null = null;
  let next = 0;
  for (let hour = 0; hour < 24; hour++) {
    for (; next < sorted.length && (sorted[next] as DayReading).hour <= hour; next++) {
      const value = (sorted[next] as DayReading).value;
      if (high === null || value > high) high = value;
    }
    out.push(high !== null && settledValue(roundHalfUp(high), unit) === settled);
  }
  return out;
}

/** Over settled days: how many there were, and for each hour how many already had the running high at the settled value. */
export interface HourlyHits {
  days: number;
  hits: number[];
}

export function hitsByHour(
  days: readonly { readings: readonly DayReading[]; settled: number; unit: Market['unit'] }[],
): HourlyHits {
  const hits = Array.from({ length: 24 }, () => 0);
  let counted = 0;
  for (const day of days) {
    if (day.readings.length === 0) continue;
    counted++;
    settledByHour(day.readings, day.settled, day.unit).forEach((hit, h) => {
      if (hit) hits[h] = (hits[h] as number) + 1;
    });
  }
  return { days: counted, hits };
}
