import type { MarketUnit } from '../contract/common.js';

/**
 * One outcome of a daily-high market. `low`/`high` are the whole degrees the bucket settles on (inclusive);
 * the open ends of the tails are written as -999 and 999, the bounds a leg's `bucket_low`/`bucket_high` carry.
 */
export interface Bucket {
  slug: string;
  label: string;
  low: number;
  high: number;
}

export const OPEN_LOW = -999;
export const OPEN_HIGH = 999;

const deg = (n: number) => (n < 0 ? `minus-${-n}` : `${n}`);

/**
 * The venue's buckets for one market, laid around a centre temperature in the market's unit:
 * F markets have nine 2-degree buckets starting on an even degree (`64-65°F`) between two tails
 * (`63°F or below`, `82°F or higher`); C markets have nine 1-degree buckets (`30°C`) between two tails.
 */
export function marketBuckets(unit: MarketUnit, centre: number): Bucket[] {
  const width = unit === 'F' ? 2 : 1;
  const first = unit === 'F' ? 2 * Math.floor((Math.round(centre) - 8) / 2) : Math.round(centre) - 4;
  const u = unit.toLowerCase();
  const buckets: Bucket[] = [
    { slug: `${deg(first - 1)}${u}-or-below`, label: `${first - 1}°${unit} or below`, low: OPEN_LOW, high: first - 1 },
  ];
  for (let i = 0; i < 9; i++) {
    const low = first + i * width;
    const high = low + width - 1;
    buckets.push(
      width === 1
        ? { slug: `${deg(low)}${u}`, label: `${low}°${unit}`, low, high }
        : { slug: `${deg(low)}-${deg(high)}${u}`, label: `${low}-${high}°${unit}`, low, high },
    );
  }
  const top = first + 9 * width;
  buckets.push({ slug: `${deg(top)}${u}-or-higher`, label: `${top}°${unit} or higher`, low: top, high: OPEN_HIGH });
  return buckets;
}

/** Whether a whole degree of the bucket's unit falls in it (its bounds included; the open ends reach infinity). */
export function bucketHolds(bucket: Pick<Bucket, 'low' | 'high'>, degree: number): boolean {
  return degree >= bucket.low && degree <= bucket.high;
}

/** The bucket a settled whole-degree value falls in. */
export function bucketFor(buckets: readonly Bucket[], settled: number): Bucket {
  const whole = Math.round(settled);
  const hit = buckets.find((b) => bucketHolds(b, whole));
  if (!hit) throw new Error(`no bucket holds ${settled}`);
  return hit;
}
