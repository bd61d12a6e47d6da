import { describe, expect, it } from 'vitest';
import { bucketFor, marketBuckets, OPEN_HIGH, OPEN_LOW } from '../../src/domain/buckets.js';
import { bucketProbability, type Market, settledValue } from '../../src/domain/settlement.js';
import { cToF, deltaCToF, fToC, withAliases } from '../../src/domain/units.js';

describe('market buckets', () => {
  it('lays out a degrees-F market as the venue lists it', () => {
    const buckets = marketBuckets('F', 73);
    expect(buckets.map((b) => b.label)).toEqual([
      '63°F or below',
      '64-65°F',
      '66-67°F',
      '68-69°F',
      '70-71°F',
      '72-73°F',
      '74-75°F',
      '76-77°F',
      '78-79°F',
      '80-81°F',
      '82°F or higher',
    ]);
    expect(buckets[0]).toMatchObject({ slug: '63f-or-below', low: OPEN_LOW, high: 63 });
    expect(buckets[10]).toMatchObject({ slug: '82f-or-higher', low: 82, high: OPEN_HIGH });
  });

  it('lays out a degrees-C market in single degrees, negatives included', () => {
    const labels = marketBuckets('C', 1).map((b) => b.label);
    expect(labels[0]).toBe('-4°C or below');
    expect(labels[1]).toBe('-3°C');
    expect(labels[10]).toBe('6°C or higher');
    expect(marketBuckets('C', 1)[1]?.slug).toBe('minus-3c');
  });

  it('settles on whole degrees of the market unit', () => {
    const buckets = marketBuckets('F', 73);
    expect(bucketFor(buckets, settledValue(21, 'F')).label).toBe('70-71°F'); // 21 C = 69.8 F -> 70
    expect(bucketFor(buckets, 50).label).toBe('63°F or below');
    expect(bucketFor(buckets, 95).label).toBe('82°F or higher');
  });

  it('gives probabilities that sum to one over a market and peak at the mean', () => {
    // 22.4 °C = 72.3 °F: the favourite is 72-73°F, which holds 22 °C (71.6 -> 72) and 23 °C (73.4 -> 73)
    // 18.2 °C in a °C market: the favourite is 18°C
    for (const [unit, muC, sigmaC, favourite] of [
      ['F', 22.4, 1.4, '72-73°F'],
      ['C', 18.2, 0.6, '18°C'],
    ] as const) {
      const market: Market = { unit, rule: 'metar_c' };
      const buckets = marketBuckets(unit, unit === 'F' ? 72.3 : muC);
      const probs = buckets.map((b) => bucketProbability(b, market, { muC, sigmaC }, null) as number);
      expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
      expect(buckets[probs.indexOf(Math.max(...probs))]?.label).toBe(favourite);
    }
  });

  it('lets an open tail outweigh single buckets when the forecast is wide', () => {
    const market: Market = { unit: 'C', rule: 'metar_c' };
    const buckets = marketBuckets('C', 18.2);
    const probs = buckets.map((b) => bucketProbability(b, market, { muC: 18.2, sigmaC: 4 }, null) as number);
    expect(probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    // 13°C or below under N(18.2, 4): P(X < 13.5) = Φ(-1.175) = 0.119997
    expect(buckets[0]?.label).toBe('13°C or below');
    expect(probs[0]).toBeCloseTo(0.119997, 5);
    // 18°C: P(17.5 <= X < 18.5) = Φ(0.075) - Φ(-0.175) = 0.529893 - 0.430540 = 0.099353
    expect(probs[5]).toBeCloseTo(0.099353, 5);
    expect(probs[0]).toBeGreaterThan(probs[5] as number);
  });
});

describe('units', () => {
  it('converts temperatures with the offset and differences without it', () => {
    expect(cToF(100)).toBe(212);
    expect(fToC(32)).toBe(0);
    expect(deltaCToF(5)).toBe(9);
    expect(withAliases('sigma', 2.7, 'F', 'delta')).toEqual({ sigma: 2.7, sigma_f: 2.7, sigma_c: 1.5 });
    expect(withAliases('predicted_max', 54.9, 'F')).toEqual({
      predicted_max: 54.9,
      predicted_max_f: 54.9,
      predicted_max_c: 12.72,
    });
  });
});
