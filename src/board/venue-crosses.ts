import type { DayQuote, StreamState, Venue } from '../cache/index.js';
import { type VenueCross, type VenueQuote, venueCross } from '../domain/venue-cross.js';
import type { Behind } from './same-instant.js';

export type { VenueCross };

/**
 * How far apart two venues' snapshots may be and still be compared: two minutes, two of the monitor's one-minute
 * polls of them (the service's venues snapshot together, at :00 and :30). A venue whose newest snapshot is further behind the other's is stale against it (its stream failing, a
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
 * How long a venue may go without a snapshot before the instant up to which the monitor holds its stream and still
 * be live: one of its half-hourly snapshots (the venues snapshot every half hour; the monitor polls them every minute)
 * plus `CROSS_WINDOW_MS`. Longer, it has missed one: its feed died, and its last prices are of another instant.
 */
export const VENUE_SILENT_MS = 30 * 60_000 + CROSS_WINDOW_MS;

/** Each venue's snapshot stream (DESIGN 3). */
const VENUE_STREAMS: Record<Venue, string> = { mkta: 'mkta-buckets', mktb: 'mktb-buckets' };

/** Up to when the monitor holds each venue's snapshots; null: no bound known for it. */
export type VenuesHeldUntil = Record<Venue, number | null>;

/**
 * The instant up to which the monitor holds each venue's snapshots, as of `atMs`: its stream's completeness (the
 * service's clock at the first answer of its last good pass, else that pass's own stamp), never past `atMs` (as of an
 * earlier instant every snapshot up to it is held). Null for a venue whose stream never passed (a cache filled by hand
 * or by a backfill alone: the snapshots' own times are all there is).
 */
export function venuesHeldUntil(states: readonly StreamState[], atMs: number): VenuesHeldUntil {
  const of = (venue: Venue): number | null => {
    const state = states.find((s) => s.stream === VENUE_STREAMS[venue]);
    const at = Date.parse(state?.complete_at ?? state?.last_success_at ?? '');
    return Number.isFinite(at) ? Math.min(at, atMs) : null;
  };
  return { mkta: of('mkta'), mktb: of('mktb') };
}

/**
 * Whether the board judges a venue's prices stale, for a cross: its snapshot is `stale prices` (same-instant.ts
 * `venueBehind`: older than what the desk has learnt since), or older by more than `VENUE_SILENT_MS` than the instant
 * up to which the monitor holds the venue's stream (the stream's passes answer, the venue has priced nothing since:
 * a venue whose feed died at 10:00 is six hours stale at 16:00, though its last snapshot and the other's agree).
 */
export function venueStale(behind: Behind | null, snapshotMs: number | null, heldUntilMs: number | null): boolean {
  if (behind === 'prices') return true;
  return snapshotMs !== null && heldUntilMs !== null && heldUntilMs - snapshotMs > VENUE_SILENT_MS;
}

/**
 * The venue cross of one bucket (domain/venue-cross.ts) between the two venues' newest quotes of it, when both are
 * snapshots of about the same instant: their `snapshot_at` at most `CROSS_WINDOW_MS` apart, and neither venue stale
 * (`stale`: `venueStale` of each). A quote without a time cannot be shown to be of the other's instant: no cross. The
 * forecast, a venue ahead of the model (`model behind`) and CHECK do not enter.
 */
export function bucketCross(
  mkta: DayQuote | null,
  mktb: DayQuote | null,
  stale: Record<Venue, boolean> = { mkta: false, mktb: false },
): VenueCross | null {
  if (stale.mkta || stale.mktb) return null;
  const apart = Math.abs(msOf(mkta) - msOf(mktb));
  if (!(apart <= CROSS_WINDOW_MS)) return null;
  return venueCross(venueQuote('mkta', mkta), venueQuote('mktb', mktb));
}
