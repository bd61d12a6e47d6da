import { describe, expect, it } from 'vitest';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from '../../../src/domain/buckets.js';
import { bucketChance, normalSettlement, wholeDegreesC } from '../../../src/server/world/settlement-odds.js';

const bucket = (low: number, high: number): Bucket => ({ slug: `${low}-${high}`, label: `${low}-${high}`, low, high });

describe('wholeDegreesC: the whole degrees C of METAR that settle in a bucket', () => {
  it('a 2 °F bucket holds one whole °C or two; a tail is open', () => {
    // 9 °C = 48.2 °F -> 48; 10 °C = 50.0 °F -> 50; nothing converts to 49 or 51
    expect(wholeDegreesC(bucket(48, 49), 'F')).toEqual([9, 9]);
    expect(wholeDegreesC(bucket(50, 51), 'F')).toEqual([10, 10]);
    // 12 °C = 53.6 °F -> 54 and 13 °C = 55.4 °F -> 55: both in 54-55
    expect(wholeDegreesC(bucket(54, 55), 'F')).toEqual([12, 13]);
    // 8 °C = 46.4 °F -> 46 is the highest at or below 47
    expect(wholeDegreesC(bucket(OPEN_LOW, 47), 'F')).toEqual([null, 8]);
    // 29 °C = 84.2 °F -> 84 is the lowest at or above 83
    expect(wholeDegreesC(bucket(83, OPEN_HIGH), 'F')).toEqual([29, null]);
    expect(wholeDegreesC(bucket(17, 17), 'C')).toEqual([17, 17]);
  });
});

describe('bucketChance over a normal of what is still to come', () => {
  // Phi(0.5) = 0.691462, Phi(1) = 0.841345, Phi(1.5) = 0.933193
  it('gives a 1 °C bucket the mass of its whole degree', () => {
    // P(9.5 <= X < 10.5), X ~ N(10, 1) = Phi(0.5) - Phi(-0.5) = 0.382925
    expect(bucketChance(bucket(10, 10), 'C', normalSettlement(10, 1, null))).toBeCloseTo(0.382925, 5);
  });

  it('gives a 2 °F bucket that holds two whole °C the mass of both', () => {
    // 54-55 °F holds 12 and 13 °C: P(11.5 <= X < 13.5), X ~ N(12.5, 1) = Phi(1) - Phi(-1) = 0.682689
    expect(bucketChance(bucket(54, 55), 'F', normalSettlement(12.5, 1, null))).toBeCloseTo(0.682689, 5);
  });

  it('puts the mass below the running high on the running high’s degree: the high never falls', () => {
    const settles = normalSettlement(10, 1, 11);
    // below 11 °C: dead
    expect(bucketChance(bucket(10, 10), 'C', settles)).toBe(0);
    // 11 °C: P(X < 11.5) = Phi(1.5) = 0.933193
    expect(bucketChance(bucket(11, 11), 'C', settles)).toBeCloseTo(0.933193, 5);
    // 12 °C or higher: 1 - Phi(1.5) = 0.066807
    expect(bucketChance(bucket(12, OPEN_HIGH), 'C', settles)).toBeCloseTo(0.066807, 5);
  });
});
