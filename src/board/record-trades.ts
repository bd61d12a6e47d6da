import type { RecordDay, RecordHour, Venue } from '../cache/index.js';
import type { SettlementConfig } from '../contract/config.js';
import { cityMarket } from '../domain/city-market.js';
import { paperTrade, tradablePrice } from '../domain/paper-trade.js';
import type { Market } from '../domain/settlement.js';
import { round } from '../domain/units.js';
import { priceDay, pricingOf, sideEdges } from './priced-day.js';

/**
 * What a settled day contributes to the board's record (DESIGN 4): the positions the board offered at its whole hours.
 * board-record.ts sums them, and keeps each day's once worked out (issue 43).
 */

/** One paper trade of the board's record: `export board-record`'s row (DESIGN 3), exactly its fields. */
export interface BoardRecordTrade {
  city_id: string;
  local_date: string;
  local_hour: number;
  venue: Venue;
  bucket_slug: string | null;
  bucket_label: string | null;
  side: 'YES' | 'NO';
  price: number;
  /** The bucket's probability (YES) on the board then. */
  p: number;
  /** The side's effective edge then (DESIGN 4). */
  edge: number;
  /** The whole degree the day settled at, in the market's unit. */
  settled_value: number;
  won: boolean;
  /** In USD, to the cent. */
  pnl: number;
}

/** What the record's trades are taken by: the config's `alerts.edge_min` and `settlement`. */
export interface RecordRules {
  edgeMin: number;
  settlement?: SettlementConfig;
}

/**
 * The trades the board offered at one hour of a settled day (DESIGN 4 "the board's record"): the day priced as the
 * board prices it as of HH:00 (priced-day.ts), and each bucket side whose effective edge there, on its better venue,
 * is at least `edgeMin`, taken at that venue's price. A price of 0 or 1 is no offer (no share is sold at 0, nothing
 * is won at 1): the side's better venue is then the other one, if it offers it. Not taken: a CHECK hour (the board
 * offers no edge on it), a bucket without a p or a readable label, and nothing on a venue without a snapshot then.
 */
export function hourTrades(day: RecordDay, hour: RecordHour, market: Market, edgeMin: number): BoardRecordTrade[] {
  // nothing quoted, or no forecast to price with: no edge to take
  if (hour.desk === null || hour.quotes.mkta.length + hour.quotes.mktb.length === 0) return [];
  // the board as of HH:00 from the rows' own times: the model holds every reading up to then (no bound)
  const priced = priceDay(
    pricingOf({ market, desk: hour.desk, high: hour.high, ...hour.quotes, modelKnownUntilMs: null }),
  );
  if (priced.check) return [];
  const out: BoardRecordTrade[] = [];
  for (const b of priced.buckets) {
    if (b.bucket === null || b.p === null) continue;
    const offers = sideEdges(
      b.p,
      // a venue behind the model or the model behind it is not offered, as on the board
      [
        ['mkta', priced.venueBehind.mkta === null ? b.mkta : null],
        ['mktb', priced.venueBehind.mktb === null ? b.mktb : null],
      ],
      tradablePrice,
    );
    for (const side of [offers.yes, offers.no]) {
      if (side === null || side.edge < edgeMin) continue;
      const { won, pnl } = paperTrade(side.side, side.price, b.bucket, day.settled);
      out.push({
        city_id: day.city_id,
        local_date: day.local_date,
        local_hour: hour.hour,
        venue: side.venue,
        bucket_slug: b.slug,
        bucket_label: b.label,
        side: side.side,
        price: side.price,
        p: b.p,
        edge: side.edge,
        settled_value: day.settled,
        won,
        pnl: round(pnl),
      });
    }
  }
  return out;
}

/** A day's trades as last worked out, by the day read (the cache hands a kept day back as the same object). */
const worked = new WeakMap<RecordDay, { rules: string; trades: BoardRecordTrade[] }>();

/**
 * A day's positions (DESIGN 4): each venue's bucket side taken once, at the first hour its edge qualified, as a trader
 * holds it; an edge that lasts the afternoon is one position, not one a qualifying hour.
 */
export function firstPositions(trades: readonly BoardRecordTrade[]): BoardRecordTrade[] {
  const taken = new Set<string>();
  return trades.filter((t) => {
    const position = `${t.venue}|${t.bucket_slug ?? t.bucket_label}|${t.side}`;
    if (taken.has(position)) return false;
    taken.add(position);
    return true;
  });
}

/**
 * Every position of the record over settled days, day by day and hour by hour (each taken at its first qualifying
 * hour). A day read before and kept (History's `known`) is not priced again under the same rules.
 */
export function recordTrades(days: readonly RecordDay[], rules: RecordRules): BoardRecordTrade[] {
  return days.flatMap((day) => {
    const market = cityMarket({ city_id: day.city_id }, rules.settlement, day.unit);
    const key = `${rules.edgeMin}|${market.rule}`;
    const kept = worked.get(day);
    if (kept?.rules === key) return kept.trades;
    const trades = firstPositions(day.hours.flatMap((hour) => hourTrades(day, hour, market, rules.edgeMin)));
    worked.set(day, { rules: key, trades });
    return trades;
  });
}
