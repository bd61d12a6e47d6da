import { type BrowseFilter, type Cache, HISTORY_READ_TOPICS, type RecordDay, type Venue } from '../cache/index.js';
import { cityMarket } from '../domain/city-market.js';
import {
  EDGE_BANDS,
  type EdgeBand,
  edgeBand,
  PAPER_STAKE_USD,
  sideProbability,
  tradeBrier,
} from '../domain/paper-trade.js';
import { round } from '../domain/units.js';
import { type BoardRecordTrade, type RecordRules, recordTrades } from './record-trades.js';

export {
  type BoardRecordTrade,
  firstPositions,
  hourTrades,
  type RecordRules,
  recordTrades,
} from './record-trades.js';

/** A group of the record's trades: how many, how many won, what they staked and made, and the Brier of their p. */
export interface RecordTotals {
  n: number;
  wins: number;
  /** wins / n; null without a trade. */
  hitRate: number | null;
  staked: number;
  pnl: number;
  /** pnl / staked; null without a trade. */
  roi: number | null;
  /** Mean of (the side's p - its outcome)^2; null without a trade. */
  brier: number | null;
}

export function recordTotals(trades: readonly BoardRecordTrade[]): RecordTotals {
  const n = trades.length;
  const wins = trades.filter((t) => t.won).length;
  const staked = n * PAPER_STAKE_USD;
  const pnl = round(trades.reduce((s, t) => s + t.pnl, 0));
  const brier = trades.reduce((s, t) => s + tradeBrier(sideProbability(t.side, t.p), t.won), 0);
  return {
    n,
    wins,
    hitRate: n === 0 ? null : wins / n,
    staked,
    pnl,
    roi: n === 0 ? null : pnl / staked,
    brier: n === 0 ? null : brier / n,
  };
}

/**
 * How a record spreads over its city-days (issue 32: a record whose P&L is one lucky day says little): how many
 * positions, on how many city-days, and the city-day that made most of the P&L, with its share of it: of a gain the
 * day that gained most, of a loss the day that lost most, its P&L / the whole P&L (over 1 when the other days went the
 * other way). A P&L of 0 has no share: then the day largest in size, share null.
 */
export interface RecordSpread {
  positions: number;
  cityDays: number;
  largestDay: { city_id: string; local_date: string; pnl: number; share: number | null } | null;
}

export function recordSpread(trades: readonly BoardRecordTrade[]): RecordSpread {
  const days = new Map<string, { city_id: string; local_date: string; pnl: number }>();
  for (const t of trades) {
    const key = `${t.city_id}|${t.local_date}`;
    const day = days.get(key) ?? { city_id: t.city_id, local_date: t.local_date, pnl: 0 };
    day.pnl += t.pnl;
    days.set(key, day);
  }
  const total = round(trades.reduce((s, t) => s + t.pnl, 0));
  let largest: RecordSpread['largestDay'] = null;
  // in city and date order, so of two days the same size the first is named
  const order = (a: { city_id: string; local_date: string }, b: { city_id: string; local_date: string }) =>
    a.city_id < b.city_id ? -1 : a.city_id > b.city_id ? 1 : a.local_date < b.local_date ? -1 : 1;
  const sign = Math.sign(total);
  const size = (pnl: number) => (sign === 0 ? Math.abs(pnl) : pnl * sign);
  for (const d of [...days.values()].sort(order)) {
    const pnl = round(d.pnl);
    if (largest === null || size(pnl) > size(largest.pnl))
      largest = { ...d, pnl, share: sign === 0 ? null : pnl / total };
  }
  return { positions: trades.length, cityDays: days.size, largestDay: largest };
}

/** The record in groups (DESIGN 4): in all, by city, venue, local hour and edge band, each in its natural order. */
export interface RecordSummary {
  all: RecordTotals;
  spread: RecordSpread;
  byCity: { city_id: string; totals: RecordTotals }[];
  byVenue: { venue: Venue; totals: RecordTotals }[];
  byHour: { hour: number; totals: RecordTotals }[];
  byBand: { band: EdgeBand; totals: RecordTotals }[];
}

function grouped<K extends string | number>(
  trades: readonly BoardRecordTrade[],
  keyOf: (t: BoardRecordTrade) => K,
): Map<K, BoardRecordTrade[]> {
  const out = new Map<K, BoardRecordTrade[]>();
  for (const t of trades) {
    const k = keyOf(t);
    // pushed, not copied: a year's record has a group of 70,000 trades
    const group = out.get(k);
    if (group) group.push(t);
    else out.set(k, [t]);
  }
  return out;
}

export function recordSummary(trades: readonly BoardRecordTrade[]): RecordSummary {
  const sorted = <K extends string | number>(m: Map<K, BoardRecordTrade[]>) =>
    [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bands = grouped(trades, (t) => edgeBand(t.edge));
  return {
    all: recordTotals(trades),
    spread: recordSpread(trades),
    byCity: sorted(grouped(trades, (t) => t.city_id)).map(([city_id, list]) => ({
      city_id,
      totals: recordTotals(list),
    })),
    byVenue: sorted(grouped(trades, (t) => t.venue)).map(([venue, list]) => ({ venue, totals: recordTotals(list) })),
    byHour: sorted(grouped(trades, (t) => t.local_hour)).map(([hour, list]) => ({ hour, totals: recordTotals(list) })),
    byBand: EDGE_BANDS.filter((band) => bands.has(band)).map((band) => ({
      band,
      totals: recordTotals(bands.get(band) ?? []),
    })),
  };
}

/** History's `BOARD'S RECORD` section: the whole cache's record, and the History filter's city's when it has one. */
export interface BoardRecordSection {
  trades: BoardRecordTrade[];
  all: RecordSummary;
  city: { city_id: string; summary: RecordSummary } | null;
}

/** The tables whose change can change the record (the cache's read of settled days): what a pane showing it watches. */
export const BOARD_RECORD_TOPICS = HISTORY_READ_TOPICS.boardRecordDays;

/** Settled days read and priced together when their records are worked out (a month of 40 cities). */
const STALE_DAYS_A_BATCH = 1_200;

/** How long keeping days' records waits for another process's write lock: a screen's thread never waits long. */
const KEEP_BUSY_TIMEOUT_MS = 20;

/**
 * The version of how a day's positions are worked out (the hours, the quote window, the desk run an hour reads, costs, stake): raised with any
 * change to them, so a cache kept by an earlier release works its days out again rather than serving its positions.
 */
const RECORD_VERSION = 2;

/**
 * What a day's positions depend on besides its rows: how they are worked out, the edge threshold and its city's
 * settlement rule.
 */
const rulesOf = (day: { city_id: string; unit: RecordDay['unit'] }, rules: RecordRules) =>
  `v${RECORD_VERSION}|${rules.edgeMin}|${cityMarket({ city_id: day.city_id }, rules.settlement, day.unit).rule}`;

/**
 * The record's positions over the settled days the filter matches, day by day (issue 43: what a settled day
 * contributes is worked out once and kept). A day kept under the same rules, settled at the same value, over the
 * same span, whose rows have not changed since (the cache's triggers drop it then), is its kept positions; every
 * other day is read and priced (`recordTrades`) and kept for the next read, when the cache can be written now.
 */
function settledTrades(
  cache: Cache,
  rules: RecordRules,
  filter: BrowseFilter,
  known?: Map<string, RecordDay>,
): BoardRecordTrade[] {
  const days = cache.history.recordSettledDays(filter);
  const kept = cache.history.keptRecordDays(filter);
  const keyOf = (d: { city_id: string; local_date: string }) => `${d.city_id}|${d.local_date}`;
  const stands = (d: (typeof days)[number]) => {
    const k = kept.get(keyOf(d));
    return (
      k !== undefined &&
      k.rules === rulesOf(d, rules) &&
      k.settled === d.settled &&
      k.fromMs === d.fromMs &&
      k.toMs === d.toMs
    );
  };
  const stale = days.filter((d) => !stands(d));
  const priced = new Map<string, BoardRecordTrade[]>();
  // a bounded batch at a time: a year never kept is 14,600 days of hours read at once otherwise, and each batch kept
  // is not read again if the rest is cut short
  for (let from = 0; from < stale.length; from += STALE_DAYS_A_BATCH) {
    const batch = stale.slice(from, from + STALE_DAYS_A_BATCH);
    // read, priced and kept from one snapshot: a row another process writes meanwhile keeps nothing stale
    const work = () =>
      cache.history.recordDaysOf(batch, known).map((day, i) => {
        const trades = recordTrades([day], rules);
        priced.set(keyOf(day), trades);
        const { fromMs, toMs } = batch[i] as (typeof batch)[number];
        const { city_id, local_date, settled } = day;
        return {
          city_id,
          local_date,
          settled,
          fromMs,
          toMs,
          rules: rulesOf(day, rules),
          trades: JSON.stringify(trades),
        };
      });
    cache.withBusyTimeout(KEEP_BUSY_TIMEOUT_MS, () => cache.history.keepRecordDaysAsRead(work));
  }
  // a view that stays open (History's `known`) keeps each kept day parsed: its re-read after a change parses the
  // days whose kept text changed, not a year's
  const parsed = known
    ? (parsedKept.get(known) ?? new Map<string, { text: string; trades: BoardRecordTrade[] }>())
    : null;
  if (known && parsed) parsedKept.set(known, parsed);
  return days.flatMap((d) => {
    const k = keyOf(d);
    const own = priced.get(k);
    if (own) return own;
    const text = kept.get(k)?.trades ?? '[]';
    const held = parsed?.get(k);
    if (held?.text === text) return held.trades;
    const trades = JSON.parse(text) as BoardRecordTrade[];
    parsed?.set(k, { text, trades });
    return trades;
  });
}

/** Kept days parsed, by the view's `known` map (a view's memo lives as long as the view). */
const parsedKept = new WeakMap<object, Map<string, { text: string; trades: BoardRecordTrade[] }>>();

/**
 * The board's record from the cache alone, offline (DESIGN 4): every settled day's trades and their summaries. `known`
 * keeps the days read (the pane holds it while open, as the calibration does): a settled day is read once.
 */
export function readBoardRecord(
  cache: Cache,
  rules: RecordRules,
  { cityId, known }: { cityId?: string; known?: Map<string, RecordDay> } = {},
): BoardRecordSection {
  const trades = settledTrades(cache, rules, {}, known);
  const own = cityId === undefined ? null : trades.filter((t) => t.city_id === cityId);
  return {
    trades,
    all: recordSummary(trades),
    city: own === null ? null : { city_id: cityId as string, summary: recordSummary(own) },
  };
}

/**
 * `svc-monitor export board-record` (DESIGN 3): the record's trades over the settled days the filter matches
 * (`since`/`until` on their local dates), one a row, day by day and hour by hour.
 */
export function exportBoardRecord(cache: Cache, rules: RecordRules, filter: BrowseFilter = {}): BoardRecordTrade[] {
  // DESIGN 3's precision: p, price and edge 4 decimals (money is rounded where it is worked out); the figures above
  // work on the unrounded values, so an edge of 0.09996 stays in its band
  return settledTrades(cache, rules, filter).map((t) => ({
    ...t,
    price: round(t.price, 4),
    p: round(t.p, 4),
    edge: round(t.edge, 4),
  }));
}
