import { describe, expect, it } from 'vitest';
import { bucketIsDead, bucketProbability, effectiveEdge } from '../../src/domain/bucket-probability.js';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from '../../src/domain/buckets.js';

// Standard normal CDF values used below (tables; the code's erf approximation is within 1.5e-7):
// Φ(-1) = 0.158655, Φ(-0.5) = 0.308538, Φ(0) = 0.5, Φ(0.5) = 0.691462, Φ(1.5) = 0.933193, Φ(2.5) = 0.993790
const b = (label: string, low: number, high: number): Bucket => ({ slug: label, label, low, high });
const F72 = b('72-73°F', 72, 73);
const F70 = b('70-71°F', 70, 71);
const F74 = b('74-75°F', 74, 75);
const C18 = b('18°C', 18, 18);
const C19 = b('19°C', 19, 19);
const C20 = b('20°C', 20, 20);
const C21UP = b('21°C or higher', 21, OPEN_HIGH);

describe('bucket probability (DESIGN 4)', () => {
  it('a 2 °F bucket covers [a - 0.5, b + 0.5)', () => {
    // N(72.5, 2): [71.5, 73.5) is z -0.5 .. 0.5: 0.691462 - 0.308538 = 0.382925
    expect(bucketProbability(F72, 72.5, 2)).toBeCloseTo(0.382925, 5);
  });

  it('a 1 °C bucket covers one degree', () => {
    // N(18.5, 1): [17.5, 18.5) is z -1 .. 0: 0.5 - 0.158655 = 0.341345
    expect(bucketProbability(C18, 18.5, 1)).toBeCloseTo(0.341345, 5);
  });

  it('both tails are open on their side', () => {
    // 63°F or below under N(65.5, 2): X < 63.5 is z < -1: 0.158655
    expect(bucketProbability(b('63°F or below', OPEN_LOW, 63), 65.5, 2)).toBeCloseTo(0.158655, 5);
    // 82°F or higher under N(80.5, 2): X >= 81.5 is z >= 0.5: 1 - 0.691462 = 0.308538
    expect(bucketProbability(b('82°F or higher', 82, OPEN_HIGH), 80.5, 2)).toBeCloseTo(0.308538, 5);
  });

  it('a running high inside a bucket keeps that bucket alive and kills those below', () => {
    // running high 72.4 °F settles at 72: X conditioned on X >= 71.5 (z >= -0.5), mass 1 - 0.308538 = 0.691462
    // 72-73: 0.382925 / 0.691462 = 0.553790; 74-75: [73.5, 75.5) is z 0.5 .. 1.5: (0.933193 - 0.691462) / 0.691462
    // = 0.241731 / 0.691462 = 0.349593; 70-71 tops out at 71 < 72: dead
    expect(bucketProbability(F72, 72.5, 2, 72.4)).toBeCloseTo(0.55379, 5);
    expect(bucketProbability(F74, 72.5, 2, 72.4)).toBeCloseTo(0.349593, 5);
    expect(bucketProbability(F70, 72.5, 2, 72.4)).toBe(0);
    expect(bucketIsDead(F70, 72.4)).toBe(true);
    expect(bucketIsDead(F72, 72.4)).toBe(false);
    // half up: 72.5 settles at 73, so the condition is X >= 72.5 (z >= 0, mass 0.5) and 72-73 keeps [72.5, 73.5):
    // (0.691462 - 0.5) / 0.5 = 0.382925
    expect(bucketProbability(F72, 72.5, 2, 72.5)).toBeCloseTo(0.382925, 5);
  });

  it('a running high above the forecast moves the mass to its own bucket and above', () => {
    // N(18, 1), running high 19.6 °C settles at 20: X >= 19.5 (z >= 1.5), mass 1 - 0.933193 = 0.066807
    // 20°C: [19.5, 20.5) z 1.5 .. 2.5: (0.993790 - 0.933193) / 0.066807 = 0.060597 / 0.066807 = 0.907047
    // 21°C or higher: (1 - 0.993790) / 0.066807 = 0.006210 / 0.066807 = 0.092953; 19°C and 18°C: dead
    expect(bucketProbability(C20, 18, 1, 19.6)).toBeCloseTo(0.907047, 4);
    expect(bucketProbability(C21UP, 18, 1, 19.6)).toBeCloseTo(0.092953, 4);
    expect(bucketProbability(C19, 18, 1, 19.6)).toBe(0);
    expect(bucketProbability(C18, 18, 1, 19.6)).toBe(0);
  });

  it('a running high far beyond the forecast settles where it is', () => {
    // N(18, 0.5) leaves no mass above 29.5: the bucket holding 30 gets it all
    expect(bucketProbability(b('30°C or higher', 30, OPEN_HIGH), 18, 0.5, 30)).toBe(1);
    expect(bucketProbability(b('31°C or higher', 31, OPEN_HIGH), 18, 0.5, 30)).toBe(0);
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
