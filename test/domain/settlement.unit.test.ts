import { describe, expect, it } from 'vitest';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from '../../src/domain/buckets.js';
import {
  bucketHoldsRunningHigh,
  bucketIsDead,
  bucketProbability,
  effectiveEdge,
  type Market,
  riseToNextBucket,
  roundHalfUp,
  runningHighBeyondForecast,
  settledValue,
  usableForecast,
  wholeDegreesC,
} from '../../src/domain/settlement.js';

// Standard normal CDF values from the table, used below:
// Φ(0.5) = 0.691462, Φ(0.9) = 0.815940, Φ(1) = 0.841345, Φ(1.5) = 0.933193, Φ(2) = 0.977250, Φ(2.5) = 0.993790,
// Φ(2.7) = 0.996533; Φ(-z) = 1 - Φ(z).
const b = (label: string, low: number, high: number): Bucket => ({ slug: label, label, low, high });
const F_METAR: Market = { unit: 'F', rule: 'metar_c' };
const F_WHOLE: Market = { unit: 'F', rule: 'whole_f' };
const C_METAR: Market = { unit: 'C', rule: 'metar_c' };

const F47DOWN = b('47°F or below', OPEN_LOW, 47);
const F48 = b('48-49°F', 48, 49);
const F50 = b('50-51°F', 50, 51);
const F52 = b('52-53°F', 52, 53);
const F54 = b('54-55°F', 54, 55);
const F56 = b('56-57°F', 56, 57);
const F83UP = b('83°F or higher', 83, OPEN_HIGH);
const C18 = b('18°C', 18, 18);
const C19 = b('19°C', 19, 19);
const C20 = b('20°C', 20, 20);
const C21UP = b('21°C or higher', 21, OPEN_HIGH);

describe('the settled value and the whole degrees C a bucket holds', () => {
  it('rounds half up, as the venue settles: 69.5 -> 70, 69.4 -> 69, -0.5 -> 0, -1.5 -> -1', () => {
    expect([69.5, 69.4, -0.5, -1.5].map(roundHalfUp)).toEqual([70, 69, 0, -1]);
  });

  it('converts the whole-°C METAR high and rounds half up', () => {
    // 9 °C = 48.2 °F -> 48; 10 °C = 50.0 °F; 13 °C = 55.4 °F -> 55; -1 °C = 30.2 °F -> 30; 14 °C stays 14 in °C
    expect([9, 10, 13, -1].map((c) => settledValue(c, 'F'))).toEqual([48, 50, 55, 30]);
    expect(settledValue(14, 'C')).toBe(14);
  });

  it('a 2 °F bucket holds one whole °C or two; the tails are open', () => {
    // 48-49: 9 °C (48.2); nothing converts to 49.  50-51: 10 °C (50.0); 11 °C is 51.8 -> 52.
    expect(wholeDegreesC(F48, 'F')).toEqual([9, 9]);
    expect(wholeDegreesC(F50, 'F')).toEqual([10, 10]);
    // 52-53: 11 °C (51.8 -> 52) only; 12 °C is 53.6 -> 54
    expect(wholeDegreesC(F52, 'F')).toEqual([11, 11]);
    // 54-55: 12 °C (53.6 -> 54) and 13 °C (55.4 -> 55)
    expect(wholeDegreesC(F54, 'F')).toEqual([12, 13]);
    // 8 °C = 46.4 -> 46 is the highest at or below 47; 29 °C = 84.2 -> 84 the lowest at or above 83
    expect(wholeDegreesC(F47DOWN, 'F')).toEqual([null, 8]);
    expect(wholeDegreesC(F83UP, 'F')).toEqual([29, null]);
    expect(wholeDegreesC(C18, 'C')).toEqual([18, 18]);
  });
});

describe('bucket probability, metar_c (DESIGN 4)', () => {
  it('a °F bucket holding one whole °C gets the mass of that degree only', () => {
    // 48-49°F holds 9 °C: P(8.5 <= X < 9.5), X ~ N(9, 1) = Φ(0.5) - Φ(-0.5) = 0.691462 - 0.308538 = 0.382925
    expect(bucketProbability(F48, F_METAR, { muC: 9, sigmaC: 1 }, null)).toBeCloseTo(0.382925, 5);
  });

  it('a °F bucket holding two whole °C gets the mass of both', () => {
    // 54-55°F holds 12 and 13 °C: P(11.5 <= X < 13.5), X ~ N(12.5, 1) = Φ(1) - Φ(-1) = 0.841345 - 0.158655 = 0.682689
    expect(bucketProbability(F54, F_METAR, { muC: 12.5, sigmaC: 1 }, null)).toBeCloseTo(0.682689, 5);
  });

  it('both tails are open on their side', () => {
    // 47°F or below holds 8 °C and under: P(X < 8.5), X ~ N(9, 1) = Φ(-0.5) = 0.308538
    expect(bucketProbability(F47DOWN, F_METAR, { muC: 9, sigmaC: 1 }, null)).toBeCloseTo(0.308538, 5);
    // 83°F or higher holds 29 °C and over: P(X >= 28.5), X ~ N(28, 1) = 1 - Φ(0.5) = 0.308538
    expect(bucketProbability(F83UP, F_METAR, { muC: 28, sigmaC: 1 }, null)).toBeCloseTo(0.308538, 5);
  });

  it('a °C bucket covers its one degree', () => {
    // 18°C: P(17.5 <= X < 18.5), X ~ N(18.5, 1) = Φ(0) - Φ(-1) = 0.5 - 0.158655 = 0.341345
    expect(bucketProbability(C18, C_METAR, { muC: 18.5, sigmaC: 1 }, null)).toBeCloseTo(0.341345, 5);
  });

  it('a running high inside a bucket keeps it alive and kills the buckets below', () => {
    // running high 12 °C (53.6 °F, settles 54): X conditioned on X >= 11.5, mass 1 - Φ(-1) = 0.841345
    // 54-55 (12 and 13 °C): 0.682689 / 0.841345 = 0.811427
    // 56-57 (14 °C, 57.2 -> 57): P(13.5 <= X < 14.5) = Φ(2) - Φ(1) = 0.135905; / 0.841345 = 0.161532
    // 52-53 (11 °C only) is below the running high's degree: dead
    const forecast = { muC: 12.5, sigmaC: 1 };
    expect(bucketProbability(F54, F_METAR, forecast, 12)).toBeCloseTo(0.811427, 5);
    expect(bucketProbability(F56, F_METAR, forecast, 12)).toBeCloseTo(0.161532, 5);
    expect(bucketProbability(F52, F_METAR, forecast, 12)).toBe(0);
    expect(bucketIsDead(F52, F_METAR, 12)).toBe(true);
    expect(bucketIsDead(F54, F_METAR, 12)).toBe(false);
    expect(bucketHoldsRunningHigh(F54, F_METAR, 12)).toBe(true);
    expect(bucketHoldsRunningHigh(F56, F_METAR, 12)).toBe(false);
  });

  it('a running high above the forecast moves the mass to its own degree and above', () => {
    // N(18, 1), running high 20 °C: X >= 19.5 (z >= 1.5), mass 1 - 0.933193 = 0.066807
    // 20°C: (Φ(2.5) - Φ(1.5)) / 0.066807 = 0.060597 / 0.066807 = 0.9070
    // 21°C or higher: (1 - Φ(2.5)) / 0.066807 = 0.006210 / 0.066807 = 0.0930; 19°C and 18°C: dead
    const forecast = { muC: 18, sigmaC: 1 };
    expect(bucketProbability(C20, C_METAR, forecast, 20)).toBeCloseTo(0.907, 3);
    expect(bucketProbability(C21UP, C_METAR, forecast, 20)).toBeCloseTo(0.093, 3);
    expect(bucketProbability(C19, C_METAR, forecast, 20)).toBe(0);
    expect(bucketProbability(C18, C_METAR, forecast, 20)).toBe(0);
  });

  it('a running high that is no whole degree (a °F-only reading converted) settles at its whole degree first', () => {
    // 19.6 °C settles at 20: the same as a running high of 20 (0.9070 on 20°C above); 19.4 settles at 19, so 19°C
    // lives: X >= 18.5 (z >= 0.5), mass 1 - 0.691462 = 0.308538; 19°C: (Φ(1.5) - Φ(0.5)) / 0.308538
    // = 0.241731 / 0.308538 = 0.783473
    const forecast = { muC: 18, sigmaC: 1 };
    expect(bucketProbability(C20, C_METAR, forecast, 19.6)).toBeCloseTo(0.907, 3);
    expect(bucketIsDead(C19, C_METAR, 19.6)).toBe(true);
    expect(bucketProbability(C19, C_METAR, forecast, 19.4)).toBeCloseTo(0.783473, 5);
    expect(bucketIsDead(C19, C_METAR, 19.4)).toBe(false);
  });

  it('a forecast with numerically no mass at or above the running high settles the day where it is', () => {
    // N(18, 0.5) above 29.5 is z >= 23: nothing. The bucket holding 30 gets 1, every other bucket 0.
    const forecast = { muC: 18, sigmaC: 0.5 };
    expect(bucketProbability(b('30°C or higher', 30, OPEN_HIGH), C_METAR, forecast, 30)).toBe(1);
    expect(bucketProbability(b('31°C or higher', 31, OPEN_HIGH), C_METAR, forecast, 30)).toBe(0);
    expect(bucketProbability(C20, C_METAR, forecast, 30)).toBe(0);
    // in °F: 30 °C = 86 °F, held by 83°F or higher
    expect(bucketProbability(F83UP, F_METAR, forecast, 30)).toBe(1);
    expect(bucketProbability(F56, F_METAR, forecast, 30)).toBe(0);
  });

  it('an unusable forecast prices nothing: null, never NaN', () => {
    for (const forecast of [
      null,
      { muC: 12 },
      { muC: 12, sigmaC: 0 },
      { muC: 12, sigmaC: -1 },
      { muC: 12, sigmaC: Number.NaN },
      { muC: Number.POSITIVE_INFINITY, sigmaC: 1 },
    ]) {
      expect(usableForecast(forecast)).toBeNull();
      expect(bucketProbability(F54, F_METAR, forecast, null)).toBeNull();
    }
  });
});

describe('a running high far outside the forecast (the board flags it CHECK)', () => {
  it('is one the forecast leaves under 1e-9 of its mass at or above: more than about 6 sigma above it', () => {
    const forecast = { muC: 18, sigmaC: 1 };
    // running high 25 °C: X >= 24.5 is z >= 6.5, 1 - Φ(6.5) = 4.0e-11: far outside
    expect(runningHighBeyondForecast(C_METAR, forecast, 25)).toBe(true);
    // 24 °C: z >= 5.5, 1 - Φ(5.5) = 1.9e-8: a rare day, not a bad reading
    expect(runningHighBeyondForecast(C_METAR, forecast, 24)).toBe(false);
    // in a °F market the same: the floor is the running high's whole degree C less half a degree
    expect(runningHighBeyondForecast(F_METAR, forecast, 25)).toBe(true);
    // under whole_f, 24 °C = 75.2 °F settles at 75, X_F >= 74.5 °F = 23.61 °C: z >= 5.61, 1.0e-8: not
    expect(runningHighBeyondForecast(F_WHOLE, forecast, 24)).toBe(false);
  });

  it('never without a running high or a usable forecast', () => {
    expect(runningHighBeyondForecast(C_METAR, { muC: 18, sigmaC: 1 }, null)).toBe(false);
    expect(runningHighBeyondForecast(C_METAR, { muC: 18, sigmaC: 0 }, 40)).toBe(false);
    expect(runningHighBeyondForecast(C_METAR, null, 40)).toBe(false);
  });
});

describe('bucket probability, whole_f (a native whole-°F high)', () => {
  // X ~ N(10 °C, 5/9 °C) is X_F ~ N(50 °F, 1 °F)
  const forecast = { muC: 10, sigmaC: 5 / 9 };

  it('every whole °F is reachable: a bucket a..b covers [a - 0.5, b + 0.5) °F', () => {
    // 50-51°F: P(49.5 <= X_F < 51.5) = Φ(1.5) - Φ(-0.5) = 0.933193 - 0.308538 = 0.624655
    expect(bucketProbability(F50, F_WHOLE, forecast, null)).toBeCloseTo(0.624655, 5);
    // 48-49°F: P(47.5 <= X_F < 49.5) = Φ(-0.5) - Φ(-2.5) = 0.308538 - 0.006210 = 0.302328
    expect(bucketProbability(F48, F_WHOLE, forecast, null)).toBeCloseTo(0.302328, 5);
  });

  it('differs from metar_c on the same forecast: there 48-49 holds 9 °C only, 50-51 10 °C only', () => {
    // 50-51°F: P(9.5 <= X < 10.5) = Φ(0.9) - Φ(-0.9) = 2 × 0.815940 - 1 = 0.631880
    // 48-49°F: P(8.5 <= X < 9.5) = Φ(-0.9) - Φ(-2.7) = 0.184060 - 0.003467 = 0.180593
    expect(bucketProbability(F50, F_METAR, forecast, null)).toBeCloseTo(0.63188, 5);
    expect(bucketProbability(F48, F_METAR, forecast, null)).toBeCloseTo(0.180593, 5);
  });

  it('conditions on the running high settled in whole °F', () => {
    // running high 10 °C = 50 °F: X_F >= 49.5, mass 1 - Φ(-0.5) = 0.691462; 50-51: 0.624655 / 0.691462 = 0.903383
    expect(bucketProbability(F50, F_WHOLE, forecast, 10)).toBeCloseTo(0.903383, 5);
    expect(bucketProbability(F48, F_WHOLE, forecast, 10)).toBe(0);
    expect(bucketIsDead(F48, F_WHOLE, 10)).toBe(true);
  });

  it('means nothing in a °C market: the rule stays metar_c there', () => {
    expect(bucketProbability(C18, { unit: 'C', rule: 'whole_f' }, { muC: 18.5, sigmaC: 1 }, null)).toBeCloseTo(
      0.341345,
      5,
    );
  });
});

describe('next: how far the running high must rise to leave its bucket (DESIGN 4)', () => {
  it('in a °F market, the °F value of the next whole °C that leaves the bucket, minus the running high', () => {
    // 14 °C = 57.2 °F sits in 56-57; 15 °C = 59.0 °F leaves it: 59.0 - 57.2 = 1.8
    expect(riseToNextBucket(F56, F_METAR, 14)).toBeCloseTo(1.8, 10);
    // 12 °C = 53.6 °F sits in 54-55, which also holds 13 °C; 14 °C = 57.2 °F leaves it: 57.2 - 53.6 = 3.6
    expect(riseToNextBucket(F54, F_METAR, 12)).toBeCloseTo(3.6, 10);
  });

  it('in a °C market, one degree above the bucket minus the running high; null in the top tail', () => {
    expect(riseToNextBucket(C20, C_METAR, 20)).toBe(1);
    expect(riseToNextBucket(C21UP, C_METAR, 23)).toBeNull();
  });

  it('under whole_f, the next whole °F above the bucket minus the running high in whole °F', () => {
    // 14 °C = 57.2 °F settles at 57 in 56-57: 58 - 57 = 1
    expect(riseToNextBucket(F56, F_WHOLE, 14)).toBe(1);
  });
});

describe('effective edge (DESIGN 4)', () => {
  it('takes half the overround as the cost on both sides', () => {
    // yes 0.30 + no 0.74 = 1.04: cost (1.04 - 1) / 2 = 0.02; YES 0.40 - 0.30 - 0.02 = 0.08; NO 0.60 - 0.74 - 0.02 = -0.16
    const e = effectiveEdge(0.4, 0.3, 0.74);
    expect(e.cost).toBeCloseTo(0.02, 10);
    expect(e.yes).toBeCloseTo(0.08, 10);
    expect(e.no).toBeCloseTo(-0.16, 10);
  });

  it('never charges under a cent', () => {
    // yes 0.30 + no 0.70 = 1.00: cost max(0.01, 0) = 0.01; YES 0.25 - 0.30 - 0.01 = -0.06; NO 0.75 - 0.70 - 0.01 = 0.04
    const e = effectiveEdge(0.25, 0.3, 0.7);
    expect(e.cost).toBe(0.01);
    expect(e.yes).toBeCloseTo(-0.06, 10);
    expect(e.no).toBeCloseTo(0.04, 10);
  });
});
