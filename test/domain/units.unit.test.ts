import { describe, expect, it } from 'vitest';
import { marketUnitOf, round } from '../../src/domain/units.js';

describe('units', () => {
  it('settles markets in °F in the US and the UK, in °C elsewhere (and when the country is unknown)', () => {
    expect(marketUnitOf('US')).toBe('F');
    expect(marketUnitOf('GB')).toBe('F');
    expect(marketUnitOf('FR')).toBe('C');
    expect(marketUnitOf('DE')).toBe('C');
    expect(marketUnitOf(undefined)).toBe('C');
  });

  it('rounds to cents by default, and to other places when asked', () => {
    // 12.5 x 0.7 is 8.749999999999998 in binary floating point: the cents are still -1.25
    expect(round(12.5 * 0.7 - 10)).toBe(-1.25);
    expect(round(1.234)).toBe(1.23);
    expect(round(2 / 3, 3)).toBe(0.667);
  });
});
