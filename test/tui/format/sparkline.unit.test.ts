import { describe, expect, it } from 'vitest';
import { PRICE_SCALE, SPARK_LEVELS, scaleOf, sparkline } from '../../../src/tui/format/sparkline.js';

describe('sparkline', () => {
  it('draws prices on 0..1 in eight equal bands', () => {
    // x 8: 0 -> 0 ▁; 0.124 -> 0.992 ▁; 0.125 -> 1 ▂; 0.42 -> 3.36 ▄; 0.5 -> 4 ▅; 0.874 -> 6.992 ▇; 0.875 -> 7 █; 1 -> 8,
    // the top band's end: █
    expect(sparkline([0, 0.124, 0.125, 0.42, 0.5, 0.874, 0.875, 1])).toBe('▁▁▂▄▅▇██');
    expect(SPARK_LEVELS).toHaveLength(8);
  });

  it('compares across rows: the same price is the same level whatever else the row holds', () => {
    // 0.40 x 8 = 3.2: ▄ on a row of its own and beside 0.90 (7.2: █)
    expect(sparkline([0.4, 0.4, 0.4])).toBe('▄▄▄');
    expect(sparkline([0.4, 0.9, 0.4], PRICE_SCALE)).toBe('▄█▄');
  });

  it('leaves a gap blank (or as asked) and draws a value outside the scale at its end', () => {
    expect(sparkline([0.5, null, Number.NaN, 0.5])).toBe('▅  ▅');
    expect(sparkline([null, 0.5], PRICE_SCALE, '·')).toBe('·▅');
    expect(sparkline([-0.2, 1.3])).toBe('▁█');
    expect(sparkline([])).toBe('');
  });

  it('a scale of its own: mu from 54.5 to 56.3 °F, sigma from 0', () => {
    const mu = [54.5, 55.4, 55.4, 56.3];
    const scale = scaleOf([mu]);
    expect(scale).toEqual({ min: 54.5, max: 56.3 });
    // (55.4 - 54.5) / 1.8 = 0.5 -> x 8 = 4: ▅
    expect(sparkline(mu, scale ?? PRICE_SCALE)).toBe('▁▅▅█');
    // sigma 1.8, 1.44, 1.26 on 0..1.8: 1.44 / 1.8 = 0.8 -> 6.4 ▇; 1.26 / 1.8 = 0.7 -> 5.6 ▆
    expect(sparkline([1.8, 1.44, 1.26], scaleOf([[1.8, 1.44, 1.26]], 0) ?? PRICE_SCALE)).toBe('█▇▆');
  });

  it('a flat series on its own scale is the middle level, neither high nor low; no value, no scale', () => {
    const flat = [55.4, 55.4, null, 55.4];
    expect(sparkline(flat, scaleOf([flat]) ?? PRICE_SCALE)).toBe('▄▄ ▄');
    expect(scaleOf([[null, null], []])).toBeNull();
    // two series sharing one scale: both venues of a bucket, 0.40..0.50
    expect(
      scaleOf([
        [0.42, null],
        [0.4, 0.5],
      ]),
    ).toEqual({ min: 0.4, max: 0.5 });
  });
});
