import { round } from './units.js';

/** A leg a kill says to sell: its shares and the venue's YES bid for its bucket (null: no quote cached). */
export interface LegToSell {
  leg: string;
  bucket_label: string;
  shares: number;
  bid: number | null;
}

/** A leg sold at the bid: shares x bid, to the cent; null without a bid. */
export interface LegSale extends LegToSell {
  proceeds: number | null;
}

/**
 * What selling a killed pick's legs at market brings (issue 44): each leg's shares at the venue's YES bid (the newest
 * mkta `yes_price` of its bucket, as the book is marked: domain/position-pnl.ts), to the cent, and their total, the
 * sum of the legs' cents as each is sold on its own. `total` covers the legs with a bid; `unpriced` names the others.
 */
export function killProceeds(legs: readonly LegToSell[]): { legs: LegSale[]; total: number; unpriced: string[] } {
  const sold = legs.map((l) => ({ ...l, proceeds: l.bid === null ? null : round(l.shares * l.bid) }));
  return {
    legs: sold,
    total: round(sold.reduce((sum, l) => sum + (l.proceeds ?? 0), 0)),
    unpriced: sold.filter((l) => l.proceeds === null).map((l) => l.leg),
  };
}
