import { type DayQuote, QuoteBook } from '../cache/index.js';
import { picksNote } from '../domain/book-horizon.js';
import type { Bucket } from '../domain/buckets.js';
import { localDay } from '../domain/city-time.js';
import type { DayPhase } from '../domain/day-phase.js';
import { dyingHoldings, type Holding } from '../domain/held-buckets.js';
import {
  type Mark,
  type OpenBook,
  type PickPosition,
  type PricedPick,
  pricePositions,
  type Quotes,
  type TradePosition,
} from '../domain/position-pnl.js';
import { practicallyDead } from '../domain/practically-dead.js';
import { round } from '../domain/units.js';
import type { BoardDay } from './board-day.js';
import type { PricedBucket } from './priced-day.js';
import { settledQuotes } from './settled-day.js';

/**
 * A row's flags in words: `CHECK` (the running high is far outside the forecast, board-day's `check`: it takes the
 * place of the flags that reading would raise), `BREAKTHROUGH`, `DEAD` (a held YES bucket died), `KILL`, `CROSS` (a
 * bucket one venue sells below what the other bids, after both costs: venue-crosses.ts; no model in it, so CHECK does
 * not take its place).
 */
export type BoardFlag = 'CHECK' | 'BREAKTHROUGH' | 'DEAD' | 'KILL' | 'CROSS';

/**
 * One bucket of the ladder: dead, practically dead (`faint`: alive by the rule but under 2% once the peak began,
 * domain/practically-dead.ts), alive, or the forecast's favourite; and whether an open position holds it.
 */
export interface LadderCell {
  label: string;
  state: 'dead' | 'faint' | 'alive' | 'favourite';
  held: boolean;
}

/** A bucket's state on the ladder. */
function ladderState(r: PricedBucket, favourite: PricedBucket | null, phase: DayPhase): LadderCell['state'] {
  if (r.dead) return 'dead';
  if (r === favourite) return 'favourite';
  return practicallyDead(r.p, r.dead, phase) ? 'faint' : 'alive';
}

/** A city's row of the board: its market day, its ladder, its open book and its flags. */
export interface BoardRow extends BoardDay {
  ladder: LadderCell[];
  /** The buckets an open position holds (of `buckets`); on a day over, one held through its end. */
  held: ReadonlySet<PricedBucket>;
  /**
   * The city-day's open positions: how many, what they staked, and their unrealised P&L at the newest mkta quote; on
   * a day over, those held through its end and their P&L settled at its outcome (settled-day.ts).
   */
  positions: number;
  exposure: number;
  pnl: number | null;
  flags: BoardFlag[];
  /** DESIGN 4 "the book's horizon": what staked and P&L say of the day's insurance picks (null: the book is whole). */
  picksNote: string | null;
  /** The city's next market day, listed before it begins, on the screen beside today's (read-board.ts). */
  tomorrow?: boolean;
  /**
   * DESIGN 4 "an edge's own record": what the board's record says of edges of the best edge's band on its venue over
   * the cache's settled days (edge-band-record.ts); absent where the reader did not ask or there is no best edge.
   */
  bestRecord?: string;
}

/**
 * The line under the board (DESIGN 4 "the book's horizon"): which rows' staked and P&L leave out insurance picks the
 * cache never received, and from when it has them; null when every row's day began after the horizon. A tomorrow row
 * has not begun, so it is never noted: where every today's row is, the line says so rather than name all the cities.
 */
export function boardPicksNote(rows: readonly Pick<BoardRow, 'name' | 'picksNote' | 'tomorrow'>[]): string | null {
  const noted = rows.filter((r) => r.picksNote !== null);
  const [first] = noted;
  if (!first) return null;
  const today = rows.filter((r) => !r.tomorrow);
  const which =
    noted.length === rows.length
      ? ''
      : noted.length === today.length && noted.every((r) => !r.tomorrow)
        ? " of today's markets"
        : ` of ${noted.map((r) => r.name).join(', ')}`;
  return `staked, P&L${which}: ${first.picksNote}`;
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
    horizon: open.horizon,
  };
}

/** The day's newest mkta quotes, as the book is marked while the day runs. */
export function mktaQuotes(date: string, mkta: readonly DayQuote[]): Quotes {
  // a side the venue did not quote stays null: pricing reads it as unquoted (position-pnl's sidePrice), never 0
  return new QuoteBook(
    mkta.map((q) => ({
      local_date: date,
      bucket_slug: q.bucket_slug ?? '',
      bucket_label: q.bucket_label ?? '',
      yes_price: q.yes_price as number,
      no_price: q.no_price as number,
      snapshot_at: q.snapshot_at ?? '',
    })),
  );
}

/**
 * Stake and P&L of a city-day's book (position-pnl.ts): unrealised at the day's newest mkta quotes while it runs,
 * settled at its outcome once it is over (settled-day.ts).
 */
function dayMarks(
  book: OpenBook<PickPosition, TradePosition>,
  quotes: Quotes,
): { n: number; stake: number; pnl: number | null } {
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

/** What the board adds to a market day: the city-day's open book, its holdings and whether a kill is unacknowledged. */
export interface DayBook {
  book: OpenBook<PickPosition, TradePosition>;
  holdings: readonly Holding[];
  killed: boolean;
}

/** A city's row of the board from its market day (board-day.ts) and its book. */
export function boardRow(day: BoardDay, { book, holdings, killed }: DayBook): BoardRow {
  const priced = day.buckets.filter((r) => r.bucket !== null);
  // the most probable bucket; none without a p (no usable forecast)
  const favourite = priced.reduce<(typeof priced)[number] | null>(
    (a, r) => (r.p !== null && (!a || r.p > (a.p as number)) ? r : a),
    null,
  );
  const heldOn = (b: Bucket) =>
    holdings.some((h) => h.bucket.unit === day.unit && h.bucket.low === b.low && h.bucket.high === b.high);
  const held = new Set(priced.filter((r) => heldOn(r.bucket as Bucket)));
  const ladder = priced.map((r) => ({
    label: r.label ?? '',
    state: ladderState(r, favourite, day.phase),
    held: held.has(r),
  }));
  const mkta = day.buckets.flatMap((r) => (r.mkta ? [r.mkta] : []));
  const marks = dayMarks(
    book,
    day.settled === null ? mktaQuotes(day.date, mkta) : settledQuotes(holdings, day.market, day.settled),
  );
  const flags: BoardFlag[] = [];
  if (day.check) flags.push('CHECK');
  else {
    if (day.breakthrough) flags.push('BREAKTHROUGH');
    // a settled day's losers are in its P&L: nothing is dying any more
    if (day.settled === null && dyingHoldings(holdings, day.market, day.runningHighC).length > 0) flags.push('DEAD');
  }
  if (killed) flags.push('KILL');
  if (day.buckets.some((r) => r.cross !== null)) flags.push('CROSS');
  // a day that began before the book's horizon may have had picks the cache never received: its stake leaves them out
  const note = picksNote(book.horizon, localDay(day.date, day.tz).startMs);
  return { ...day, ladder, held, positions: marks.n, exposure: marks.stake, pnl: marks.pnl, flags, picksNote: note };
}
