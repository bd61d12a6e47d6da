import type { DayQuote, Venue } from '../cache/index.js';
import { isActionableEdge, isOffer } from '../domain/offer.js';
import { effectiveEdge } from '../domain/settlement.js';

/**
 * The sides of a priced day's buckets (priced-day.ts): each side's better venue by DESIGN 4's effective edge, and the
 * day's best edge, the one the board's column, its order and `export board` show.
 */

/** One side of a bucket on one venue: its price on the venue's newest snapshot and DESIGN 4's effective edge there. */
export interface SideEdge {
  venue: Venue;
  side: 'YES' | 'NO';
  price: number;
  /** In price units (0.062 = 6.2 points). */
  edge: number;
}

/**
 * Each side's better venue for one bucket, by DESIGN 4's effective edge on that venue's newest quote. `offered`: which
 * prices count as an offer of that side (the board shows every quoted price; the board's record buys only at one a
 * share can be bought at).
 */
export function sideEdges(
  p: number | null,
  quotes: [Venue, DayQuote | null][],
  offered: (price: number) => boolean = () => true,
): { yes: SideEdge | null; no: SideEdge | null; best: SideEdge | null } {
  let yes: SideEdge | null = null;
  let no: SideEdge | null = null;
  for (const [venue, q] of quotes) {
    if (p === null || !q || q.yes_price === null || q.no_price === null) continue;
    const e = effectiveEdge(p, q.yes_price, q.no_price);
    if (offered(q.yes_price) && (!yes || e.yes > yes.edge))
      yes = { venue, side: 'YES', price: q.yes_price, edge: e.yes };
    if (offered(q.no_price) && (!no || e.no > no.edge)) no = { venue, side: 'NO', price: q.no_price, edge: e.no };
  }
  return { yes, no, best: no && (!yes || no.edge > yes.edge) ? no : yes };
}

/** Each venue's own better side of a bucket, at an offer (positive or not): what Forecasts prints per venue. */
export type VenueEdges = Record<Venue, SideEdge | null>;

/** No venue offers a side: a day over, a CHECK day (DESIGN 4: the board offers nothing on it). */
export const NO_VENUE_EDGES: VenueEdges = { mkta: null, mktb: null };

/**
 * Each venue's better side of one bucket by DESIGN 4's effective edge, under the best edge's own rules: only a price
 * that is an offer (strictly between 0.01 and 0.99), only on a venue whose snapshot may be compared with the model
 * (`quoteOf`, as `bestEdge` takes it). Negative edges are kept: the table shows how far a venue is from one.
 */
export function venueEdges(
  p: number | null,
  quotes: Record<Venue, DayQuote | null>,
  quoteOf: (venue: Venue, q: DayQuote | null) => DayQuote | null,
): VenueEdges {
  const of = (venue: Venue) => sideEdges(p, [[venue, quoteOf(venue, quotes[venue])]], isOffer).best;
  return { mkta: of('mkta'), mktb: of('mktb') };
}

/** What a bucket's best edge is read from (priced-day.ts's PricedBucket): its p and each venue's quote. */
export interface QuotedBucket {
  p: number | null;
  mkta: DayQuote | null;
  mktb: DayQuote | null;
}

/**
 * DESIGN 4's best edge of a day: each side of each bucket on its better venue among those that offer it (a price
 * strictly between 0.01 and 0.99), the largest that is positive. A side whose better venue quotes it at the floor or
 * the ceiling may still be offered on the other venue. `quoteOf`: a venue's quote of a bucket where that venue's
 * snapshot may be compared with the model (same-instant.ts), else null.
 */
export function bestEdge<B extends QuotedBucket>(
  buckets: readonly B[],
  quoteOf: (venue: Venue, q: DayQuote | null) => DayQuote | null,
): (SideEdge & { bucket: B }) | null {
  let best: (SideEdge & { bucket: B }) | null = null;
  for (const bucket of buckets) {
    const sides = sideEdges(
      bucket.p,
      [
        ['mkta', quoteOf('mkta', bucket.mkta)],
        ['mktb', quoteOf('mktb', bucket.mktb)],
      ],
      isOffer,
    );
    for (const side of [sides.yes, sides.no])
      if (side && isActionableEdge(side) && (!best || side.edge > best.edge)) best = { ...side, bucket };
  }
  return best;
}
