import type { MarketUnit } from '../contract/common.js';

export const round = (value: number, digits = 2): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export const cToF = (c: number): number => (c * 9) / 5 + 32;
export const fToC = (f: number): number => ((f - 32) * 5) / 9;

/** Differences (sigma, spread, errors) scale without the 32-degree offset. */
export const deltaCToF = (c: number): number => (c * 9) / 5;
export const deltaFToC = (f: number): number => (f * 5) / 9;

/** Markets settle in degrees F in the US and the UK, in degrees C in continental Europe (spec section 1). */
export const marketUnitOf = (country: string | undefined): MarketUnit =>
  country === 'US' || country === 'GB' ? 'F' : 'C';

/** A temperature in the market's unit, from degrees C. */
export const toMarketUnit = (c: number, unit: MarketUnit): number => (unit === 'F' ? cToF(c) : c);
export const deltaToMarketUnit = (c: number, unit: MarketUnit): number => (unit === 'F' ? deltaCToF(c) : c);

/**
 * The `_f` / `_c` aliases the API adds beside a raw column (spec 2.3). Absolute temperatures convert with the offset,
 * differences (`kind: 'delta'`) without it. Aliases carry two decimals; the raw value is passed through untouched.
 */
export function withAliases(
  name: string,
  raw: number,
  rawUnit: 'F' | 'C',
  kind: 'absolute' | 'delta' = 'absolute',
): Record<string, number> {
  const toF = kind === 'absolute' ? cToF : deltaCToF;
  const toC = kind === 'absolute' ? fToC : deltaFToC;
  const f = rawUnit === 'F' ? raw : round(toF(raw));
  const c = rawUnit === 'C' ? raw : round(toC(raw));
  return { [name]: raw, [`${name}_f`]: f, [`${name}_c`]: c };
}
