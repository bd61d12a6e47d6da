import type { MarketUnit } from '../../contract/common.js';
import { cToF, deltaCToF, deltaFToC, fToC } from '../../domain/units.js';

/** A price as venues quote it: three decimals of a dollar. */
export const price = (n: number | null | undefined): string => (n == null ? '—' : n.toFixed(3));

export const usd = (n: number | null | undefined): string => (n == null ? '—' : n.toFixed(2));

/** Signed money: the sign is the meaning, so it is always written. */
export const signedUsd = (n: number | null | undefined): string =>
  n == null ? '—' : `${n > 0 ? '+' : n < 0 ? '-' : '±'}${Math.abs(n).toFixed(2)}`;

export const percent = (n: number | null | undefined, digits = 0): string =>
  n == null || Number.isNaN(n) ? '—' : `${(n * 100).toFixed(digits)}%`;

/** A temperature given in one unit, shown in another. */
export function temp(value: number | null | undefined, from: MarketUnit, to: MarketUnit, digits = 1): string {
  if (value == null) return '—';
  const v = from === to ? value : to === 'F' ? cToF(value) : fToC(value);
  return `${v.toFixed(digits)}°${to}`;
}

/** A temperature difference (sigma, error): converts without the 32-degree offset. */
export function tempDelta(value: number | null | undefined, from: MarketUnit, to: MarketUnit, digits = 1): string {
  if (value == null) return '—';
  const v = from === to ? value : to === 'F' ? deltaCToF(value) : deltaFToC(value);
  return `${v.toFixed(digits)}°${to}`;
}

export const convert = (value: number, from: MarketUnit, to: MarketUnit): number =>
  from === to ? value : to === 'F' ? cToF(value) : fToC(value);
