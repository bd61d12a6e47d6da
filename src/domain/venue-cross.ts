import { isOffer } from './offer.js';
import { venueCost } from './settlement.js';

/**
 * Venue against venue (issue 45 item 4): the same bucket on the two venues, one selling its YES for less than the
 * other pays for it, after both venues' costs. A trader buys YES on one and sells it on the other (buys the other's
 * NO) and is paid whatever the day settles at: no model, no forecast, only the two books.
 */

/** One venue's quote of a bucket: its YES price (what it sells YES at) and its NO price. */
export interface VenueQuote {
  venue: 'mkta' | 'mktb';
  yesPrice: number;
  noPrice: number;
}

/** A bucket whose YES one venue sells (its ask) below what the other bids for it (1 - its NO price), after both venues' costs. */
export interface VenueCross {
  /** Where YES is bought, at `ask` (that venue's YES price). */
  buy: 'mkta' | 'mktb';
  /** Where YES is sold, at `bid`: one minus that venue's NO price, since buying its NO is selling its YES. */
  sell: 'mkta' | 'mktb';
  ask: number;
  bid: number;
  /** `bid - ask - cost(buy) - cost(sell)`, in price units (0.18 = 18 points); always above `CROSS_TOLERANCE`. */
  margin: number;
}

/**
 * A margin at or under this is no cross. Prices are cents and tenths of cents, none exact in binary: `0.42 - 0.40 -
 * 0.01 - 0.01` comes out at -3.8e-17, and a hair above 0 elsewhere, and a cross of nothing would flicker on rounding. A real cross is a tenth of a cent
 * at least, far above it.
 */
export const CROSS_TOLERANCE = 1e-9;

/** Buying YES on `buy` and selling it on `sell`: the cross, or null when the prices used are no offers or it pays nothing. */
function oneWay(buy: VenueQuote, sell: VenueQuote): VenueCross | null {
  // only prices a trader can deal at (domain/offer.ts): a venue's floor or ceiling is filler, not an offer
  if (!isOffer(buy.yesPrice) || !isOffer(sell.noPrice)) return null;
  if (!Number.isFinite(buy.noPrice) || !Number.isFinite(sell.yesPrice)) return null;
  const ask = buy.yesPrice;
  const bid = 1 - sell.noPrice;
  const margin = bid - ask - venueCost(buy.yesPrice, buy.noPrice) - venueCost(sell.yesPrice, sell.noPrice);
  return margin > CROSS_TOLERANCE ? { buy: buy.venue, sell: sell.venue, ask, bid, margin } : null;
}

/**
 * null: no cross (or a quote missing). margin = bid - ask - cost(buy) - cost(sell) > 0; cost as DESIGN 4's effective
 * edge: max(0.01, (yes + no - 1) / 2) (settlement.ts `venueCost`). Both directions are tried; where both pay (two
 * venues each pricing the bucket's sides under 1 in all), the larger. A margin within `CROSS_TOLERANCE` of 0 is none.
 */
export function venueCross(a: VenueQuote | null, b: VenueQuote | null): VenueCross | null {
  if (a === null || b === null) return null;
  const ab = oneWay(a, b);
  const ba = oneWay(b, a);
  if (ab === null) return ba;
  return ba !== null && ba.margin > ab.margin ? ba : ab;
}
