import type { DayQuote, ForecastRow } from '../../../cache/index.js';
import { QuoteBook } from '../../../cache/index.js';
import type { City } from '../../../contract/cities.js';
import type { MarketUnit } from '../../../contract/common.js';
import type { ModelTmaxRange, SvcProForecast } from '../../../contract/forecasts.js';
import type { FusionLock } from '../../../contract/fusion-locks.js';
import { settledWhole } from '../../../domain/bucket-probability.js';
import { type Bucket, OPEN_HIGH } from '../../../domain/buckets.js';
import { localHour } from '../../../domain/city-time.js';
import { type DayPhase, dayPhase } from '../../../domain/day-phase.js';
import { dyingHoldings, type Holding, isBreakthrough } from '../../../domain/held-buckets.js';
import {
  type Mark,
  type OpenBook,
  type PickPosition,
  type PricedPick,
  pricePositions,
  type TradePosition,
} from '../../../domain/position-pnl.js';
import { deltaFToC, fToC, round } from '../../../domain/units.js';
import { localClock } from '../../format/time.js';
import { bucketRows } from '../forecasts/bucket-table.js';

export type BoardFlag = 'BREAKTHROUGH' | 'DEAD' | 'KILL';

/** One bucket of the ladder: dead below the running high, alive, or the forecast's favourite; and whether held. */
export interface LadderCell {
  label: string;
  state: 'dead' | 'alive' | 'favourite';
  held: boolean;
}

/** The larger side of the effective edge over the day's buckets and both venues. */
export interface BestEdge {
  bucket: Bucket;
  side: 'YES' | 'NO';
  venue: 'mkta' | 'mktb';
  /** The price of that side on that venue's newest quote. */
  price: number;
  /** In price units (0.062 = 6.2 points). */
  value: number;
}

/** One row of the board: a city's market day at a glance, in the market's unit. */
export interface BoardRow {
  cityId: string;
  name: string;
  tz: string;
  localTime: string;
  /** Minutes since local midnight, to sort by. */
  localMinutes: number;
  phase: DayPhase;
  unit: MarketUnit;
  forecast: { mu: number; sigma: number } | null;
  /** The spread of the models' Tmax (`model_tmax_range`). */
  spread: number | null;
  /** The METAR high so far, and how far the day's high still has to climb to settle in the next bucket up. */
  runningHigh: number | null;
  toNextEdge: number | null;
  ladder: LadderCell[];
  best: BestEdge | null;
  /** The city-day's open positions: how many, what they staked, and their unrealised P&L at the newest mkta quote. */
  positions: number;
  exposure: number;
  pnl: number | null;
  flags: BoardFlag[];
}

/** What a row is worked out from, all read from the cache for one city's local day. */
export interface BoardDayInput {
  city: City;
  unit: MarketUnit;
  nowMs: number;
  date: string;
  forecasts: ForecastRow[];
  metarHigh: { f: number; c: number | null } | null;
  mkta: DayQuote[];
  mktb: DayQuote[];
  lock: FusionLock | null;
  /** The open positions of this city-day only (dayBook), and their holdings (holdingsOf). */
  book: OpenBook<PickPosition, TradePosition>;
  holdings: Holding[];
  killed: boolean;
}

/** The open book narrowed to one city-day. */
export function dayBook<P extends PickPosition, T extends TradePosition>(
  open: OpenBook<P, T>,
  cityId: string,
  date: string,
): OpenBook<P, T> {
  return {
    strategies: open.strategies.filter((s) => s.record.city_id === cityId && s.record.local_date === date),
    locks: open.locks.filter((l) => l.city_id === cityId && l.local_date === date),
    picks: open.picks.filter((p) => p.city_id === cityId && p.market_date === date),
    trades: open.trades.filter((t) => t.city_id === cityId && t.market_date === date),
    counts: open.counts,
  };
}

/** Stake and unrealised P&L of a city-day's book, marked to the day's newest mkta quotes (position-pnl.ts). */
function dayMarks(
  book: BoardDayInput['book'],
  date: string,
  mkta: DayQuote[],
): { n: number; stake: number; pnl: number | null } {
  // a side the venue did not quote stays null: pricing reads it as unquoted (position-pnl's sidePrice), never 0
  const quotes = new QuoteBook(
    mkta.map((q) => ({
      local_date: date,
      bucket_slug: q.bucket_slug ?? '',
      bucket_label: q.bucket_label ?? '',
      yes_price: q.yes_price as number,
      no_price: q.no_price as number,
      snapshot_at: q.snapshot_at ?? '',
    })),
  );
  const priced = pricePositions(book, () => quotes);
  const pickMarks = (p: PricedPick<PickPosition>): Mark[] => [p.mark, ...p.addons.flatMap(pickMarks)];
  const marks = [
    ...priced.strategies.map((s) => s.mark),
    ...priced.locks.map((l) => l.mark),
    ...priced.picks.flatMap(pickMarks),
    ...priced.trades.map((t) => t.mark),
  ];
  const known = marks.filter((m) => m.pnl !== null);
  return {
    n: marks.length,
    stake: round(marks.reduce((s, m) => s + m.stake, 0)),
    pnl: known.length ? round(known.reduce((s, m) => s + (m.pnl ?? 0), 0)) : null,
  };
}

const layer = <T>(rows: ForecastRow[], name: string, date: string) =>
  rows.find((r) => r.layer === name && r.local_date === date) as T | undefined;

/** A city's row of the board from what the cache holds of its day. */
export function boardRow(v: BoardDayInput): BoardRow {
  const { city, unit } = v;
  const primary = layer<SvcProForecast>(v.forecasts, 'svc_pro_forecast', v.date);
  const range = layer<ModelTmaxRange>(v.forecasts, 'model_tmax_range', v.date);
  const forecast = primary
    ? unit === 'F'
      ? { mu: primary.predicted_max_f, sigma: primary.sigma_f }
      : { mu: primary.predicted_max_c, sigma: primary.sigma_c }
    : null;
  const high = v.metarHigh;
  const runningHigh = high ? (unit === 'F' ? high.f : (high.c ?? fToC(high.f))) : null;
  const rows = forecast
    ? bucketRows({ marketUnit: unit, ...forecast, runningHigh: runningHigh ?? undefined, mkta: v.mkta, mktb: v.mktb })
    : [];
  const priced = rows.filter((r) => r.bucket !== null);
  const favourite = priced.reduce<(typeof priced)[number] | null>(
    (a, r) => (!a || (r.p ?? 0) > (a.p ?? 0) ? r : a),
    null,
  );
  const heldOn = (b: Bucket) =>
    v.holdings.some((h) => h.bucket.unit === unit && h.bucket.low === b.low && h.bucket.high === b.high);
  const ladder = priced.map((r) => ({
    label: r.label,
    state: r.dead ? ('dead' as const) : r === favourite ? ('favourite' as const) : ('alive' as const),
    held: heldOn(r.bucket as Bucket),
  }));
  let best: BestEdge | null = null;
  for (const r of priced) {
    if (!r.edge || (best && r.edge.value <= best.value)) continue;
    const venue = r.edge.venue === 'a' ? 'mkta' : 'mktb';
    const quote = venue === 'mkta' ? r.mkta : r.mktb;
    const price = r.edge.side === 'YES' ? quote?.yes_price : quote?.no_price;
    if (price == null) continue;
    best = { bucket: r.bucket as Bucket, side: r.edge.side, venue, price, value: r.edge.value };
  }
  let toNextEdge: number | null = null;
  if (runningHigh !== null) {
    const whole = settledWhole(runningHigh);
    const holding = priced.find((r) => r.bucket && whole >= r.bucket.low && whole <= r.bucket.high)?.bucket;
    if (holding && holding.high !== OPEN_HIGH) toNextEdge = round(holding.high + 0.5 - runningHigh, 1);
  }
  const marks = dayMarks(v.book, v.date, v.mkta);
  const flags: BoardFlag[] = [];
  if (high && isBreakthrough(high.f, range?.tmax_max_f)) flags.push('BREAKTHROUGH');
  if (dyingHoldings(v.holdings, runningHigh ?? undefined).length > 0) flags.push('DEAD');
  if (v.killed) flags.push('KILL');
  return {
    cityId: city.city_id,
    name: city.city_name,
    tz: city.tz,
    localTime: localClock(v.nowMs, city.tz),
    localMinutes: Math.floor(localHour(v.nowMs, city.tz) * 60),
    phase: dayPhase(v.nowMs, city.tz, v.lock ? { peakHour: v.lock.peak_hour, resolved: v.lock.resolved } : null),
    unit,
    forecast,
    spread: range ? (unit === 'F' ? range.spread_f : deltaFToC(range.spread_f)) : null,
    runningHigh,
    toNextEdge,
    ladder,
    best,
    positions: marks.n,
    exposure: marks.stake,
    pnl: marks.pnl,
    flags,
  };
}

export type BoardSort = 'edge' | 'time' | 'city';
export const BOARD_SORTS: readonly BoardSort[] = ['edge', 'time', 'city'];
export const SORT_NAMES: Record<BoardSort, string> = { edge: 'best edge', time: 'local time', city: 'city' };

/** Best edge first (rows without one last), or the latest local time first, or by city name. */
export function sortBoard(rows: readonly BoardRow[], by: BoardSort): BoardRow[] {
  const byName = (a: BoardRow, b: BoardRow) => a.name.localeCompare(b.name);
  const compare: Record<BoardSort, (a: BoardRow, b: BoardRow) => number> = {
    edge: (a, b) =>
      (b.best?.value ?? Number.NEGATIVE_INFINITY) - (a.best?.value ?? Number.NEGATIVE_INFINITY) || byName(a, b),
    time: (a, b) => b.localMinutes - a.localMinutes || byName(a, b),
    city: byName,
  };
  return [...rows].sort(compare[by]);
}
