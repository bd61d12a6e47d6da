import type { MarketUnit } from '../contract/common.js';
import { roundHalfUp } from './settlement.js';
import { fToC, toMarketUnit } from './units.js';

/**
 * DESIGN 4 "a flag means what it says", BREAKTHROUGH: the running METAR high proves the day warmer than every model.
 * A METAR reports whole °C, so a report of 12 °C allows a true high as low as 11.5 °C: the least true high the
 * reports allow (the running high minus 0.5 °C, converted in a °F market) must be above the warmest model's Tmax, and
 * that model is the one of the newest `model_tmax_range` published at or before the reading that set the running
 * high: the models as they were at that reading, never a model published later. Judged reading by reading, the flag
 * is the same live, replayed and exported, and it is raised once, at the first reading that makes it true.
 */

/** A METAR reading as the day's series holds it: its instant and its temperature (°C where it carries it). */
export interface HighReading {
  ms: number;
  temp_f: number;
  temp_c: number | null;
}

/** The warmest model's Tmax of a `model_tmax_range`, in both units (null where the row does not carry it). */
export interface WarmestModel {
  c: number | null;
  f: number | null;
}

/** A reading that raised the day's running high (whole °C), and the warmest model published at or before it. */
export interface HighAgainstModels {
  ms: number;
  highC: number;
  warmest: WarmestModel | null;
}

/** The reading that made a day a breakthrough, in the market's unit. */
export interface Breakthrough {
  /** The reading's `observed_at` (ms): the flag holds from it on, and the alert is stamped with it. */
  atMs: number;
  /** The running high it set (its whole °C, converted in a °F market). */
  high: number;
  /** The least true high the reports allow: the whole °C less 0.5 °C, converted in a °F market. */
  least: number;
  /** The warmest model's Tmax published at or before the reading. */
  warmest: number;
}

/** Two temperatures converted from °C differ by float noise only: above means above by more than this. */
const EPSILON = 1e-9;

/** The least true high a whole-°C running high allows, in the market's unit. */
export const leastTrueHigh = (highC: number, unit: MarketUnit): number => toMarketUnit(highC - 0.5, unit);

/**
 * The readings that raised the running high, oldest first, each with the whole °C it set: by °C where any reading
 * of the day carries it (as the running high is read, day-reads.ts `metarHigh`), else by °F converted.
 */
export function highSetters(points: readonly HighReading[]): { ms: number; highC: number }[] {
  const byC = points.some((p) => p.temp_c !== null);
  const out: { ms: number; highC: number }[] = [];
  let high = Number.NEGATIVE_INFINITY;
  for (const p of points) {
    if (byC && p.temp_c === null) continue;
    const c = roundHalfUp(byC ? (p.temp_c as number) : fToC(p.temp_f));
    if (c > high) {
      high = c;
      out.push({ ms: p.ms, highC: c });
    }
  }
  return out;
}

/**
 * The first reading whose least true high is above the warmest model published at or before it; null when none is
 * (no reading, no range published by then, or every reading within the half degree a whole °C cannot resolve).
 */
export function breakthroughOf(highs: readonly HighAgainstModels[], unit: MarketUnit): Breakthrough | null {
  for (const h of highs) {
    const warmest = unit === 'F' ? h.warmest?.f : h.warmest?.c;
    if (warmest === null || warmest === undefined || !Number.isFinite(warmest)) continue;
    const least = leastTrueHigh(h.highC, unit);
    if (least - warmest > EPSILON) return { atMs: h.ms, high: toMarketUnit(h.highC, unit), least, warmest };
  }
  return null;
}
