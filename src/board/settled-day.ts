import type { City } from '../contract/cities.js';
import { localDay } from '../domain/city-time.js';
import type { Holding } from '../domain/held-buckets.js';
import { sideWon } from '../domain/paper-trade.js';
import { type Quote, type Quotes, settledQuote } from '../domain/position-pnl.js';
import { type Market, settledValue, settledValueOf } from '../domain/settlement.js';
import { NO_VENUE_EDGES } from './best-edge.js';
import type { MarketDay } from './market-day.js';
import { type PricedBucket, type PricedDay, runningHighCOf } from './priced-day.js';

/**
 * A market day once it is over (DESIGN 4: it settles at the local midnight that ends it, when the day's METAR high is
 * known): the board shows its outcome, not a forecast of it. The bucket it settled in has p 1, every other one is dead,
 * nothing is left to rise to (`next`), no price offers an edge, and what was held through the day's end is settled: a
 * share pays 1 USD if its side won.
 */

/** The instant a city's market day ends: the local midnight after it. */
export const dayEndMs = (city: Pick<City, 'tz'>, date: string): number => localDay(date, city.tz).endMs;

/** Whether the day had ended at the instant it is read as of. */
export const dayEnded = (day: Pick<MarketDay, 'city' | 'date' | 'atMs'>): boolean =>
  day.atMs >= dayEndMs(day.city, day.date);

/**
 * The whole degree (the market's unit) a market day settled at, as known at the instant it is read as of: none before
 * its local midnight. Its resolved fusion lock's actual high (the service's word on the settlement, as History's
 * settled days read it), else the day's METAR high, every report of the local day being in by then; none without
 * either.
 */
export function dayOutcome(day: MarketDay): number | null {
  if (!dayEnded(day)) return null;
  const unit = day.market.unit;
  const lock = day.lock?.resolved ? settledValueOf(unit, day.lock.actual_tmax_c, day.lock.actual_tmax_f) : null;
  if (lock !== null) return lock;
  const highC = runningHighCOf(day.metar.high);
  return highC === null ? null : settledValue(highC, unit);
}

/** A bucket of a settled day: p 1 where the day settled, else 0 and dead; no side offers anything. */
function settledBucket(b: PricedBucket, settled: number): PricedBucket {
  // a day over trades nothing: no side, no cross
  const none = { yes: null, no: null, best: null, edges: NO_VENUE_EDGES, cross: null };
  if (b.bucket === null) return { ...b, ...none, p: null, dead: false };
  const won = sideWon('YES', b.bucket, settled);
  return { ...b, ...none, p: won ? 1 : 0, dead: !won };
}

/**
 * A priced market day settled at `settled`: the bucket it settled in at p 1 (the ladder's favourite), every other one
 * at p 0 and dead; no `next`, no best edge, no CHECK (the outcome, not the forecast, decides), no venue behind.
 */
export function settleDay(priced: PricedDay, settled: number): PricedDay {
  return {
    ...priced,
    buckets: priced.buckets.map((b) => settledBucket(b, settled)),
    next: null,
    check: false,
    best: null,
    venueBehind: { mkta: null, mktb: null },
    behind: null,
  };
}

/**
 * The quotes a settled day's book is marked at: each held bucket (of the market's unit) at its settled price, by its
 * slug and its label (position-pnl.ts finds records, locks and legs by slug, edge trades by label). A position whose
 * bucket cannot be read holds nothing (held-buckets.ts) and stays unpriced.
 */
export function settledQuotes(holdings: readonly Holding[], market: Market, settled: number): Quotes {
  const bySlug = new Map<string, Quote>();
  const byLabel = new Map<string, Quote>();
  for (const h of holdings) {
    if (h.bucket.unit !== market.unit) continue;
    const quote = settledQuote(h.bucket, settled);
    if (h.bucket.slug) bySlug.set(h.bucket.slug, quote);
    byLabel.set(h.bucket.label, quote);
  }
  return { bySlugOf: (_date, slug) => bySlug.get(slug), byLabelOf: (_date, label) => byLabel.get(label) };
}
