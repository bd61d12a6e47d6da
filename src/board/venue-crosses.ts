import type { DayQuote, Venue } from '../cache/index.js';
import { type VenueCross, type VenueQuote, venueCross } from '../domain/venue-cross.js';

export type { VenueCross };

/**
 * How far apart two venues' snapshots may be and still be compared: two minutes, two of the venues' one-minute
 * cadences. A venue whose newest snapshot is further behind the other's is stale against it (its stream failing, a
 * poll missed), and a stale price against a fresh one is a cross of two different instants, not a trade: it never
 * makes one.
 */
export const CROSS_WINDOW_MS = 2 * 60_000;

/** A venue's quote of a bucket as the cross rule reads it; null when a price is missing. */
function venueQuote(venue: Venue, q: DayQuote | null): VenueQuote | null {
  if (q === null || q.yes_price === null || q.no_price === null) return null;
  return { venue, yesPrice: q.yes_price, noPrice: q.no_price };
}

const msOf = (q: DayQuote | null): number => (q?.snapshot_at ? Date.parse(q.snapshot_at) : Number.NaN);

/**
 * The venue cross of one bucket (domain/venue-cross.ts) between the two venues' newest quotes of it, when both are
 * snapshots of about the same instant: their `snapshot_at` at most `CROSS_WINDOW_MS` apart. A quote without a time
 * cannot be shown to be of the other's instant: no cross. Needs no model: the forecast, its `behind` and CHECK do not
 * enter.
 */
export function bucketCross(mkta: DayQuote | null, mktb: DayQuote | null): VenueCross | null {
  const apart = Math.abs(msOf(mkta) - msOf(mktb));
  if (!(apart <= CROSS_WINDOW_MS)) return null;
  return venueCross(venueQuote('mkta', mkta), venueQuote('mktb', mktb));
}
