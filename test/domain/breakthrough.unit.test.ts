import { describe, expect, it } from 'vitest';
import { breakthroughOf, highSetters, leastTrueHigh } from '../../src/domain/breakthrough.js';

/** DESIGN 4 "a flag means what it says", BREAKTHROUGH, on readings and models written by hand. */
const reading = (ms: number, highC: number, c: number | null, f: number | null) => ({
  ms,
  highC,
  warmest: { c, f },
});

describe('BREAKTHROUGH: the least true high a whole-°C report allows, above the warmest model then', () => {
  it('°C market: 12 °C against 11.5 °C is not one, against 11.4 °C it is', () => {
    // 12 - 0.5 = 11.5, not above 11.5
    expect(breakthroughOf([reading(1_000, 12, 11.5, 52.7)], 'C')).toBeNull();
    // 11.5 is 0.1 above 11.4 (the running high 0.6 above it)
    expect(breakthroughOf([reading(1_000, 12, 11.4, 52.52)], 'C')).toEqual({
      atMs: 1_000,
      high: 12,
      least: 11.5,
      warmest: 11.4,
    });
  });

  it('°F market: the least high converted, 23 °C against 73.2 °F is not one, 24 °C is', () => {
    // 23 °C = 73.4 °F reported; at least 22.5 °C = 40.5 + 32 = 72.5 °F, not above 73.2 °F
    expect(breakthroughOf([reading(1_000, 23, 22.89, 73.2)], 'F')).toBeNull();
    // exactly at the model: 72.5 °F is not above 72.5 °F
    expect(breakthroughOf([reading(1_000, 23, 22.5, 72.5)], 'F')).toBeNull();
    // 24 °C = 75.2 °F; at least 23.5 °C = 42.3 + 32 = 74.3 °F, above 73.2 °F
    const flag = breakthroughOf([reading(2_000, 24, 22.89, 73.2)], 'F');
    expect(flag?.atMs).toBe(2_000);
    expect(flag?.high).toBeCloseTo(75.2, 10);
    expect(flag?.least).toBeCloseTo(74.3, 10);
    expect(flag?.warmest).toBe(73.2);
    expect(leastTrueHigh(23, 'F')).toBe(72.5);
  });

  it('the first reading that makes it true, each against its own models; none without a range by then', () => {
    const highs = [
      reading(1_000, 10, 10.2, 50.4), // 9.5 not above 10.2
      { ms: 2_000, highC: 11, warmest: null }, // no range published by then
      reading(3_000, 12, 11.2, 52.2), // 11.5 above 11.2: here
      reading(4_000, 13, 14, 57.2), // models warmer later: the flag already stands
    ];
    expect(breakthroughOf(highs, 'C')?.atMs).toBe(3_000);
    expect(breakthroughOf([], 'C')).toBeNull();
  });

  it('the readings that raised the running high, by whole °C', () => {
    // 5, 9, 12, 12.4 (rounds to 12: not higher), 13, 11
    const points = [
      { ms: 1, temp_f: 41, temp_c: 5 },
      { ms: 2, temp_f: 48.2, temp_c: 9 },
      { ms: 3, temp_f: 53.6, temp_c: 12 },
      { ms: 4, temp_f: 54.3, temp_c: 12.4 },
      { ms: 5, temp_f: 55.4, temp_c: 13 },
      { ms: 6, temp_f: 51.8, temp_c: 11 },
    ];
    expect(highSetters(points)).toEqual([
      { ms: 1, highC: 5 },
      { ms: 2, highC: 9 },
      { ms: 3, highC: 12 },
      { ms: 5, highC: 13 },
    ]);
    // readings without °C: by °F converted, 50 °F = 10 °C, 53.6 °F = 12 °C
    expect(
      highSetters([
        { ms: 1, temp_f: 50, temp_c: null },
        { ms: 2, temp_f: 53.6, temp_c: null },
      ]),
    ).toEqual([
      { ms: 1, highC: 10 },
      { ms: 2, highC: 12 },
    ]);
  });
});
