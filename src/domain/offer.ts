/**
 * DESIGN 4 "a flag means what it says", the board's best edge: a side is offered when its price is strictly between
 * 0.01 and 0.99. A NO at 0.999 on a dead bucket, or a YES at 0.01 on a tail, is the venue's floor or ceiling, not a
 * price a trader can deal at: an edge there is filler, never the board's best.
 */
export const OFFER_FLOOR = 0.01;
export const OFFER_CEILING = 0.99;

/** A price a trader can deal a side at: strictly between the venue's floor and ceiling. */
export const isOffer = (price: number): boolean =>
  Number.isFinite(price) && price > OFFER_FLOOR && price < OFFER_CEILING;

/** An edge worth the board's best-edge column: positive, at an offer. */
export const isActionableEdge = (side: { price: number; edge: number }): boolean =>
  side.edge > 0 && isOffer(side.price);
