import { describe, expect, it } from 'vitest';
import { OPEN_HIGH, OPEN_LOW } from '../../src/domain/buckets.js';
import {
  brierScore,
  favourite,
  hitsByHour,
  isCompleteLadder,
  logLoss,
  meanPairedScores,
  pricesAsProbabilities,
  runningHighAt,
  scoreDay,
  settledByHour,
  winningBucket,
} from '../../src/domain/calibration.js';
import type { Market } from '../../src/domain/settlement.js';

/** A C market of four buckets: `19°C or below`, `20°C`, `21°C`, `22°C or higher`. */
const LADDER = [
  { slug: '19c-or-below', label: '19°C or below', low: OPEN_LOW, high: 19 },
  { slug: '20c', label: '20°C', low: 20, high: 20 },
  { slug: '21c', label: '21°C', low: 21, high: 21 },
  { slug: '22c-or-higher', label: '22°C or higher', low: 22, high: OPEN_HIGH },
];

/** A °F market on the whole-°C METAR lattice: `47°F or below` (8 °C and under), `48-49°F` (9), `50-51°F` (10), `52°F or higher` (11 and over). */
const F_LADDER = [
  { slug: '47f-or-below', label: '47°F or below', low: OPEN_LOW, high: 47 },
  { slug: '48-49f', label: '48-49°F', low: 48, high: 49 },
  { slug: '50-51f', label: '50-51°F', low: 50, high: 51 },
  { slug: '52f-or-higher', label: '52°F or higher', low: 52, high: OPEN_HIGH },
];
const C_MARKET: Market = { unit: 'C', rule: 'metar_c' };
const F_MARKET: Market = { unit: 'F', rule: 'metar_c' };
const FORECAST = { muC: 20.5, sigmaC: 1 };

// Phi(-1) = 0.158655, Phi(-0.5) = 0.308538, Phi(0) = 0.5, Phi(0.5) = 0.691462, Phi(1) = 0.841345, Phi(1.5) = 0.933193
// (normal table)

describe('Brier score and log loss of one settled event', () => {
  it('sums the squared misses over every bucket', () => {
    // (0.2 - 0)^2 + (0.5 - 1)^2 + (0.3 - 0)^2 = 0.04 + 0.25 + 0.09 = 0.38
    expect(brierScore([0.2, 0.5, 0.3], 1)).toBeCloseTo(0.38, 10);
    // certain and right: 0; certain and wrong: 1 + 1 = 2
    expect(brierScore([0, 1, 0], 1)).toBe(0);
    expect(brierScore([1, 0, 0], 1)).toBe(2);
  });

  it('takes -ln of the winner’s probability, floored at 0.001', () => {
    // -ln 0.5 = 0.693147
    expect(logLoss([0.2, 0.5, 0.3], 1)).toBeCloseTo(Math.LN2, 6);
    // a winner given 0 scores -ln 0.001 = 6.907755, not infinity
    expect(logLoss([1, 0], 1)).toBeCloseTo(6.907755, 6);
    expect(logLoss([0.9995, 0.0005], 1)).toBeCloseTo(6.907755, 6);
  });

  it('reads YES prices as probabilities by dividing by their sum (the overround taken out)', () => {
    // 0.3 + 0.5 + 0.3 = 1.1: 0.3 / 1.1 = 0.272727, 0.5 / 1.1 = 0.454545
    const p = pricesAsProbabilities([0.3, 0.5, 0.3]) as number[];
    expect(p[0]).toBeCloseTo(0.272727, 6);
    expect(p[1]).toBeCloseTo(0.454545, 6);
    expect(p[2]).toBeCloseTo(0.272727, 6);
    expect(pricesAsProbabilities([0, 0])).toBeNull();
    expect(pricesAsProbabilities([0.5, Number.NaN])).toBeNull();
  });

  it('knows a complete ladder, the winning bucket and the favourite', () => {
    expect(isCompleteLadder(LADDER)).toBe(true);
    // a gap (20°C missing), no low tail, no high tail
    expect(isCompleteLadder([LADDER[0], LADDER[2], LADDER[3]] as typeof LADDER)).toBe(false);
    expect(isCompleteLadder(LADDER.slice(1))).toBe(false);
    expect(isCompleteLadder(LADDER.slice(0, 3))).toBe(false);
    expect(winningBucket(LADDER, 21)).toBe(2);
    expect(winningBucket(LADDER, -4)).toBe(0);
    expect(winningBucket(LADDER, 30)).toBe(3);
    expect(winningBucket(LADDER.slice(1, 3), 25)).toBe(-1);
    // the first of equals
    expect(favourite([0.2, 0.4, 0.4])).toBe(1);
    expect(favourite([0.1, 0.2, 0.7])).toBe(2);
  });
});

describe('the desk against a venue at 12:00', () => {
  it('conditions the desk on the running high: a high of 20.6 already settles at 21, so 19 and 20 are dead', () => {
    // mu 20.5, sigma 1; the running high 20.6 settles at 21, so X >= 20.5: alive = 1 - Phi(0) = 0.5
    // desk: 0, 0, (Phi(1) - Phi(0)) / 0.5 = 0.682689, (1 - Phi(1)) / 0.5 = 0.317311; the day settled at 21
    // desk Brier 0 + 0 + 0.317311^2 + 0.317311^2 = 0.201372; log loss -ln 0.682689 = 0.381715
    // venue 0.05 0.30 0.50 0.25 (sum 1.10): Brier (0.05^2 + 0.30^2 + (0.50 - 1.10)^2 + 0.25^2) / 1.10^2
    //   = (0.0025 + 0.09 + 0.36 + 0.0625) / 1.21 = 0.425620; log loss -ln (0.50 / 1.10) = ln 2.2 = 0.788457
    const s = scoreDay(LADDER, [0.05, 0.3, 0.5, 0.25], C_MARKET, FORECAST, 20.6, 21);
    expect(s?.desk.brier).toBeCloseTo(0.201372, 5);
    expect(s?.desk.logLoss).toBeCloseTo(0.381715, 5);
    expect(s?.desk.favouriteWon).toBe(true);
    expect(s?.venue.brier).toBeCloseTo(0.42562, 5);
    expect(s?.venue.logLoss).toBeCloseTo(0.788457, 5);
    expect(s?.venue.favouriteWon).toBe(true);
  });

  it('scores the desk unconditioned before the day’s first reading', () => {
    // desk: Phi(-1) = 0.158655, Phi(0) - Phi(-1) = 0.341345, 0.341345, 0.158655; the day settled at 23 (top tail)
    // Brier 0.158655^2 + 0.341345^2 + 0.341345^2 + (0.158655 - 1)^2 = 0.025171 + 2 * 0.116517 + 0.707861 = 0.966065
    // log loss -ln 0.158655 = 1.841022; the favourite (20°C, the first of two equals) lost
    // venue 0.1 0.4 0.4 0.1 (sum 1): Brier 0.01 + 0.16 + 0.16 + 0.81 = 1.14, log loss ln 10 = 2.302585
    const s = scoreDay(LADDER, [0.1, 0.4, 0.4, 0.1], C_MARKET, FORECAST, null, 23);
    expect(s?.desk.brier).toBeCloseTo(0.966065, 5);
    expect(s?.desk.logLoss).toBeCloseTo(1.841022, 5);
    expect(s?.desk.favouriteWon).toBe(false);
    expect(s?.venue.brier).toBeCloseTo(1.14, 10);
    expect(s?.venue.logLoss).toBeCloseTo(Math.LN10, 5);
    expect(s?.venue.favouriteWon).toBe(false);
  });

  it('does not score a day it cannot: an incomplete ladder, prices missing a bucket, no price at all', () => {
    expect(scoreDay(LADDER.slice(1), [0.3, 0.5, 0.3], C_MARKET, FORECAST, null, 21)).toBeNull();
    expect(scoreDay(LADDER, [0.3, 0.5, 0.3], C_MARKET, FORECAST, null, 21)).toBeNull();
    expect(scoreDay(LADDER, [0, 0, 0, 0], C_MARKET, FORECAST, null, 21)).toBeNull();
    // a forecast the rule cannot use (sigma 0) prices nothing: the day is not scored
    expect(scoreDay(LADDER, [0.1, 0.4, 0.4, 0.1], C_MARKET, { muC: 20.5, sigmaC: 0 }, null, 21)).toBeNull();
  });

  it('prices a °F market on the whole-°C lattice', () => {
    // N(9, 1) °C, no reading yet: 47- holds 8 °C and under, P(X < 8.5) = Phi(-0.5) = 0.308538; 48-49 holds 9 °C,
    // Phi(0.5) - Phi(-0.5) = 0.382925; 50-51 holds 10 °C, Phi(1.5) - Phi(0.5) = 0.241731; 52+ holds 11 and over,
    // 1 - Phi(1.5) = 0.066807. Settled at 50 (10 °C): Brier 0.308538^2 + 0.382925^2 + (0.241731 - 1)^2 + 0.066807^2
    // = 0.095196 + 0.146632 + 0.574973 + 0.004463 = 0.821264; log loss -ln 0.241731 = 1.419932; the favourite
    // (48-49) lost. Venue 0.3 0.4 0.2 0.1 (sum 1): Brier 0.09 + 0.16 + 0.64 + 0.01 = 0.9, log loss -ln 0.2 = 1.609438
    const s = scoreDay(F_LADDER, [0.3, 0.4, 0.2, 0.1], F_MARKET, { muC: 9, sigmaC: 1 }, null, 50);
    expect(s?.desk.brier).toBeCloseTo(0.821264, 5);
    expect(s?.desk.logLoss).toBeCloseTo(1.419932, 5);
    expect(s?.desk.favouriteWon).toBe(false);
    expect(s?.venue.brier).toBeCloseTo(0.9, 10);
    expect(s?.venue.logLoss).toBeCloseTo(1.609438, 5);
  });

  it('averages paired days', () => {
    const one = scoreDay(LADDER, [0.05, 0.3, 0.5, 0.25], C_MARKET, FORECAST, 20.6, 21);
    const two = scoreDay(LADDER, [0.1, 0.4, 0.4, 0.1], C_MARKET, FORECAST, null, 23);
    const mean = meanPairedScores([one, two].filter((d) => d !== null));
    // desk Brier (0.201372 + 0.966065) / 2 = 0.583718, log loss (0.381715 + 1.841022) / 2 = 1.111368, favourite 1 of 2
    // venue Brier (0.425620 + 1.14) / 2 = 0.782810, log loss (0.788457 + 2.302585) / 2 = 1.545521
    expect(mean?.days).toBe(2);
    expect(mean?.desk.brier).toBeCloseTo(0.583718, 5);
    expect(mean?.desk.logLoss).toBeCloseTo(1.111368, 5);
    expect(mean?.desk.favouriteHit).toBe(0.5);
    expect(mean?.venue.brier).toBeCloseTo(0.78281, 5);
    expect(mean?.venue.logLoss).toBeCloseTo(1.545521, 5);
    expect(mean?.venue.favouriteHit).toBe(0.5);
    expect(meanPairedScores([])).toBeNull();
  });
});

describe('the running high by hour of the local day', () => {
  // °C readings at 00:00 15.0, 06:00 14.0, 12:00 20.6, 14:00 21.2, 15:00 20.0
  const A = [
    { hour: 0, value: 15 },
    { hour: 6, value: 14 },
    { hour: 12, value: 20.6 },
    { hour: 14, value: 21.2 },
    { hour: 15, value: 20 },
  ];

  it('counts the readings at or before the hour', () => {
    expect(runningHighAt(A, 11.99)).toBe(15);
    expect(runningHighAt(A, 12)).toBe(20.6);
    expect(runningHighAt(A, 23)).toBe(21.2);
    expect(runningHighAt([{ hour: 0.5, value: 3 }], 0)).toBeNull();
  });

  it('says from which hour the running high already settles at the day’s value', () => {
    // 15 until 11:00, 20.6 (settles at 21) from 12:00, 21.2 (21) from 14:00: hours 12..23 hit
    expect(settledByHour(A, 21, 'C')).toEqual([...Array(12).fill(false), ...Array(12).fill(true)]);
  });

  it('in a °F market, settles the whole-°C high converted: 12 °C is 53.6 °F, 54', () => {
    // 11 °C (51.8 -> 52) until 09:00, 12 °C (53.6 -> 54) from 10:00: a day settled at 54 hits from 10:00
    const readings = [
      { hour: 0, value: 11 },
      { hour: 10, value: 12 },
    ];
    expect(settledByHour(readings, 54, 'F')).toEqual([...Array(10).fill(false), ...Array(14).fill(true)]);
    expect(settledByHour(readings, 53, 'F').some(Boolean)).toBe(false);
  });

  it('adds the hits up over settled days, leaving out days without a reading', () => {
    // B settled at 20: 18.4 at 00:00, 19.5 at 13:00 (half up: 20, a hit from 13:00), 20.4 at 16:00 (20)
    const B = [
      { hour: 0, value: 18.4 },
      { hour: 13, value: 19.5 },
      { hour: 16, value: 20.4 },
    ];
    // D settled at 22: its only reading at 00:30, so a hit from 01:00
    const D = [{ hour: 0.5, value: 22 }];
    const h = hitsByHour([
      { readings: A, settled: 21, unit: 'C' },
      { readings: B, settled: 20, unit: 'C' },
      { readings: [], settled: 25, unit: 'C' },
      { readings: D, settled: 22, unit: 'C' },
    ]);
    // hour 0: none; 1..11: D; 12: A and D; 13..23: A, B and D
    expect(h.days).toBe(3);
    expect(h.hits).toEqual([0, ...Array(11).fill(1), 2, ...Array(11).fill(3)]);
  });
});
