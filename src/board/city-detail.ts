import {
  type Cache,
  type CacheTopic,
  type DayQuote,
  type InsurancePickView,
  MARKET_READ_TOPICS,
  type MetarDay,
  type MetarPoint,
  type OpenPositions,
  POSITION_LIMIT,
  POSITION_TOPICS,
  type Venue,
} from '../cache/index.js';
import type { City } from '../contract/cities.js';
import type { FusionLock } from '../contract/fusion-locks.js';
import { localDay } from '../domain/city-time.js';
import { holdingsOf } from '../domain/held-buckets.js';
import { localInstant, marketSettlesAt } from '../domain/market-times.js';
import { type Mark, type PricedPick, pricePositions } from '../domain/position-pnl.js';
import { bucketHoldsRunningHigh } from '../domain/settlement.js';
import { round, toMarketUnit } from '../domain/units.js';
import { localClockOf } from './board-day.js';
import { type BoardRow, mktaQuotes } from './board-row.js';
import { type PricedBucket, runningHighCOf } from './priced-day.js';
import { heldThroughDay } from './read-board.js';
import type { Behind } from './same-instant.js';
import { dayEnded, settledQuotes } from './settled-day.js';

/**
 * The selected city's detail under the board (DESIGN 4's board; issue 45 item 2): what a trader reads next about one
 * row. Most of it is on the board's row already (its buckets priced, `next`, the venues' quotes and which is behind,
 * the best edge and its record); what is not (the day's METAR readings, its fusion lock, the positions one by one)
 * is read here by the city-day and the instant, with the board's own as-of rules, and worked out with the row by
 * `cityDetail`, a pure function.
 */

/** What the cache holds of a city-day beyond its board row, as of the instant the row is of. */
export interface CityDayRead {
  /** The day's METAR readings up to the instant, oldest first. */
  readings: readonly MetarPoint[];
  /** The running high of those readings and the instant it was first reached (null: no reading yet). */
  high: MetarDay['high'];
  lock: FusionLock | null;
  /** The city-day's open positions (on a day over: those held through its end), as the board's row counts them. */
  book: OpenPositions;
}

/** The tables `readCityDay` reads: a change to one reads the detail again. */
export const CITY_DAY_TOPICS: readonly CacheTopic[] = [
  ...new Set<CacheTopic>([...MARKET_READ_TOPICS.metarDay, ...MARKET_READ_TOPICS.dayLock, ...POSITION_TOPICS]),
];

/**
 * Reads a city-day as the board reads it at `atMs` (DESIGN 4 "the board as of an instant"): its METAR readings and
 * its lock bounded by the instant, its book as it stands (`asOf` undefined: the live board's) or as of time travel's
 * instant, and, once the day is over, what was held through its end (read-board.ts `heldThroughDay`). A few indexed
 * reads of one city-day.
 */
export function readCityDay(cache: Cache, city: City, date: string, atMs: number, asOf?: number): CityDayRead {
  const span = localDay(date, city.tz);
  const metar = cache.market.metarDay(city.city_id, span, atMs);
  const book = dayEnded({ city, date, atMs })
    ? heldThroughDay(cache, city, date)
    : cache.positions.openOfDay(city.city_id, date, POSITION_LIMIT, asOf);
  return {
    readings: metar.points,
    high: metar.high,
    lock: cache.market.dayLock(city.city_id, span, atMs),
    book,
  };
}

/** A temperature of the market's unit at an instant, `at` on the city's clock (`HH:MM`). */
export interface AtTime {
  value: number;
  at: string;
}

/** One venue's prices of a bucket: what YES is bought at (ask) and sold at (bid: 1 - the NO price). */
export interface VenuePrices {
  bid: number | null;
  ask: number | null;
  /** The venue's snapshot cannot be compared with the model (same-instant.ts): shown, but no edge. */
  behind: Behind | null;
}

/** A bucket whose prices the detail shows: the favourite and each held one. */
export interface BucketPrices {
  label: string;
  favourite: boolean;
  held: boolean;
  p: number | null;
  venues: Record<Venue, VenuePrices | null>;
}

/** One open position of the city-day, marked as the board's P&L marks it. */
export interface PositionMark {
  /** `no24 NO 72°F or higher`, `lock YES 70-71°F`, `pick 1a2b3c4d`, `edge YES 70-71°F`. */
  what: string;
  stake: number;
  pnl: number | null;
}

/** The selected city's detail, every figure in the market's unit and on the city's clock. */
export interface CityDetail {
  name: string;
  date: string;
  tomorrow: boolean;
  tz: string;
  unit: BoardRow['unit'];
  /** The whole degree a day over settled at (the board row's), null while it runs. */
  settled: number | null;
  /** The newest METAR reading, and the last three (oldest first) for the trend. */
  metarNow: AtTime | null;
  trend: number[];
  /** The running high and the local time of the reading that first reached it. */
  high: AtTime | null;
  /** The instant the detail is of (the board's: now, or time travel's). */
  atMs: number;
  /**
   * The day's peak hour (the fusion lock's: the service locks at it) and the instant the peak phase ends (DESIGN 4:
   * peak hour + 2 h); null without a lock. `peakStartsMs`: 10:00 local, when the day's peak phase begins.
   */
  peak: { hour: string; ms: number; passedMs: number } | null;
  peakStartsMs: number;
  /** The day's fusion lock: its bucket, when it was locked, and the local midnight it settles at. */
  lock: { label: string; lockedAt: string; settlesMs: number; resolved: boolean } | null;
  /**
   * DESIGN 4 "next": the bucket edge in the market's unit (the running high plus `next`), how far that is, the bucket
   * the running high sits in, and the probability the day settles above it (the p of the buckets above, summed).
   */
  next: { edge: number; rise: number; from: string; p: number | null } | null;
  /** The favourite first, then each held bucket, lowest first. */
  prices: BucketPrices[];
  positions: PositionMark[];
  /** The city-day's stake and P&L: the board row's own. */
  staked: number;
  pnl: number | null;
  /** The best edge and its own record (DESIGN 4 "an edge's own record"): the board row's. */
  best: BoardRow['best'];
  bestRecord: string | null;
}

const HOUR = 3_600_000;
/** DESIGN 4 "phase of a city's day": the peak lasts until the peak hour + 2 h, and begins at 10:00 local. */
const PEAK_LASTS_AFTER_H = 2;
const PEAK_PHASE_FROM = 10;

/** A reading in the market's unit: its whole °C (as the venue settles), converted in a °F market. */
function readingIn(point: MetarPoint, unit: BoardRow['unit']): number {
  const c = runningHighCOf({ f: point.temp_f, c: point.temp_c, since: point.ms }) as number;
  return round(toMarketUnit(c, unit));
}

/** The running high in the market's unit (its whole °C, as the venue settles), and when it was first reached. */
function highOf(high: MetarDay['high'], unit: BoardRow['unit'], clock: (ms: number) => string): AtTime | null {
  const c = runningHighCOf(high);
  return high === null || c === null ? null : { value: round(toMarketUnit(c, unit)), at: clock(high.since) };
}

const venuePrices = (q: DayQuote | null, behind: Behind | null): VenuePrices | null =>
  q === null ? null : { ask: q.yes_price, bid: q.no_price === null ? null : round(1 - q.no_price, 4), behind };

/** A position of the book in a few words, and its mark. */
function positionMarks(row: BoardRow, book: OpenPositions): PositionMark[] {
  const quotes =
    row.settled === null
      ? mktaQuotes(
          row.date,
          row.buckets.flatMap((b) => (b.mkta ? [b.mkta] : [])),
        )
      : settledQuotes(holdingsOf(book, row.cityId, row.date), row.market, row.settled);
  const priced = pricePositions(book, () => quotes);
  const of = (what: string, m: Mark): PositionMark => ({ what, stake: m.stake, pnl: m.pnl });
  const pick = (p: PricedPick<InsurancePickView>): PositionMark[] => [
    of(`${p.pick.trade_kind === 'addon' ? 'addon' : 'pick'} ${p.pick.pick_id.slice(0, 8)}`, p.mark),
    ...p.addons.flatMap(pick),
  ];
  return [
    ...priced.strategies.map((s) => of(`${s.family} ${s.item.side} ${s.item.bucket_label}`, s.mark)),
    ...priced.locks.map((l) => of(`lock YES ${l.item.bucket_label}`, l.mark)),
    ...priced.picks.flatMap(pick),
    ...priced.trades.map((t) => of(`edge ${t.item.side} ${t.item.bucket_label}`, t.mark)),
  ];
}

/** The next bucket edge (DESIGN 4 "next") and the chance of passing it: the p of every bucket above the one held. */
function nextEdge(row: BoardRow): CityDetail['next'] {
  if (row.next === null || row.runningHigh === null || row.runningHighC === null) return null;
  const highC = row.runningHighC;
  const holding = row.buckets.find((b) => b.bucket && bucketHoldsRunningHigh(b.bucket, row.market, highC));
  if (!holding?.bucket) return null;
  const top = holding.bucket.high;
  const above = row.buckets.filter((b) => b.bucket && b.bucket.low > top);
  const p = above.some((b) => b.p === null)
    ? null
    : round(
        above.reduce((s, b) => s + (b.p ?? 0), 0),
        4,
      );
  return {
    edge: round(row.runningHigh + row.next),
    rise: round(row.next),
    from: holding.label ?? holding.bucket.label,
    p,
  };
}

/** The favourite bucket first, then each held one, each with both venues' bid and ask. */
function bucketPrices(row: BoardRow): BucketPrices[] {
  const priced = row.buckets.filter((b) => b.bucket !== null);
  const favourite = priced.find((_, i) => row.ladder[i]?.state === 'favourite') ?? null;
  const shown: PricedBucket[] = [
    ...(favourite ? [favourite] : []),
    ...priced.filter((b) => b !== favourite && row.held.has(b)),
  ];
  return shown.map((b) => ({
    label: b.label ?? '',
    favourite: b === favourite,
    held: row.held.has(b),
    p: b.p,
    venues: {
      mkta: venuePrices(b.mkta, row.venueBehind.mkta),
      mktb: venuePrices(b.mktb, row.venueBehind.mktb),
    },
  }));
}

/** The detail of a board row, from the row and what `readCityDay` read of its city-day at the row's instant. */
export function cityDetail(row: BoardRow, read: CityDayRead, atMs: number): CityDetail {
  const clock = (ms: number) => localClockOf(ms, row.tz).text;
  const last = read.readings.at(-1);
  const peakHour = read.lock?.peak_hour ?? null;
  const peakMs = peakHour === null ? null : localInstant(row.date, peakHour, 0, row.tz);
  return {
    name: row.name,
    date: row.date,
    tomorrow: row.tomorrow === true,
    tz: row.tz,
    unit: row.unit,
    settled: row.settled,
    metarNow: last ? { value: readingIn(last, row.unit), at: clock(last.ms) } : null,
    trend: read.readings.slice(-3).map((p) => readingIn(p, row.unit)),
    // the value and its time from the one read (the row may be of an earlier render's now: a newer high's time beside
    // the older high's value would be a reading that never was)
    high: highOf(read.high, row.unit, clock),
    atMs,
    peak:
      peakMs === null || peakHour === null
        ? null
        : { hour: `${String(peakHour).padStart(2, '0')}:00`, ms: peakMs, passedMs: peakMs + PEAK_LASTS_AFTER_H * HOUR },
    peakStartsMs: localInstant(row.date, PEAK_PHASE_FROM, 0, row.tz),
    lock: read.lock
      ? {
          label: read.lock.bucket_label,
          lockedAt: clock(Date.parse(read.lock.locked_at)),
          settlesMs: marketSettlesAt(row.date, row.tz),
          resolved: read.lock.resolved,
        }
      : null,
    next: nextEdge(row),
    prices: bucketPrices(row),
    positions: positionMarks(row, read.book),
    staked: row.exposure,
    pnl: row.pnl,
    best: row.best,
    bestRecord: row.bestRecord ?? null,
  };
}
