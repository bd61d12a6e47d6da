import type { MarketUnit } from '../contract/common.js';
import { type Bucket, OPEN_HIGH, OPEN_LOW } from './buckets.js';

/**
 * A venue's bucket label read back into whole-degree bounds: `63°F or below`, `64-65°F`, `30°C`, `82°F or
 * higher`. Null for a label of another shape.
 */
export function parseBucketLabel(label: string, slug = ''): (Bucket & { unit: MarketUnit }) | null {
  const n = '(-?\\d+)';
  let m = label.match(new RegExp(`^${n}°([FC]) or below$`));
  if (m) return { slug, label, low: OPEN_LOW, high: Number(m[1]), unit: m[2] as MarketUnit };
  m = label.match(new RegExp(`^${n}°([FC]) or higher$`));
  if (m) return { slug, label, low: Number(m[1]), high: OPEN_HIGH, unit: m[2] as MarketUnit };
  m = label.match(new RegExp(`^${n}-${n}°([FC])$`));
  if (m) return { slug, label, low: Number(m[1]), high: Number(m[2]), unit: m[3] as MarketUnit };
  m = label.match(new RegExp(`^${n}°([FC])$`));
  if (m) return { slug, label, low: Number(m[1]), high: Number(m[1]), unit: m[2] as MarketUnit };
  return null;
}
