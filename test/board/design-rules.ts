import { expect } from 'vitest';

/**
 * DESIGN 4's rules written again by the tests that check the board against the reference service, from DESIGN's
 * words and not from the production code: their own normal distribution (Simpson's rule on the density, no CDF
 * formula), their own whole-°C lattice (every whole degree C converted and rounded, no bucket-edge algebra), their
 * own reading of labels and of a zone's local day.
 */
const HOUR = 3_600_000;

/** P(a <= Z < b) for a standard normal, by Simpson's rule on its density (the tails cut at ±40 sigma). */
export function normalMass(a: number, b: number): number {
  const lo = Math.max(a, -40);
  const hi = Math.min(b, 40);
  if (hi <= lo) return 0;
  const n = 20_000;
  const h = (hi - lo) / n;
  const f = (z: number) => Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  let sum = f(lo) + f(hi);
  for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * f(lo + i * h);
  return (sum * h) / 3;
}
export const halfUp = (x: number) => Math.floor(x + 0.5);
/** A label read by the test: whole degrees, null at an open end. */
export function readLabel(label: string): { low: number | null; high: number | null; unit: 'F' | 'C' } | null {
  let m = label.match(/^(-?\d+)°([FC]) or below$/);
  if (m) return { low: null, high: Number(m[1]), unit: m[2] as 'F' | 'C' };
  m = label.match(/^(-?\d+)°([FC]) or higher$/);
  if (m) return { low: Number(m[1]), high: null, unit: m[2] as 'F' | 'C' };
  m = label.match(/^(-?\d+)-(-?\d+)°([FC])$/);
  if (m) return { low: Number(m[1]), high: Number(m[2]), unit: m[3] as 'F' | 'C' };
  m = label.match(/^(-?\d+)°([FC])$/);
  if (m) return { low: Number(m[1]), high: Number(m[1]), unit: m[2] as 'F' | 'C' };
  return null;
}
/** Every whole °C of METAR (-80..80) whose settled value, in the market's unit, falls in the bucket. */
export function degreesIn(bucket: NonNullable<ReturnType<typeof readLabel>>): number[] {
  const out: number[] = [];
  for (let c = -80; c <= 80; c++) {
    const settled = bucket.unit === 'F' ? halfUp(c * 1.8 + 32) : c;
    if ((bucket.low === null || settled >= bucket.low) && (bucket.high === null || settled <= bucket.high)) out.push(c);
  }
  return out;
}
/**
 * DESIGN 4's p, as its text says: the sum over the whole °C values c >= r whose settled value falls in the bucket of
 * P(c - 0.5 <= X < c + 0.5), divided by P(X >= r - 0.5); when that is numerically nothing, 1 for the bucket holding r.
 */
export function designP(label: string, muC: number, sigmaC: number, r: number | null): number | null {
  const bucket = readLabel(label);
  if (!bucket || !(sigmaC > 0)) return null;
  const z = (x: number) => (x - muC) / sigmaC;
  const reachable = degreesIn(bucket).filter((c) => r === null || c >= r);
  const alive = r === null ? 1 : normalMass(z(r - 0.5), Number.POSITIVE_INFINITY);
  if (alive < 1e-9) return r !== null && degreesIn(bucket).includes(r) ? 1 : 0;
  return reachable.reduce((s, c) => s + normalMass(z(c - 0.5), z(c + 0.5)), 0) / alive;
}
/** The city's local date at an instant, and the first instant of that date (by bisection on the zone's clock). */
export function localDay(tz: string, ms: number): { date: string; startMs: number } {
  const dateAt = (t: number) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date(t));
  const date = dateAt(ms);
  let before = Date.parse(`${date}T00:00:00Z`) - 15 * HOUR;
  let after = ms;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (dateAt(mid) < date) before = mid;
    else after = mid;
  }
  return { date, startMs: after };
}

/** DESIGN 4's best edge takes a side that is positive and has an offer: a price strictly between 0.01 and 0.99. */
export const bestEdgeCandidate = (e: { price: number; edge: number }): boolean =>
  e.edge > 0 && e.price > 0.01 && e.price < 0.99;

/**
 * DESIGN 3: a number carries the precision it means, `digits` decimals (4 for probabilities, prices and edges, 2 for
 * temperatures, spread and next): a value written with no more decimals than that, within half its last digit of
 * what it stands for.
 */
export const atPrecision = (expected: number, digits: number) =>
  expect.toSatisfy(
    (v: unknown) =>
      typeof v === 'number' &&
      (String(v).split('.')[1]?.length ?? 0) <= digits &&
      Math.abs(v - expected) <= 0.5 * 10 ** -digits + 1e-9,
    `${expected} at ${digits} decimals`,
  );
